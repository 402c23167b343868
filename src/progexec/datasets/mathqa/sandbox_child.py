"""The program a sandbox process runs: read one request, confine itself, exec the snippet, report.

Run as ``python -I -S -c <this source>`` inside bubblewrap by
:mod:`progexec.datasets.mathqa.sandbox` (so it imports nothing from progexec and is started
fresh for every snippet). It reads a JSON request ``{"code", "allowed",
"memory_bytes", "cpu_seconds", "max_output", "path"}`` from standard input and
writes one JSON result ``{"kind", "answer"?, "message"?}`` on the file descriptor
standard output had at start; the snippet's own ``print`` goes to a capped buffer
and file descriptors 1 and 2 point at ``/dev/null`` while it runs.

The boundary is outside this program: namespaces, the filesystem view, the
unprivileged uid and the seccomp filter bubblewrap set up, and the rlimits set here
before the snippet runs (address space, CPU seconds, file size 0, no core files,
no new processes, few descriptors), which the snippet cannot raise. The layers
below only turn refusals into clear messages; Python code can reach around them:
1. the snippet's ``__import__`` admits only the allowed top-level modules;
2. an audit hook refuses process creation, sockets, file writes and deletions,
   directory listing, ctypes, signals and raising resource limits, and any import
   of the process, network and FFI modules even from library code.
A kernel refusal (``EPERM``, ``EACCES``, ``EROFS``, ``EFBIG``) is reported as
``forbidden`` too.
"""

from __future__ import annotations

import builtins
import errno
import io
import json
import math
import os
import resource
import sys
from typing import Any, NoReturn

BLOCKED_EVENTS = (
    "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "os.kill", "os.killpg",
    "subprocess.", "socket.", "ctypes.", "os.remove", "os.unlink", "os.rename", "os.replace", "os.rmdir",
    "os.mkdir", "os.makedirs", "os.chmod", "os.chown", "os.truncate", "os.symlink", "os.link", "os.utime",
    "os.putenv", "os.unsetenv", "os.chdir", "os.chroot", "os.listdir", "os.scandir", "os.walk", "glob.",
    "shutil.", "resource.setrlimit", "resource.prlimit", "pty.", "webbrowser.", "urllib.", "http.",
    "ftplib.", "smtplib.", "poplib.", "imaplib.", "nntplib.", "telnetlib.", "mmap.", "sqlite3.", "os.setuid",
    "os.setgid", "signal.pthread_kill", "os.add_dll_directory", "os.startfile", "winreg.", "sys.addaudithook",
    "sys.settrace", "sys.setprofile", "fcntl.", "syslog.", "cpython.run_", "os.popen",
)
BLOCKED_MODULES = frozenset({
    "subprocess", "_posixsubprocess", "socket", "_socket", "ssl", "_ssl", "ctypes", "_ctypes", "multiprocessing",
    "_multiprocessing", "pty", "asyncio", "selectors", "select", "urllib", "http", "ftplib", "smtplib",
    "shutil", "tempfile", "signal", "_signal", "threading", "_thread", "concurrent", "mmap", "fcntl",
})
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC


def _refused(message: str) -> PermissionError:
    """The error the audit hook raises for what the sandbox forbids: a PermissionError without an errno whose
    text starts with ``sandbox:`` (reported as ``forbidden`` with that text)."""
    return PermissionError(f"sandbox: {message}")


class CappedOutput(io.TextIOBase):
    """``sys.stdout`` for the snippet: counts characters and, past the cap, reports ``output_limit`` and
    exits at once (nothing the snippet catches or runs in a ``finally`` can hide it)."""

    def __init__(self, cap: int, result_fd: int) -> None:
        self.cap, self.count, self.result_fd = cap, 0, result_fd

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.count += len(text)
        if self.count > self.cap:
            _report({"kind": "output_limit", "message": f"the snippet printed more than {self.cap} characters"},
                    self.count, self.result_fd)
        return len(text)


_READ_ROOTS: tuple[str, ...] = ()


def _readable(path: Any) -> bool:
    """Reading is allowed from the Python installation and its import path only."""
    if isinstance(path, int):
        return True
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if not isinstance(path, str):
        return False
    full = os.path.normpath(os.path.abspath(path))
    return full in ("/dev/null", "/dev/urandom") or any(full == root or full.startswith(root + os.sep)
                                                         for root in _READ_ROOTS)


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "open":
        mode, flags = args[1], args[2]
        if (isinstance(mode, str) and any(c in mode for c in "wax+")) or (isinstance(flags, int) and flags & _WRITE_FLAGS):
            raise _refused(f"writing files is not allowed ({args[0]!r})")
        if not _readable(args[0]):
            raise _refused(f"reading {args[0]!r} is not allowed")
        return
    if event == "import":
        if str(args[0]).split(".")[0] in BLOCKED_MODULES:
            raise _refused(f"the module {args[0]!r} is not allowed")
        return
    if event.startswith(BLOCKED_EVENTS):
        raise _refused(f"{event} is not allowed")


def _limit(kind: int, value: int) -> None:
    try:
        resource.setrlimit(kind, (value, value))
    except (ValueError, OSError):
        pass


def _restricted_import(allowed: frozenset[str]) -> Any:
    real_import = builtins.__import__

    def guarded(name: str, globals_: Any = None, locals_: Any = None, fromlist: Any = (), level: int = 0) -> Any:
        if level != 0 or name.split(".")[0] not in allowed:
            raise ImportError(f"sandbox: import of {name!r} is not allowed (allowed: {', '.join(sorted(allowed))})")
        return real_import(name, globals_, locals_, fromlist, level)
    return guarded


