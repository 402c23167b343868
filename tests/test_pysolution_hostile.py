"""Hostile solutions in the official FinanceMath prediction format change no verdict but their own and leave
nothing behind: reading the gold, network, forks, host files, signals to the scorer, floods, loops, memory."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from progexec.isolation import bwrap as bubblewrap
from progexec.datasets.pysolution.datasets import FINANCEMATH
from progexec.datasets.pysolution.pool import Budget
from progexec.datasets.pysolution.scoring import load_records, score_runs

pytestmark = pytest.mark.skipif(not bubblewrap.status().available, reason="no bubblewrap isolation on this machine")

# replaces the audit hook's code, so the attacks below meet the kernel, not the in-process layer
DISARM = "import sys\nsys.modules['__main__']._audit.__code__ = (lambda event, args: None).__code__\nimport os\n"


AS_ROOT = {"forbidden"} if os.geteuid() == 0 else {"forbidden", "ok"}


def attacks(gold_path: Path, marker: Path) -> dict[str, tuple[str, set[str]]]:
    """name -> (solution body, the statuses it may end with)."""
    return {
        "read_gold": (f"def solution():\n    return float(open({str(gold_path)!r}).read()[:5])", {"runtime_error"}),
        "read_gold_disarmed": (DISARM + f"def solution():\n    return len(open({str(gold_path)!r}).read())",
                               {"runtime_error"}),
        "network": (DISARM + "import socket\ndef solution():\n    s = socket.socket()\n"
                             "    s.connect(('127.0.0.1', 80))\n    return 1", {"forbidden"}),
        "fork": (DISARM + "def solution():\n    os.fork()\n    return 1", {"forbidden"}),
        "thread": ("import threading\ndef solution():\n    threading.Thread(target=print).start()\n    return 1",
                   {"runtime_error", "forbidden"}),
        "write_host_file": (DISARM + f"def solution():\n    open({str(marker)!r}, 'w').write('x')\n    return 1",
                            {"runtime_error", "forbidden"}),
        "write_tmp": (DISARM + "def solution():\n    open('/tmp/planted', 'w').write('x')\n    return 1",
                      {"forbidden"}),
        "mkdir_tmp": (DISARM + "def solution():\n    os.mkdir('/tmp/planted_dir')\n    return 1", {"forbidden"}),
        # as root (CI) the sandbox's root and /dev belong to root; in a user namespace, to the mapped user
        "mkdir_root": (DISARM + "def solution():\n    os.mkdir('/planted_dir')\n    return 1", AS_ROOT),
        "mkdir_dev": (DISARM + "def solution():\n    os.mkdir('/dev/planted_dir')\n    return 1", AS_ROOT),
        "kill_everything": (DISARM + "import signal\ndef solution():\n    os.kill(-1, signal.SIGKILL)\n    return 1",
                            {"forbidden"}),
        "stop_the_worker": (DISARM + "import signal\ndef solution():\n    os.kill(os.getppid(), signal.SIGSTOP)\n"
                                     "    return 1", {"forbidden"}),
        "flood_result_pipe": (DISARM + "def solution():\n    for fd in range(3, 32):\n        try:\n"
                                       "            os.write(fd, b'{' * 70000)\n        except OSError:\n"
                                       "            pass\n    return 1", {"bad_result"}),
        "forge_result": (DISARM + "def solution():\n    for fd in range(3, 32):\n        try:\n"
                                  "            os.write(fd, b'{\"kind\": \"ok\", \"type\": \"float\", \"number\": 1.5}')\n"
                                  "            os._exit(0)\n        except OSError:\n            pass\n",
                         {"ok"}),
        "infinite_loop": ("def solution():\n    while True:\n        pass", {"time_limit"}),
        "sleep": ("import time\ndef solution():\n    time.sleep(1000)\n    return 1", {"time_limit"}),
        "select_sleep": ("import select\ndef solution():\n    select.select([], [], [], 1000)\n    return 1",
                         {"time_limit"}),
        "memory_bomb": ("def solution():\n    return 'x' * (3 * 10**9)", {"memory_limit"}),
        "growing_memory_bomb": ("def solution():\n    x = []\n    while True:\n        x.append(bytearray(10**8))",
                                {"memory_limit", "time_limit"}),
        "output_flood": ("import sys\ndef solution():\n    while True:\n        sys.stdout.write('x' * 10**6)",
                         {"time_limit"}),
        "patch_shared_state": ("import math, builtins\nmath.sqrt = lambda x: -1.0\nbuiltins.abs = None\n"
                               "def solution():\n    return 0.0", {"ok"}),
        "exit": ("def solution():\n    raise SystemExit(0)", {"exit"}),
    }


def test_hostile_solutions_change_no_verdict_but_their_own(tmp_path: Path) -> None:
    before = _descendants(os.getpid())  # processes earlier tests of this run keep (their pools), not ours
    marker = tmp_path / "escaped"
    gold_path = tmp_path / "gold.json"
    hostile = attacks(gold_path, marker)
    gold = [{"question_id": f"h-{name}", "python_solution": "def solution():\n    return 1.5", "topic": "attack"}
            for name in hostile]
    gold += [{"question_id": f"b-{index}", "python_solution": f"import math\ndef solution():\n    return {index} + 0.25",
              "topic": "benign"} for index in range(12)]
    gold_path.write_text(json.dumps(gold), encoding="utf-8")
    benign = [{"question_id": f"b-{index}", "output": [f"```python\nimport math\ndef solution():\n"
                                                        f"    return abs(math.sqrt({(index + 0.25) ** 2}))\n```"]}
              for index in range(12)]
    attack_records = [{"question_id": f"h-{name}", "output": [f"Sure.\n```python\n{code}\n```\n"]}
                      for name, (code, _) in hostile.items()]
    mixed = [record for pair in zip(attack_records, benign) for record in pair] + attack_records[len(benign):]
    (tmp_path / "mixed.json").write_text(json.dumps(mixed), encoding="utf-8")
    (tmp_path / "benign.json").write_text(json.dumps(benign), encoding="utf-8")
    board = score_runs(FINANCEMATH, load_records(gold_path),
                       [("mixed", load_records(tmp_path / "mixed.json")),
                        ("benign", load_records(tmp_path / "benign.json"))],
                       jobs=1, budget=Budget(cpu_seconds=1, wall_seconds=3))
    mixed_score, benign_score = board.models
    statuses = {item.id: item.result.status.value for item in mixed_score.items}
    for name, (_, allowed) in hostile.items():
        assert statuses[f"h-{name}"] in allowed, (name, statuses[f"h-{name}"])
    by_id = {item.id: item for item in mixed_score.items}
    # time.sleep is counted against the official alarm (no clock needed); a wait it cannot count (select) uses no
    # CPU: only the wall-clock backstop stops it
    assert not by_id["h-sleep"].result.wall_clock and "alarm" in by_id["h-sleep"].result.message
    assert by_id["h-select_sleep"].result.wall_clock
    assert mixed_score.summary()["wall_clock_stops"] >= 1
    forged = by_id["h-forge_result"]
    assert forged.official  # a forged report can only claim its own answer (1.5 is this question's gold)
    for item in mixed_score.items + benign_score.items:
        if item.id is not None and item.id.startswith("b-"):
            assert item.official and item.strict and item.result.status.value == "ok", item.id
    assert benign_score.accuracy == 100.0
    assert not marker.exists()
    assert _descendants(os.getpid()) - before == set()  # nothing the scoring started outlives it


def _descendants(root: int) -> set[int]:
    """Every live process below ``root`` (sandbox workers, their children, anything a solution started)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier and pid not in found}
        found |= frontier
    return found
