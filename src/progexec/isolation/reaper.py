"""The reaper: runs one port as its child and, as a child subreaper, leaves none of its descendants alive.

Run by :mod:`.child` as ``python -I -S reaper.py STATUS_FD GRACE SWEEPS NAMED -- ARGV...`` (standard library only;
nothing of progexec is imported). It marks itself a *child subreaper* (``prctl
PR_SET_CHILD_SUBREAPER``), so every process the port starts — a daemon that double-forks,
calls ``setsid`` and closes its stdio included — is re-parented to it when its own parent
dies, instead of escaping to init. It gives its standard streams to the port and keeps none
open itself (the leash sees end of file when the port's tree closes them).

When the port exits, the processes it left get ``GRACE`` seconds to end on their own;
whatever is still running is killed (SIGKILL, repeated until no child is left) and named.
On SIGTERM (the leash stopping a port that hangs or floods) the port and everything it left
are killed at once. One JSON line on ``STATUS_FD`` then says how it went:
``{"code": <the port's exit code, or -signal>, "left": ["pid name", ...], "subreaper": bool}``,
and the reaper exits with the port's code.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def _stop(signum: int, frame: object) -> None:
    """SIGTERM: kill the port now (raised as KeyboardInterrupt, which nothing here catches but ``main``)."""
    raise KeyboardInterrupt("SIGTERM")


def _subreaper() -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _children() -> list[int]:
    """This process's live children, from ``/proc`` (their parent pid field)."""
    me, found = os.getpid(), []
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 1 and int(fields[1]) == me and fields[0] != b"Z":
            found.append(int(name))
    return found


def _name(pid: int) -> str:
    """The pid and its command line, each absolute path shown by its last part: what tells the processes apart
    (the script and its arguments) stays within the shown length however deep the install is."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            words = cmdline.read(4096).split(b"\0")
    except OSError:
        return str(pid)
    shown = " ".join(_short(word.decode("utf-8", "replace")) for word in words if word)[:120]
    return f"{pid} {shown}".strip()


def _short(word: str) -> str:
    """An absolute path as its last part (``/venv/bin/python`` -> ``python``); any other word as it is."""
    return os.path.basename(word.rstrip("/")) or word if word.startswith("/") else word


def _reap() -> bool:
    """Collect every exited child; False when this process has no child left at all."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return False
        if pid == 0:
            return True


def _sweep(named: list[str], sweeps: int, most_named: int) -> int:
    """Kill every child until none is left (orphans of killed ones arrive as new children), in at most ``sweeps``
    kill rounds, naming at most ``most_named`` of them; how many were killed."""
    killed: set[int] = set()
    for _ in range(sweeps):
        if not _reap():
            break
        children = _children()
        for pid in children:
            if pid not in killed and len(named) < most_named:
                named.append(_name(pid))
            try:
                os.kill(pid, signal.SIGKILL)  # again if still dying: a process counts once
                killed.add(pid)
            except ProcessLookupError:
                pass
        time.sleep(0.001 if children else 0.01)
    return len(killed)


def _wait_port(pid: int) -> int:
    """Block until the port exits (reaping orphans meanwhile); its exit code, or -signal."""
    while True:
        got, status = os.waitpid(-1, 0)
        if got == pid:
            return os.waitstatus_to_exitcode(status)


def _grace(seconds: float) -> None:
    """Let the port's leftovers end by themselves for ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _reap():
            return
        time.sleep(0.01)


def main(argv: list[str]) -> int:
    status_fd, grace, sweeps, most_named = int(argv[1]), float(argv[2]), int(argv[3]), int(argv[4])
    command = argv[6:]
    subreaper = _subreaper()
    signal.signal(signal.SIGTERM, _stop)
    pid = os.fork()
    if pid == 0:
        try:
            os.close(status_fd)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.execvp(command[0], command)
        except BaseException as error:  # exec failed: say so where the leash quotes it
            os.write(2, f"cannot start {command[0]}: {error}\n".encode("utf-8", "replace"))
        os._exit(127)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    code: int | None = None
    try:
        code = _wait_port(pid)
        _grace(grace)
    except KeyboardInterrupt:  # SIGTERM (_stop)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    named: list[str] = []
    left = 0
    if code is None:
        _sweep([], sweeps, most_named)  # told to stop: the port itself and everything with it
        code = -signal.SIGKILL
    else:
        left = _sweep(named, sweeps, most_named)
    line = json.dumps({"code": code, "left": named, "left_count": left, "subreaper": subreaper})
    try:
        os.write(status_fd, line.encode("utf-8") + b"\n")
    except OSError:
        pass
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(main(sys.argv))
