"""A solution can touch only itself: it cannot re-limit, renice, re-pin, reschedule or signal its worker, and it
leaves no SysV IPC or message queue behind for the next solution; the solutions after it score as they would alone.

Every attack runs in the same single worker as the honest solutions after it (``jobs=1``), with the in-process
audit hook disarmed so that the kernel's seccomp filter is what answers. A worker whose state a child did change
(possible only without isolation, where no filter is loaded) is replaced before the next solution runs.
"""

from __future__ import annotations

import platform

import pytest

from progexec.isolation import bwrap as bubblewrap
from progexec.datasets.pysolution.pool import Budget, Pool, Request

isolated = pytest.mark.skipif(not bubblewrap.status().available, reason="no bubblewrap isolation on this machine")

# replaces the audit hook's code, so the attacks below meet the kernel, not the in-process layer
DISARM = ("import sys\nsys.modules['__main__']._audit.__code__ = (lambda event, args: None).__code__\n"
          "import os, ctypes, resource, signal\nlibc = ctypes.CDLL(None, use_errno=True)\n"
          "def check(result, call):\n    if result < 0:\n        number = ctypes.get_errno()\n"
          "        raise OSError(number, os.strerror(number), call)\n"
          "    return result\n")
IOPRIO_SET = {"x86_64": 251, "aarch64": 30}.get(platform.machine(), -1)
IPC_CREAT = 0o1000
KEY = 0x5EED

ATTACKS: dict[str, str] = {
    "prlimit_cpu_of_parent": "resource.prlimit(os.getppid(), resource.RLIMIT_CPU, (1, 1))",
    "prlimit_nofile_of_parent": "resource.prlimit(os.getppid(), resource.RLIMIT_NOFILE, (3, 3))",
    "setpriority_of_parent": "os.setpriority(os.PRIO_PROCESS, os.getppid(), 19)",
    "setpriority_of_own_group": "os.setpriority(os.PRIO_PGRP, 0, 19)",
    "setpriority_of_own_user": "os.setpriority(os.PRIO_USER, 0, 19)",
    "sched_setaffinity_of_parent": "os.sched_setaffinity(os.getppid(), {0})",
    "sched_setscheduler_of_parent": "os.sched_setscheduler(os.getppid(), os.SCHED_IDLE, os.sched_param(0))",
    "ioprio_set_of_parent": f"check(libc.syscall({IOPRIO_SET}, 1, os.getppid(), (3 << 13) | 7), 'ioprio_set')",
    "stop_the_worker": "os.kill(os.getppid(), signal.SIGSTOP)",
    "signal_own_group": "os.kill(0, signal.SIGSTOP)",
    "signal_everyone": "os.kill(-1, signal.SIGKILL)",
    "sigio_to_parent": ("import fcntl\n    reader, writer = os.pipe()\n"
                        "    fcntl.fcntl(reader, fcntl.F_SETOWN, os.getppid())\n"
                        "    fcntl.fcntl(reader, fcntl.F_SETFL, os.O_ASYNC)\n    os.write(writer, b'x')"),
    "sigio_to_parent_by_ioctl": ("import fcntl, struct\n    reader, writer = os.pipe()\n"
                                 "    fcntl.ioctl(reader, 0x8901, struct.pack('i', os.getppid()))\n"
                                 "    fcntl.fcntl(reader, fcntl.F_SETFL, os.O_ASYNC)\n    os.write(writer, b'x')"),
    "shmget_big_segment": f"check(libc.shmget(0, 1 << 30, {IPC_CREAT} | 0o600), 'shmget')",
    "shm_keyed_writer": (f"segment = check(libc.shmget({KEY}, 4096, {IPC_CREAT} | 0o666), 'shmget')\n"
                         "    libc.shmat.restype = ctypes.c_void_p\n"
                         "    ctypes.memmove(libc.shmat(segment, None, 0), b'7.5', 3)"),
    "msgget": f"check(libc.msgget({KEY}, {IPC_CREAT} | 0o666), 'msgget')",
    "semget": f"check(libc.semget({KEY}, 1, {IPC_CREAT} | 0o666), 'semget')",
    "mq_open": f"check(libc.mq_open(b'/progexec', 0o100 | 2, 0o666, None), 'mq_open')",
}
"""Each attack's body: it must end ``forbidden`` (the kernel's EPERM), changing nothing outside its process."""

