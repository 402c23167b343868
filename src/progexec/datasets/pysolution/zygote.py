"""The program a warm sandbox worker runs: load the libraries once, then fork one confined child per solution.

Run as ``python -I -S -c <this source>`` inside bubblewrap by :mod:`progexec.datasets.pysolution.pool`
(it imports nothing from progexec). Protocol, one JSON object per line:

* in, first line: ``{"path", "preload", "seccomp", "watch", "bounds"}`` — import path entries, the modules
  imported once here (so a solution's ``import numpy`` costs nothing and is never timed),
  the seccomp program (hex) every child loads before it runs model code, the
  directories whose names are part of this worker's state (the sandbox's writable ones), and the
  bounds of a child's report (``Limits`` fields, sent since this program imports nothing of progexec);
* out: ``{"ready": true, "loaded": [...]}``;
* in, per solution: ``{"seq", "code", "entry", "allowed", "cpu_seconds", "wall_seconds",
  "memory_bytes"}``;
* out, per solution: ``{"seq", "result", "signal", "exit", "timed_out", "overflow", "tainted"}``
  where ``result`` is the child's own report (text, at most ``result_cap`` bytes), forwarded
  unparsed: the scorer validates it; ``tainted`` names what of this worker's own state (its
  rlimits, nice value, CPU affinity, scheduling policy, the names in its writable
  directories) differs from what it was when the worker became ready — the pool then
  replaces the worker, so no later solution runs in a state an earlier one left.

Each child is a fresh copy of this pristine process (model code never runs here), so no
solution can change the state another one sees. Before the model code runs, the child
closes every descriptor but its result pipe (it cannot reach this protocol), points 0/1/2
at ``/dev/null``, sets its rlimits (address space, CPU, no file writes, no processes, few
descriptors), loads the seccomp filter (no fork, no sockets, no tracing, ...) and an audit
hook that turns the common refusals into clear messages. ``print`` is a no-op in the
solution's namespace, as in the official FinanceMath evaluation.
"""

from __future__ import annotations

import builtins
import errno
import gc
import json
import math
import os
import resource
import select
import signal
import sys
import reprlib
import time
from typing import Any

_bounds: dict[str, int] = {}
"""The bounds the pool sends on the first line (``result_cap`` bytes of a child's report, ``message_chars``
and ``repr_chars`` of the texts in it): the pool's ``Limits``, since nothing of progexec is imported here."""
BLOCKED_EVENTS = (
    "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "os.kill", "os.killpg",
    "subprocess.", "socket.", "os.remove", "os.unlink", "os.rename", "os.replace", "os.rmdir", "os.mkdir",
    "os.chmod", "os.chown", "os.truncate", "os.symlink", "os.link", "os.putenv", "os.chdir", "os.chroot",
    "resource.setrlimit", "resource.prlimit", "signal.pthread_kill", "sys.addaudithook", "os.setuid", "os.setgid",
    "pty.", "webbrowser.", "os.popen", "ctypes.dlopen", "ctypes.dlsym", "ctypes.cdata", "mmap.",
)
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
_REFUSED = (errno.EPERM, errno.EACCES, errno.EROFS, errno.EFBIG)
_SHOWN = reprlib.Repr()
_SHOWN.maxstring, _SHOWN.maxother, _SHOWN.maxlong = 120, 120, 120


def _forbidden(message: str) -> PermissionError:
    """The audit hook's refusal: a PermissionError without an errno whose text starts with ``sandbox:``."""
    return PermissionError(f"sandbox: {message}")


def _safe(text: str, limit: int | None = None) -> str:
    """Text that always encodes: lone surrogates and other unencodable code points escaped, then cut (at
    ``message_chars`` unless ``limit`` is given)."""
    if limit is None:
        limit = _bounds["message_chars"]
    return text[:limit * 2].encode("utf-8", "backslashreplace").decode("utf-8")[:limit]


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "open":
        mode, flags = args[1], args[2]
        if (isinstance(mode, str) and any(c in mode for c in "wax+")) or (isinstance(flags, int) and flags & _WRITE_FLAGS):
            raise _forbidden("writing files is not allowed")
        return
    if event.startswith(BLOCKED_EVENTS):
        raise _forbidden(f"{event} is not allowed")


