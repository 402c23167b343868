"""Children on a leash (issue 10 item 3): every attack on check-rounder from the issue, as a regression.

Each hostile program must get a failing verdict within the timeout, with bounded memory, and
leave no process behind.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

SRC = str(Path(__file__).resolve().parents[1] / "src")
PY = sys.executable
MAX_RSS_KB = 400_000  # the checker's own peak memory must stay far below the floods (GBs before the fix)


def run_measured(argv: list[str], cwd: Path, timeout: float = 60.0) -> tuple[int, dict[str, object], float, int]:
    """Run ``progexec check-rounder --json``: (exit code, report, seconds, the checker's peak RSS in KB). ``timeout``
    is a backstop only: a checker that never finishes fails the test; no test compares the seconds."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([SRC, str(cwd)]))
    started = time.monotonic()
    out_path = cwd / "out.json"
    with open(out_path, "wb") as out:
        proc = subprocess.Popen([PY, "-m", "progexec", "check-rounder", "--json", *argv], cwd=cwd, env=env,
                                stdout=out, stderr=subprocess.DEVNULL)
        deadline = started + timeout
        peak = 0
        while True:
            peak = max(peak, _high_water_kb(proc.pid))
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                proc.kill()
                pytest.fail("the checker did not finish")
            time.sleep(0.05)
    proc.returncode = os.waitstatus_to_exitcode(status)
    text = out_path.read_text(encoding="utf-8")
    # the child's own high-water mark (VmHWM, reset by exec): ru_maxrss would also carry this test
    # process's size from before the fork, which depends on what the suite imported earlier
    return proc.returncode, json.loads(text) if text.strip() else {}, time.monotonic() - started, peak or usage.ru_maxrss


def _high_water_kb(pid: int) -> int:
    """The peak resident set of a running process in KB (``VmHWM``), 0 when it cannot be read."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().split(") ")[-1][0] != "Z"
    except OSError:
        return False


def classes(report: dict[str, object]) -> set[str]:
    by_class = report["by_class"]
    assert isinstance(by_class, dict)
    faults = report.get("faults", [])
    assert isinstance(faults, list)
    return set(by_class) | {fault["class"] for fault in faults}


def test_yes_flood_is_output_flood_with_bounded_memory(tmp_path: Path) -> None:
    code, report, seconds, rss = run_measured(["--cmd", "yes 0x1p+0", "--cases", "3000", "--timeout", "5"],
                                              tmp_path)
    assert code == 1 and report["passed"] is False
    assert "output_flood" in classes(report)
    assert rss < MAX_RSS_KB


def test_endless_line_without_newline_is_a_flood_within_the_timeout(tmp_path: Path) -> None:
    code, report, seconds, rss = run_measured(["--cmd", "cat /dev/zero", "--cases", "500", "--timeout", "5"],
                                              tmp_path)
    assert code == 1 and "output_flood" in classes(report)
    assert rss < MAX_RSS_KB


def test_slow_drip_without_newline_is_not_progress(tmp_path: Path) -> None:
    drip = write(tmp_path, "drip.py", """
        import sys, time
        while True:
            sys.stdout.write("1"); sys.stdout.flush(); time.sleep(0.05)
    """)
    code, report, seconds, _ = run_measured(["--cmd", f"{PY} {drip}", "--cases", "200", "--timeout", "1"], tmp_path)
    assert code == 1 and "no_answer" in classes(report)
    assert any("no progress for 1s" in note for note in report["protocol"])  # type: ignore[union-attr]


GRANDCHILD = """
    import os, subprocess, sys
    for line in sys.stdin:
        h, n = line.split()
        print(round(float.fromhex(h), int(n)).hex(), flush=True)
    child = subprocess.Popen(["sleep", "600"], start_new_session={new_session})  # inherits stdout
    open("grandchild.pid", "w").write(str(child.pid))
"""


@pytest.mark.parametrize("new_session", [False, True])
def test_grandchild_holding_stdout_fails_and_is_killed(tmp_path: Path, new_session: bool) -> None:
    program = write(tmp_path, "grand.py", GRANDCHILD.format(new_session=new_session))
    code, report, seconds, _ = run_measured(["--cmd", f"{PY} {program}", "--cases", "300", "--timeout", "5"],
                                            tmp_path)
    assert code == 1 and report["passed"] is False  # every answer was right: the verdict fails anyway
    assert report["divergent"] == 0 and "no_exit" in classes(report)
    pid = int((tmp_path / "grandchild.pid").read_text())
    deadline = time.monotonic() + 60  # SIGKILL was sent; the kernel finishes it asynchronously (a backstop)
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid)


def test_stderr_flood_is_not_read_whole(tmp_path: Path) -> None:
    loud = write(tmp_path, "loud.py", """
        import os, sys
        block = b"e" * (1 << 20)
        for _ in range(2048):  # 2 GiB
            os.write(2, block)
        for line in sys.stdin:
            h, n = line.split()
            print(round(float.fromhex(h), int(n)).hex(), flush=True)
    """)
    code, report, seconds, rss = run_measured(["--cmd", f"{PY} {loud}", "--cases", "200", "--timeout", "2"],
                                              tmp_path)
    assert code == 1 and "no_answer" in classes(report)
    assert rss < MAX_RSS_KB
    assert any("stderr" in note for note in report["protocol"])  # type: ignore[union-attr]


HOSTILE_ROUNDERS = {
    "exit_zero": "raise SystemExit(0)",
    "os_exit": "import os; os._exit(0)",
    "base_exception": "raise KeyboardInterrupt()",
    "huge_int": "return 10 ** 5000",
    "prints": "print('0x1p+0'); return round(x, n) + 1.0",
}


@pytest.mark.parametrize("name", sorted(HOSTILE_ROUNDERS))
def test_hostile_python_rounder_gets_a_failing_verdict(tmp_path: Path, name: str) -> None:
    write(tmp_path, f"hostile_{name}.py", f"def r(x, n):\n    {HOSTILE_ROUNDERS[name]}\n")
    code, report, seconds, _ = run_measured(["--python", f"hostile_{name}:r", "--cases", "300", "--timeout", "5"],
                                            tmp_path)
    assert code == 1 and report["passed"] is False
    expected = {"exit_zero": "exception", "os_exit": "no_answer", "base_exception": "exception",
                "huge_int": "not_float", "prints": "wrong_value"}[name]
    assert expected in classes(report)


def test_python_module_that_exits_at_import_is_a_usage_error(tmp_path: Path) -> None:
    write(tmp_path, "exits_at_import.py", "import os\nos._exit(0)\ndef r(x, n):\n    return round(x, n)\n")
    code, _, _, _ = run_measured(["--python", "exits_at_import:r", "--cases", "10"], tmp_path)
    assert code == 2


def test_closed_stdout_keeps_the_failing_exit_code(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=SRC)
    naive = write(tmp_path, "naive_mod.py", "def r(x, n):\n    return round(x * 10.0 ** n) / 10.0 ** n\n")
    shell = (f"{PY} -m progexec check-rounder --python naive_mod:r --cases 3000 | head -2 >/dev/null; "
             "exit ${PIPESTATUS[0]}")
    done = subprocess.run(["bash", "-c", shell], cwd=naive.parent, env=dict(env, PYTHONPATH=f"{SRC}:{tmp_path}"),
                          capture_output=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert b"Traceback" not in done.stderr
