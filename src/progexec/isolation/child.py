"""One port process: started under the reaper (inside bubblewrap when asked), stopped with its whole tree.

:meth:`Child.start` runs ``python -I -S reaper.py FD -- ARGV`` (:mod:`.reaper`) in a new
session, with the port's stdin, stdout and stderr as pipes; with a :class:`~.bwrap.PortSandbox`
``ARGV`` is the bubblewrap command around the port (no network, a read-only view of the port's
directory and runtime, uid 65534, its own PID namespace, and a seccomp filter under which no
process can fork, so nothing can be left behind there). :meth:`Child.stop` ends it and says
how (:class:`Ending`): the port's exit status and every process it left running (killed). Four
layers make sure nothing outlives it: the reaper (a child subreaper, so detached daemons come
back to it); a random mark in the port's environment, for when the port killed its reaper; the
killed process group (and, in the sandbox, the PID namespace that dies with bwrap); and a last
sweep of ``/proc`` for any process still holding the port's pipes.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from ..core.limits import current, DEFAULT_LIMITS
from ..core.errors import SetupError
from . import bwrap
from .process import READ_SIZE, StderrCapture, close_streams, kill_group

REAPER = str(Path(__file__).with_name("reaper.py"))
"""The reaper's script (standard library only)."""


def _reaper_bounds() -> tuple[str, str]:
    """The reaper's kill rounds and named leftovers (``reaper_max_sweeps``, ``reaper_max_named``), as its arguments."""
    return str(current().reaper_max_sweeps), str(current().reaper_max_named)
MARK = "PROGEXEC_PORT_MARK"
"""An environment variable set, with a fresh random value, in every port's environment: if the port kills
its reaper, what it started is still found (through ``/proc/PID/environ``) and killed."""
STATUS_MAX = DEFAULT_LIMITS.max_status_bytes
"""Most bytes read of the reaper's status line."""


@dataclass(frozen=True, slots=True)
class Ending:
    """How a port ended: its exit code (``-N``: killed by signal N; None: unknown) and what it left behind."""

    code: Optional[int]
    left: tuple[str, ...] = ()
    left_count: int = 0
    held_pipes: bool = False

    @property
    def left_behind(self) -> bool:
        """The port exited but left processes running (they were killed): a failure of the port."""
        return self.left_count > 0


def _executable(argv0: str, cwd: Optional[str]) -> Optional[str]:
    """The program ``argv0`` names (a path, or a name on PATH), absolute; None when it cannot be run."""
    if os.sep in argv0:
        path = os.path.join(cwd or os.getcwd(), argv0)
        return os.path.abspath(path) if os.path.isfile(path) and os.access(path, os.X_OK) else None
    found = shutil.which(argv0)
    return os.path.abspath(found) if found else None