def _restricted_import(allowed: frozenset[str]) -> Any:
    real_import = builtins.__import__

    def guarded(name: str, globals_: Any = None, locals_: Any = None, fromlist: Any = (), level: int = 0) -> Any:
        if level != 0 or name.split(".")[0] not in allowed:
            raise ImportError(f"sandbox: import of {name!r} is not allowed (allowed: {', '.join(sorted(allowed))})")
        return real_import(name, globals_, locals_, fromlist, level)
    return guarded


def _no_print(*args: Any, **kwargs: Any) -> None:
    return None


class _Sink:
    """``sys.stdout``/``sys.stderr`` of a solution: accepts and discards everything."""

    def write(self, text: Any) -> int:
        return len(text) if isinstance(text, str) else 0

    def flush(self) -> None:
        return None

    def isatty(self) -> bool:
        return False


class Seccomp:
    """The seccomp program, prepared once in the worker so a child installs it with two ``prctl`` calls."""

    def __init__(self, program: bytes) -> None:
        import ctypes
        self.libc = ctypes.CDLL(None, use_errno=True)

        class SockFprog(ctypes.Structure):
            _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]
        self.buffer = ctypes.create_string_buffer(program, len(program))
        self.fprog = SockFprog(len(program) // 8, ctypes.cast(self.buffer, ctypes.c_char_p))
        self.pointer = ctypes.byref(self.fprog)
        self.errno = ctypes.get_errno

    def load(self) -> None:
        """Install the filter on this process (no_new_privs first, as the kernel requires)."""
        if self.libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
            raise OSError(self.errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
        if self.libc.prctl(22, 2, self.pointer, 0, 0) != 0:  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
            raise OSError(self.errno(), "prctl(PR_SET_SECCOMP)")


def _limit(kind: int, value: int) -> None:
    try:
        resource.setrlimit(kind, (value, value))
    except (ValueError, OSError):
        pass


def _number(value: float) -> Any:
    return value if math.isfinite(value) else repr(value)


def _describe(value: Any, entry: str) -> dict[str, Any]:
    """The returned value as the scorer needs it: its type name, ``float(value)`` (or why not), an exact int."""
    described: dict[str, Any] = {"kind": "ok", "type": _safe(type(value).__name__, 60)}
    if type(value) is int:
        digits = str(value) if value.bit_length() < 13_000 else None
        if digits is not None:
            described["int"] = digits
    if type(value) is bool:
        described["bool"] = value
    try:
        described["number"] = _number(float(value))
    except BaseException as error:  # a hostile __float__ may raise anything
        described["kind"] = "not_a_number"
        described["message"] = _safe(f"float() of the returned {type(value).__name__} fails: "
                                     f"{type(error).__name__}: {error}")
    try:
        described["repr"] = _safe(_SHOWN.repr(value), _bounds["repr_chars"])
    except BaseException:
        described["repr"] = "?"
    if entry == "answer" and described["kind"] == "not_a_number":
        described["message"] = "answer is not a number"
    return described


class _AlarmPassed(BaseException):
    """Raised by a sleep that would take the solution past the official alarm (a BaseException, as the
    official ``TimeoutException`` ends the solution whatever it catches)."""


class _Alarm:
    """FinanceMath's ``signal.alarm(3)`` for a solution that sleeps, counted instead of timed: ``time.sleep``
    adds what it was asked to the solution's CPU time (``time.process_time``), and a sleep that would take
    that sum past the alarm is not slept: the solution is ``time_limit`` at once, whatever it catches or
    whichever thread slept. The CPU limit alone would let a sleeping solution finish; the sum does not
    depend on the machine's load."""

    def __init__(self, seconds: float, sleep: Any) -> None:
        self.seconds, self.sleep_for, self.slept, self.passed = seconds, sleep, 0.0, ""

    def sleep(self, duration: Any) -> None:
        asked = float(duration)
        if asked < 0 or math.isnan(asked):
            raise ValueError("sleep length must be non-negative")
        used = time.process_time()
        if self.seconds > 0 and used + self.slept + asked > self.seconds:
            self.passed = (f"the official {self.seconds:g}-second alarm: time.sleep({asked:g}), after {self.slept:g} s "
                           "asleep, takes the solution's CPU time plus its sleeps past it (FinanceMath's "
                           "signal.alarm stops it; the CPU limit alone would not)")
            raise _AlarmPassed()
        self.slept += asked
        self.sleep_for(asked)


_ALARM = _Alarm(0.0, time.sleep)


def _run(request: dict[str, Any]) -> dict[str, Any]:
    """Compile, exec and call the solution; every outcome is a small dict (never raises)."""
    namespace: dict[str, Any] = {"print": _no_print}
    allowed = request.get("allowed")
    if allowed is not None:
        safe_builtins = dict(vars(builtins))
        safe_builtins["__import__"] = _restricted_import(frozenset(allowed))
        namespace["__builtins__"] = safe_builtins
    entry = request.get("entry", "solution")
    try:
        code = compile(request["code"], "<solution>", "exec")
    except BaseException as error:  # SyntaxError, ValueError (NUL byte), RecursionError, MemoryError
        line = getattr(error, "lineno", None)
        where = f" (line {line})" if line else ""
        return {"kind": "syntax_error", "message": _safe(f"{type(error).__name__}: {getattr(error, 'msg', error)}{where}")}
    try:
        exec(code, namespace)
        if entry == "answer":
            if "answer" not in namespace:
                return {"kind": "no_solution_function", "message": "the code sets no variable 'answer'"}
            value = namespace["answer"]
        else:
            if "solution" not in namespace:
                return {"kind": "no_solution_function", "message": "the code defines no 'solution'"}
            value = namespace["solution"]()
        if _ALARM.passed:  # a sleep in another thread, or an _AlarmPassed the solution caught
            return {"kind": "alarm", "message": _safe(_ALARM.passed)}
        return _describe(value, entry)
    except _AlarmPassed:
        return {"kind": "alarm", "message": _safe(_ALARM.passed)}
    except PermissionError as error:
        return {"kind": "forbidden", "message": _safe(str(error))}
    except MemoryError:
        return {"kind": "memory_limit", "message": "the solution ran out of memory (memory limit)"}
    except SystemExit as error:
        return {"kind": "exit", "message": _safe(f"the solution called exit ({error.code!r})")}
    except OSError as error:
        if isinstance(error, PermissionError) and error.errno is None and str(error).startswith("sandbox:"):
            return {"kind": "forbidden", "message": _safe(str(error))}  # the audit hook's refusal
        kind = "forbidden" if error.errno in _REFUSED else "runtime_error"
        return {"kind": kind, "message": _safe(f"{type(error).__name__}: {error}")}
    except ImportError as error:
        kind = "forbidden" if str(error).startswith("sandbox:") else "runtime_error"
        return {"kind": kind, "message": _safe(f"{type(error).__name__}: {error}")}
    except BaseException as error:
        try:
            text = f"{type(error).__name__}: {error}"
        except BaseException:
            text = type(error).__name__
        return {"kind": "runtime_error", "message": _safe(text)}


def _child(request: dict[str, Any], write_fd: int, seccomp: Seccomp | None) -> None:
    """In the forked child: confine, run, write the result, exit. Never returns."""
    try:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        keep = sorted({0, 1, 2, write_fd})
        start = 3
        for fd in keep[3:] + [1 << 16]:
            os.closerange(start, fd)
            start = fd + 1
        sys.stdout = sys.stderr = _Sink()
        setattr(sys, "stdin", None)
        memory = int(request["memory_bytes"])
        cpu = max(1, math.ceil(float(request["cpu_seconds"])))
        _limit(resource.RLIMIT_CORE, 0)
        _limit(resource.RLIMIT_FSIZE, 0)
        _limit(resource.RLIMIT_NPROC, 0)
        _limit(resource.RLIMIT_NOFILE, 32)
        _limit(resource.RLIMIT_AS, memory)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        if seccomp is not None:
            seccomp.load()
        signal.signal(signal.SIGXCPU, signal.SIG_DFL)
        _seed()  # after the fork: Python's random reseeds itself in a forked child
        _ALARM.seconds = float(request.get("alarm_seconds") or 0.0)
        time.sleep = _ALARM.sleep
        sys.addaudithook(_audit)
        outcome = _run(request)
    except BaseException as error:
        outcome = {"kind": "runtime_error", "message": _safe(f"{type(error).__name__}")}
    try:
        payload = json.dumps(outcome, ensure_ascii=True, allow_nan=False).encode("ascii")
    except BaseException:
        payload = b'{"kind": "runtime_error", "message": "the result could not be encoded"}'
    try:
        os.write(write_fd, payload[:_bounds["result_cap"] - 1] + b"\n")
    finally:
        os._exit(0)


def _collect(pid: int, read_fd: int, wall: float) -> dict[str, Any]:
    """Read the child's result (bounded by size and the wall clock), kill and reap it."""
    deadline = time.monotonic() + wall
    chunks: list[bytes] = []
    size, timed_out, overflow = 0, False, False
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            timed_out = True
            break
        ready, _, _ = select.select([read_fd], [], [], remaining)
        if not ready:
            continue
        chunk = os.read(read_fd, 65536)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        if size > _bounds["result_cap"]:
            overflow = True
            break
        if chunk.endswith(b"\n"):  # the child's report is one line: no need to wait for its exit to read on
            break
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    _, status = os.waitpid(pid, 0)
    os.close(read_fd)
    raw = b"".join(chunks)[:_bounds["result_cap"]]
    return {"result": raw.decode("utf-8", "replace"), "timed_out": timed_out, "overflow": overflow,
            "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
            "exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None}


def _state(watch: list[str]) -> dict[str, Any]:
    """What of this process a child could change from outside: every rlimit, nice, affinity, scheduling, names."""
    state: dict[str, Any] = {}
    for name in sorted(dir(resource)):
        if name.startswith("RLIMIT_"):
            try:
                state[name] = resource.getrlimit(getattr(resource, name))
            except (ValueError, OSError):
                pass
    for key, probe in (("nice", lambda: os.getpriority(os.PRIO_PROCESS, 0)),
                       ("affinity", lambda: sorted(os.sched_getaffinity(0))),
                       ("scheduler", lambda: os.sched_getscheduler(0)),
                       ("sched_priority", lambda: os.sched_getparam(0).sched_priority)):
        try:
            state[key] = probe()
        except (AttributeError, OSError):
            pass
    for directory in watch:
        try:
            state[directory] = sorted(os.listdir(directory))
        except OSError:
            pass
    return state


def _changed(before: dict[str, Any], watch: list[str]) -> list[str]:
    """The names of the state entries that differ from ``before``."""
    now = _state(watch)
    return sorted(key for key in before.keys() | now.keys() if before.get(key) != now.get(key))


def _seed() -> None:
    """Fixed seeds for the random generators a solution may use, so every run gives the same values."""
    import random
    random.seed(0)
    generator = sys.modules.get("numpy.random")  # imported by the worker; never imported here (it costs ~20 ms)
    if generator is not None:
        generator.seed(0)


def _send(out: Any, message: dict[str, Any]) -> None:
    out.write(json.dumps(message, ensure_ascii=True).encode("ascii") + b"\n")
    out.flush()


def main() -> None:
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    init = json.loads(stdin.readline())
    _bounds.update(init["bounds"])
    for entry in init.get("path", []):
        if isinstance(entry, str) and entry not in sys.path:
            sys.path.append(entry)
    sys.dont_write_bytecode = True
    loaded: list[str] = []
    for name in init.get("preload", []):
        try:
            __import__(name)
            loaded.append(name)
        except BaseException:
            pass
    seccomp = Seccomp(bytes.fromhex(init["seccomp"])) if init.get("seccomp") else None
    gc.collect()
    gc.freeze()
    watch = [entry for entry in init.get("watch", []) if isinstance(entry, str)]
    pristine = _state(watch)
    _send(stdout, {"ready": True, "loaded": loaded})
    while True:
        line = stdin.readline()
        if not line:
            os._exit(0)
        request = json.loads(line)
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            _child(request, write_fd, seccomp)
        os.close(write_fd)
        report = _collect(pid, read_fd, float(request["wall_seconds"]))
        report["seq"] = request["seq"]
        report["tainted"] = _changed(pristine, watch)
        _send(stdout, report)


if __name__ == "__main__":
    main()
