"""No process outlives a checker: a port's whole tree is reaped, detached daemons included, and leaving one fails.

The daemon double-forks, calls ``setsid`` and closes its stdio, so neither the process group
nor the pipes lead to it: only the reaper (a child subreaper) finds it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

from progexec.isolation.leash import ChildExchange, FaultKind

SRC = str(Path(__file__).resolve().parents[1] / "src")
PY = sys.executable

DAEMON = """
    import os, sys, time
    first = os.fork()
    if first == 0:
        os.setsid()
        if os.fork() == 0:
            for fd in (0, 1, 2):
                os.close(fd)
            with open({pidfile!r} + ".tmp", "w") as out:
                out.write(str(os.getpid()))
            os.rename({pidfile!r} + ".tmp", {pidfile!r})
            time.sleep(600)
        os._exit(0)
    os.waitpid(first, 0)
    while not os.path.exists({pidfile!r}):  # the daemon is running before any answer is given
        time.sleep(0.01)
    {answer}
"""
ROUNDER_ANSWER = """for line in sys.stdin:
        h, n = line.split()
        print(round(float.fromhex(h), int(n)).hex(), flush=True)"""
ECHO_ANSWER = """for line in sys.stdin:
        print(line.strip(), flush=True)"""


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().split(") ")[-1][0] != "Z"
    except OSError:
        return False


def daemon_port(tmp_path: Path, answer: str) -> tuple[Path, Path]:
    pidfile = tmp_path / "daemon.pid"
    program = tmp_path / "daemon_port.py"
    program.write_text(textwrap.dedent(DAEMON.format(pidfile=str(pidfile), answer=answer)), encoding="utf-8")
    return program, pidfile


def wait_dead(pid: int) -> bool:
    deadline = time.monotonic() + 60  # the kernel finishes a SIGKILL asynchronously: a backstop, not a measure
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.02)
    return False


def test_the_leash_kills_a_detached_daemon_and_names_it(tmp_path: Path) -> None:
    program, pidfile = daemon_port(tmp_path, ECHO_ANSWER)
    leash = ChildExchange([PY, str(program)], timeout=10)
    leash.start()
    answers = leash.exchange([b"a\n", b"b\n"])
    leash.close()
    assert answers == [b"a", b"b"]
    pid = int(pidfile.read_text())
    assert wait_dead(pid)
    faults = [fault for fault in leash.faults if fault.kind is FaultKind.NO_EXIT]
    assert faults and "left 1 process(es) running" in faults[0].detail and str(pid) in faults[0].detail


def run_cli(command: str, argv: list[str], cwd: Path) -> tuple[int, dict[str, Any]]:
    env = dict(os.environ, PYTHONPATH=SRC)
    done = subprocess.run([PY, "-m", "progexec", command, "--json", "--no-progress", *argv], cwd=cwd, env=env,
                          capture_output=True, timeout=120)
    return done.returncode, json.loads(done.stdout)


def test_check_rounder_fails_a_port_that_leaves_a_daemon(tmp_path: Path) -> None:
    program, pidfile = daemon_port(tmp_path, ROUNDER_ANSWER)
    code, report = run_cli("check-rounder", ["--cmd", f"{PY} {program}", "--cases", "300"], tmp_path)
    assert code == 1 and report["passed"] is False
    assert report["divergent"] == 0  # every answer was right: the daemon alone fails the verdict
    assert [fault["class"] for fault in report["faults"]] == ["no_exit"]
    assert wait_dead(int(pidfile.read_text()))


EVALUATOR_ANSWER = """import json
    for line in sys.stdin:
        case = json.loads(line)
        print(json.dumps({"id": case["id"], "valid": False, "value": None}), flush=True)"""


def test_check_evaluator_fails_a_port_that_leaves_a_daemon(tmp_path: Path) -> None:
    program, pidfile = daemon_port(tmp_path, EVALUATOR_ANSWER)
    code, report = run_cli("check-evaluator", ["--cmd", f"{PY} {program}", "--cases", "50"], tmp_path)
    assert code == 1
    assert "no_exit" in {fault["class"] for fault in report["faults"]}
    assert wait_dead(int(pidfile.read_text()))


def test_a_short_lived_helper_process_is_not_a_leftover(tmp_path: Path) -> None:
    """A port whose own child exits by itself (a shell pipeline, say) leaves nothing behind: no fault."""
    program = tmp_path / "helper_port.py"
    program.write_text(textwrap.dedent("""
        import subprocess, sys
        subprocess.run(["true"])
        for line in sys.stdin:
            print(line.strip(), flush=True)
    """), encoding="utf-8")
    leash = ChildExchange([PY, str(program)], timeout=10)
    leash.start()
    assert leash.exchange([b"x\n"]) == [b"x"]
    leash.close()
    assert leash.faults == []


def test_a_port_that_hangs_is_killed_with_its_daemon(tmp_path: Path) -> None:
    program, pidfile = daemon_port(tmp_path, "time.sleep(600)")
    leash = ChildExchange([PY, str(program)], timeout=1, max_restarts=0)
    leash.start()
    answers = leash.exchange([b"a\n"])
    leash.close()
    assert getattr(answers[0], "kind", None) is FaultKind.NO_ANSWER
    assert wait_dead(int(pidfile.read_text()))


def test_a_port_that_kills_its_reaper_still_loses_its_daemon(tmp_path: Path) -> None:
    """The port SIGKILLs its parent (the reaper) first: its daemon is found by the mark in its environment."""
    program, pidfile = daemon_port(tmp_path, ECHO_ANSWER)
    source = program.read_text(encoding="utf-8")
    program.write_text("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n" + source, encoding="utf-8")
    leash = ChildExchange([PY, str(program)], timeout=10)
    leash.start()
    answers = leash.exchange([b"a\n", b"b\n"])
    leash.close()
    assert answers == [b"a", b"b"]
    assert wait_dead(int(pidfile.read_text()))
    assert any(fault.kind is FaultKind.NO_EXIT for fault in leash.faults), leash.faults


TREE = """
import os, sys, time
root = os.getpid()  # the process the leash's reaper started: it answers once all 63 exist
pids = {pids!r}
os.makedirs(pids, exist_ok=True)
depth = 0
while depth < 5:  # a binary tree of 63 processes, each in a session of its own
    if os.fork() == 0:
        os.setsid()
        depth += 1
        continue
    if os.fork() == 0:
        depth += 1
        continue
    break