# reads what the keyed writer left: if a segment survived, it returns the 7.5 the writer put there
READER = (f"    segment = check(libc.shmget({KEY}, 4096, 0o666), 'shmget')\n"
          "    libc.shmat.restype = ctypes.c_void_p\n"
          "    return float(ctypes.string_at(libc.shmat(segment, None, 0), 3))")


def _attack(body: str) -> Request:
    return Request(DISARM + "def solution():\n    " + body + "\n    return 1.0\n")


def _honest(index: int) -> Request:
    """A solution that spends real CPU time (a worker limited to 1 CPU second would fail it) and returns index + 0.5."""
    return Request(f"import math\ndef solution():\n    total = 0.0\n    for k in range(200_000):\n"
                   f"        total += math.sin(k) ** 2 + math.cos(k) ** 2\n    return round(total) - 200_000 + {index} + 0.5\n")


@isolated
@pytest.mark.parametrize("name", list(ATTACKS))
def test_an_attack_on_the_worker_is_refused_and_changes_no_later_verdict(name: str) -> None:
    with Pool(1, Budget(cpu_seconds=5, wall_seconds=20)) as pool:
        results = pool.run([_attack(ATTACKS[name])] + [_honest(index) for index in range(3)])
        restarts = pool.restarts
    attack, honest = results[0], results[1:]
    assert attack.status.value == "forbidden", (name, attack)
    assert "Operation not permitted" in attack.message, attack
    assert [(result.status.value, result.number) for result in honest] == [("ok", 0.5), ("ok", 1.5), ("ok", 2.5)]
    assert restarts == 0  # the worker's own state never changed: nothing had to be replaced


@isolated
def test_a_keyed_segment_passes_nothing_to_the_next_solution() -> None:
    reader = Request(DISARM + "def solution():\n" + READER + "\n")
    with Pool(1, Budget(cpu_seconds=5, wall_seconds=20)) as pool:
        writer, read = pool.run([_attack(ATTACKS["shm_keyed_writer"]), reader])
    assert writer.status.value == "forbidden", writer
    assert read.status.value == "forbidden" and read.number is None, read


@pytest.mark.parametrize("body", [
    "resource.prlimit(os.getppid(), resource.RLIMIT_CPU, (10 ** 6, 10 ** 6))",
    "os.setpriority(os.PRIO_PROCESS, os.getppid(), 7)",
])
def test_a_worker_whose_state_a_child_changed_is_replaced(body: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without isolation no filter stops the child; the worker sees its own state changed and is replaced."""
    monkeypatch.setattr(bubblewrap, "status", lambda: bubblewrap.Isolation(False, "turned off by the test"))
    with Pool(1, Budget(cpu_seconds=5, wall_seconds=20), unsafe_no_isolation=True) as pool:
        assert not pool.isolated
        attack, honest = pool.run([_attack(body), _honest(4)])
        assert pool.restarts == 1
    assert attack.status.value == "ok"
    assert (honest.status.value, honest.number) == ("ok", 4.5)


@isolated
def test_through_the_reward_every_later_completion_still_scores() -> None:
    """The reward path (``progexec serve``, the RL adapters): after a completion that tries every attack above on
    its worker, each honest completion of another item still gets its 1.0 from the same lane's worker."""
    from progexec.datasets.pysolution.reward import PythonSolutionScorer

    hostile = "```python\n" + DISARM + "def solution():\n" + "".join(
        f"    try:\n        {body.replace(chr(10), chr(10) + '    ')}\n    except OSError:\n        pass\n"
        for body in ATTACKS.values()) + "    return 1.0\n```"
    honest = [f"```python\ndef solution():\n    return {index} + 0.5\n```" for index in range(4)]
    with PythonSolutionScorer(jobs=1, budget=Budget(cpu_seconds=5, wall_seconds=20), lanes=1) as scorer:
        first = scorer.score([hostile], [1.0])
        later = scorer.score(honest, [index + 0.5 for index in range(4)])
    assert first[0].status == "ok"  # every attack refused (EPERM), so the solution went on to return
    assert [reward.reward for reward in later] == [1.0, 1.0, 1.0, 1.0]