class Child:
    """A started port: its process (the reaper, or bwrap around it), its pipes, and the reaper's status pipe."""

    def __init__(self, proc: subprocess.Popen[bytes], status_fd: int, mark: str = "") -> None:
        self.proc = proc
        self._status_fd = status_fd
        self.mark = mark
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        self.inodes = {os.fstat(stream.fileno()).st_ino for stream in (proc.stdin, proc.stdout, proc.stderr)}

    @classmethod
    def start(cls, argv: Sequence[str], *, cwd: Optional[str] = None, env: Optional[Mapping[str, str]] = None,
              sandbox: Optional[bwrap.PortSandbox] = None) -> Child:
        """Start ``argv`` under the reaper; :class:`SetupError` when its program cannot be found or run."""
        if not argv:
            raise SetupError("empty command")
        if sandbox is None and _executable(argv[0], cwd) is None:
            raise SetupError(f"cannot start {argv[0]}: no such executable")
        mark = secrets.token_hex(16)
        read_end, write_end = os.pipe()
        os.set_inheritable(read_end, False)
        seccomp_fd: Optional[int] = None
        try:
            if sandbox is None:
                command = [sys.executable, "-I", "-S", REAPER, str(write_end), str(current().port_exit_grace_seconds), *_reaper_bounds(), "--", *argv]
                options: dict[str, Any] = {"cwd": cwd, "env": dict(os.environ if env is None else env) | {MARK: mark}}
            else:  # the reaper outside: the sandbox's seccomp filter lets no process fork, itself included
                seccomp_fd = bwrap.open_seccomp()
                command = [sys.executable, "-I", "-S", REAPER, str(write_end), str(current().port_exit_grace_seconds), *_reaper_bounds(), "--",
                           *sandbox.command(list(argv), seccomp_fd)]
                options = {"cwd": "/", "env": {}}
            fds = (write_end,) if seccomp_fd is None else (write_end, seccomp_fd)
            proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    bufsize=0, start_new_session=True, pass_fds=fds, **options)
        except OSError as error:
            os.close(read_end)
            raise SetupError(f"cannot start {argv[0]}: {error}") from None
        finally:
            os.close(write_end)
            if seccomp_fd is not None:
                os.close(seccomp_fd)
        return cls(proc, read_end, mark if sandbox is None else "")

    def stop(self, wait: float = 0.0, stderr: Optional[StderrCapture] = None) -> Ending:
        """End the port (it may exit by itself within ``wait`` s), its whole tree with it; how it ended.

        ``stderr`` gets what the port's stderr still held once it ended (read to end of file, bounded).
        """
        proc = self.proc
        try:
            proc.wait(timeout=wait if wait > 0 else 0.001)
        except subprocess.TimeoutExpired:
            try:
                proc.send_signal(signal.SIGTERM)  # the reaper kills the port and all it started
                proc.wait(timeout=current().reaper_grace_seconds)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass
        kill_group(proc)  # no reaper left (killed by the port?): the group, and bwrap's namespace, die here
        code = proc.wait()
        if stderr is not None and proc.stderr is not None:
            stderr.drain(proc.stderr)
        status = self._status()
        held = not _drained(proc)
        close_streams(proc)
        if held:
            _kill_pipe_holders(self.inodes)
        if status is None:  # the reaper died (killed by the port?): find what the port started by its mark
            marked = _kill_marked(self.mark) if self.mark else []
            return Ending(code, tuple(marked[:20]), len(marked), held)
        left = status.get("left")
        names = tuple(str(name)[:200] for name in left) if isinstance(left, list) else ()
        count = status.get("left_count")
        port_code = status.get("code")
        return Ending(port_code if type(port_code) is int else code, names[:20],
                      count if type(count) is int and count >= 0 else len(names), held)

    def _status(self) -> Optional[dict[str, Any]]:
        """The reaper's status line (None when it died before writing one)."""
        os.set_blocking(self._status_fd, False)
        try:
            data = os.read(self._status_fd, current().max_status_bytes)
        except OSError:
            data = b""
        finally:
            os.close(self._status_fd)
            self._status_fd = -1
        try:
            status = json.loads(data.decode("utf-8").splitlines()[0]) if data.strip() else None
        except (ValueError, IndexError, UnicodeDecodeError):
            return None
        return status if isinstance(status, dict) else None


def _drained(proc: subprocess.Popen[bytes]) -> bool:
    """True when stdout and stderr reach end of file soon (nobody else holds them open)."""
    deadline = time.monotonic() + 0.2
    for stream in (proc.stdout, proc.stderr):
        if stream is None or stream.closed:
            continue
        budget = 4 * READ_SIZE
        while True:
            try:
                data = os.read(stream.fileno(), READ_SIZE)
            except BlockingIOError:
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.01)
                continue
            except OSError:
                break
            if not data:
                break
            budget -= len(data)
            if budget < 0:
                return False
    return True


def _kill_pipe_holders(inodes: set[int]) -> int:
    """SIGKILL every process (but this one) holding one of the pipes; how many (Linux ``/proc`` only)."""
    me, killed = os.getpid(), 0
    try:
        pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return 0
    for pid in pids:
        if pid == me:
            continue
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if link.startswith("pipe:[") and int(link[6:-1]) in inodes:
                try:
                    os.kill(pid, signal.SIGKILL)
                    killed += 1
                except OSError:
                    pass
                break
    return killed


def _kill_marked(mark: str) -> list[str]:
    """SIGKILL every process whose environment carries ``MARK=mark``; their pids and names (Linux ``/proc`` only)."""
    needle = f"{MARK}={mark}".encode()
    killed: list[str] = []
    try:
        pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return killed
    for pid in pids:
        if pid == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as environ:
                found = needle in environ.read(1 << 20).split(b"\0")
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                name = b" ".join(cmdline.read(400).split(b"\0")).decode("utf-8", "replace").strip()[:120]
        except OSError:
            continue
        if found:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.append(f"{pid} {name}".strip())
            except OSError:
                pass
    return killed