open(os.path.join(pids, str(os.getpid())), "w").close()
if os.getpid() != root:
    for fd in (0, 1, 2):
        os.close(fd)
    time.sleep(600)
while len(os.listdir(pids)) < 63:
    time.sleep(0.01)
for line in sys.stdin:
    print(line.strip(), flush=True)
"""


def test_a_whole_tree_of_detached_processes_is_reaped(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    program = tmp_path / "tree.py"
    program.write_text(textwrap.dedent(TREE).format(pids=str(pids)), encoding="utf-8")
    leash = ChildExchange([PY, str(program)], timeout=20)
    leash.start()
    assert leash.exchange([b"x\n"]) == [b"x"]
    leash.close()
    started = [int(name) for name in os.listdir(pids)]
    assert len(started) == 63
    assert all(wait_dead(pid) for pid in started)
    fault = next(fault for fault in leash.faults if fault.kind is FaultKind.NO_EXIT)
    assert "left 62 process(es) running" in fault.detail


def test_a_left_process_is_named_by_its_arguments_however_deep_its_install_path() -> None:
    """A process started from a deep path is named by its program's last part and its arguments, so the
    argument that tells it apart is in the name (it was cut off when the checkout lived in a deeper folder)."""
    from progexec.isolation.reaper import _name

    deep = "/" + "/".join(["a-rather-long-folder-name"] * 8) + "/python"
    code = "import sys; print(flush=True); sys.stdin.read()"
    proc = subprocess.Popen([deep, "-c", code, "distinctive-argument"], executable=PY, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == b"\n"  # running its own code: argv is set
        name = _name(proc.pid)
    finally:
        proc.kill()
        proc.wait()
    assert name == f"{proc.pid} python -c {code} distinctive-argument"