def _preload_scipy() -> None:
    """Import scipy before confinement (it loads process and FFI modules itself), then disarm
    the one process-creation entry point that raises no audit event."""
    try:
        import scipy  # type: ignore[import-untyped]  # noqa: F401
        import scipy.special  # type: ignore[import-untyped]  # noqa: F401
    except BaseException:
        return
    spawner = sys.modules.get("_posixsubprocess")
    original = getattr(spawner, "fork_exec", None)
    if original is None:
        return

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise _refused("process creation is not allowed")
    for module in list(sys.modules.values()):
        namespace = getattr(module, "__dict__", None)
        if isinstance(namespace, dict):
            for name, value in list(namespace.items()):
                if value is original:
                    namespace[name] = refuse


def _safe(text: str) -> str:
    """A message that crosses the pipe as plain UTF-8: lone surrogates (and anything unencodable) escaped."""
    return text[:1000].encode("utf-8", "backslashreplace").decode("utf-8")


def _number(answer: Any) -> Any:
    value = float(answer)
    return value if math.isfinite(value) else repr(value)


_REFUSED = (errno.EPERM, errno.EACCES, errno.EROFS, errno.EFBIG)
"""Errors by which the kernel (seccomp, read-only mounts, rlimits, uid) refuses an action."""


def main() -> None:
    request = json.loads(sys.stdin.read())
    result_fd = os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.dup2(null, 2)
    sys.dont_write_bytecode = True
    captured = CappedOutput(int(request["max_output"]), result_fd)
    sys.stdout = sys.stderr = captured
    allowed = frozenset(request["allowed"])
    safe_builtins = dict(vars(builtins))
    safe_builtins["__import__"] = _restricted_import(allowed)
    for name in ("input", "breakpoint", "help", "exit", "quit", "copyright", "credits", "license"):
        safe_builtins.pop(name, None)
    namespace: dict[str, Any] = {"__name__": "__snippet__", "__builtins__": safe_builtins}
    for entry in request.get("path", []):
        if isinstance(entry, str) and entry not in sys.path:
            sys.path.append(entry)
    global _READ_ROOTS
    _READ_ROOTS = tuple(sorted({os.path.normpath(os.path.abspath(entry)) for entry in
                                (sys.prefix, sys.base_prefix, sys.exec_prefix, *sys.path) if entry}))
    if "scipy" in allowed and "scipy" in request["code"]:
        _preload_scipy()
    _limit(resource.RLIMIT_CORE, 0)
    _limit(resource.RLIMIT_FSIZE, 0)
    _limit(resource.RLIMIT_NPROC, 0)
    _limit(resource.RLIMIT_CPU, int(request["cpu_seconds"]))
    _limit(resource.RLIMIT_AS, int(request["memory_bytes"]))
    _limit(resource.RLIMIT_NOFILE, 64)
    sys.addaudithook(_audit)
    outcome: dict[str, Any]
    try:
        code = compile(request["code"], "<snippet>", "exec")
        exec(code, namespace)
        if "answer" not in namespace:
            outcome = {"kind": "no_answer", "message": "the snippet sets no variable 'answer'"}
        else:
            try:
                outcome = {"kind": "ok", "answer": _number(namespace["answer"])}
            except BaseException as error:  # a hostile __float__ may raise anything
                outcome = {"kind": "not_a_number",
                           "message": f"answer is not a number ({type(error).__name__})"}
    except SyntaxError as error:
        outcome = {"kind": "syntax_error", "message": f"{error.msg} (line {error.lineno})"}
    except ImportError as error:
        kind = "forbidden" if str(error).startswith("sandbox:") else "error"
        outcome = {"kind": kind, "message": f"ImportError: {error}"}
    except MemoryError:
        outcome = {"kind": "memory", "message": "the snippet ran out of memory (memory limit)"}
    except SystemExit as error:
        outcome = {"kind": "exit", "message": f"the snippet called exit ({error.code!r})"}
    except RecursionError:
        outcome = {"kind": "error", "message": "RecursionError: maximum recursion depth exceeded"}
    except OSError as error:
        if isinstance(error, PermissionError) and error.errno is None and str(error).startswith("sandbox:"):
            outcome = {"kind": "forbidden", "message": str(error)}  # the audit hook's refusal
        else:
            kind = "forbidden" if error.errno in _REFUSED else "error"
            outcome = {"kind": kind, "message": f"{type(error).__name__}: {str(error)[:200]}"}
    except BaseException as error:
        outcome = {"kind": "error", "message": f"{type(error).__name__}: {str(error)[:200]}"}
    _report(outcome, captured.count, result_fd)


def _report(outcome: dict[str, Any], printed: int, result_fd: int) -> NoReturn:
    """Write the one JSON result (with how much the snippet printed) and end the process."""
    outcome["printed"] = printed
    if isinstance(outcome.get("message"), str):
        outcome["message"] = _safe(outcome["message"])
    try:
        payload = json.dumps(outcome)
    except BaseException:
        payload = json.dumps({"kind": "error", "message": "the result could not be encoded"})
    os.write(result_fd, payload.encode("utf-8", "replace"))
    os._exit(0)


if __name__ == "__main__":
    main()
