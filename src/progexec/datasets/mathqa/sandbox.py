"""Running untrusted Python snippets (model-written MathQA-Python code), one confined process each.

:func:`run_snippet` starts a fresh interpreter for one snippet
(:mod:`progexec.datasets.mathqa.sandbox_child` is its program) inside the bubblewrap sandbox
of :mod:`progexec.isolation.bwrap` — the OS-level boundary — sends it the code and
nothing else on standard input (an unlinked temporary file), and waits at most ``timeout`` seconds of wall-clock
time in this process (the child cannot see or signal it); past that, or past
``max_result_bytes`` of output, the sandbox is killed, and its PID namespace with
every descendant dies with it. The child's result comes back over its standard
output as one small JSON object, read with a byte cap and validated field by field
(:func:`decode_result`); gold answers never leave the parent.

Where the machine cannot isolate (:func:`progexec.isolation.bwrap.status`),
:func:`run_snippets` raises :class:`SetupError` unless the caller passes
``unsafe_no_isolation=True``; then snippets run in a plain ``python -I`` process
guarded only by the child's in-process checks and resource limits.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from importlib import resources
from typing import IO, Any

from ...isolation.process import Bound, Deadline, escaped_text, kill_group, read_bounded, result_number
from ...core.limits import DEFAULT_LIMITS, current, Limits
from ...isolation import bwrap as bubblewrap
from ...core.plural import plural
from ...core.errors import SetupError

ALLOWED_MODULES: frozenset[str] = frozenset({"math", "scipy"})
"""What MathQA-Python's own code imports: ``math``, and ``scipy`` (``scipy.special.comb``, ``scipy.gcd``)."""

MAX_CODE_CHARS = DEFAULT_LIMITS.max_sandbox_code_chars
"""Longest snippet accepted; a longer one is not run (kind ``too_long``)."""

MAX_MESSAGE_CHARS = DEFAULT_LIMITS.snippet_message_chars
"""Longest message kept from a child's result."""

__all__ = ["ALLOWED_MODULES", "cpu_seconds", "SnippetKind", "SnippetResult",
           "decode_result", "default_jobs", "run_snippet", "run_snippets"]


class SnippetKind(str, Enum):
    """Why a snippet gave (or did not give) an answer."""

    OK = "ok"
    NO_ANSWER = "no_answer"            # the snippet sets no ``answer``
    NOT_A_NUMBER = "not_a_number"      # ``float(answer)`` fails
    SYNTAX_ERROR = "syntax_error"
    ERROR = "error"                    # an exception other than the ones below
    FORBIDDEN = "forbidden"            # the sandbox refused an action (in-process check or kernel)
    MEMORY = "memory"                  # the memory limit
    OUTPUT_LIMIT = "output_limit"      # printed or wrote too much
    EXIT = "exit"                      # ``SystemExit``
    TIMEOUT = "timeout"                # wall-clock limit, killed by the parent
    CRASH = "crash"                    # died (signal, CPU limit) or ended without a result
    BAD_RESULT = "bad_result"          # the result on the pipe is not the typed format
    TOO_LONG = "too_long"              # the code is over MAX_CODE_CHARS (not run)
    SANDBOX_ERROR = "sandbox_error"    # the sandbox could not be started or read


CHILD_KINDS = frozenset({SnippetKind.OK, SnippetKind.NO_ANSWER, SnippetKind.NOT_A_NUMBER, SnippetKind.SYNTAX_ERROR,
                         SnippetKind.ERROR, SnippetKind.FORBIDDEN, SnippetKind.MEMORY, SnippetKind.OUTPUT_LIMIT,
                         SnippetKind.EXIT})
"""The kinds a child may report about itself; the others only the parent decides."""


def cpu_seconds(limits: Limits) -> int:
    """The CPU rlimit of one snippet: its wall-clock budget (``snippet_wall_seconds``) rounded up, at least 1."""
    return max(1, int(limits.snippet_wall_seconds) + 1)


@dataclass(frozen=True, slots=True)
class SnippetResult:
    """What running one snippet gave: a float ``answer`` (kind ``ok``), or ``kind`` and ``message`` saying why not.

    ``answer`` may be ``inf``/``nan`` when the snippet computed them.
    """

    kind: SnippetKind
    answer: float | None = None
    message: str = ""
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.kind is SnippetKind.OK


@lru_cache(maxsize=1)
def _child_source() -> str:
    return resources.files("progexec.datasets.mathqa").joinpath("sandbox_child.py").read_text(encoding="utf-8")


_UNSAFE_ENV = dict(bubblewrap.CHILD_ENV) | {"PATH": "/usr/bin:/bin"}


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Kill the sandbox (bwrap's death takes its PID namespace along) and its process group."""
    kill_group(process)


def _read_bounded(process: subprocess.Popen[bytes], deadline: float, cap: int) -> tuple[bytes, SnippetKind | None]:
    """Read the child's result until EOF, the deadline or the byte cap; the second item names a limit hit."""
    assert process.stdout is not None
    raw, bound = read_bounded(process.stdout, Deadline.at_time(deadline), cap)
    return raw, None if bound is None else SnippetKind.TIMEOUT if bound is Bound.TIME else SnippetKind.OUTPUT_LIMIT


def run_snippet(code: str, limits: Limits | None = None, *, unsafe_no_isolation: bool = False) -> SnippetResult:
    """Run one snippet in a fresh confined process under ``limits`` (default: those in force, the
    ``snippet_*`` bounds); always returns a result, never raises.

    Without isolation on this machine the result is ``sandbox_error`` unless
    ``unsafe_no_isolation`` is set.
    """
    bound = current().max_sandbox_code_chars
    if len(code) > bound:
        return SnippetResult(SnippetKind.TOO_LONG,
                             message=f"the snippet has {plural(len(code), 'character')}, over {bound} "
                                     f"(max_sandbox_code_chars)")
    isolation = bubblewrap.status()
    if not isolation.available and not unsafe_no_isolation:
        return SnippetResult(SnippetKind.SANDBOX_ERROR, message=f"no isolation: {isolation.reason}")
    try:
        return _run(code, limits if limits is not None else current(), isolated=isolation.available)
    except Exception as error:  # the scorer must go on: any failure of ours is this snippet's result
        return SnippetResult(SnippetKind.SANDBOX_ERROR, message=f"{type(error).__name__}: {error}"[:current().snippet_message_chars])


def _request(code: str, limits: Limits, isolated: bool) -> bytes:
    package_path = list(bubblewrap.runtime().package_path) if isolated else []
    return json.dumps({
        "code": code, "allowed": sorted(ALLOWED_MODULES), "memory_bytes": limits.snippet_memory_bytes,
        "cpu_seconds": cpu_seconds(limits), "max_output": limits.snippet_output_chars, "path": package_path,
    }).encode("utf-8", "surrogatepass")


def _start(isolated: bool, workdir: str, request: IO[bytes]) -> subprocess.Popen[bytes]:
    common: dict[str, Any] = {"stdin": request, "stdout": subprocess.PIPE, "stderr": subprocess.DEVNULL,
                              "start_new_session": True}
    if not isolated:
        return subprocess.Popen([sys.executable, "-I", "-c", _child_source()], cwd=workdir, env=_UNSAFE_ENV,
                                close_fds=True, **common)
    seccomp_fd = bubblewrap.open_seccomp("solution")
    try:
        argv = readonly_tmp(bubblewrap.command([bubblewrap.runtime().executable, "-I", "-S", "-c", _child_source()],
                                               seccomp_fd))
        return subprocess.Popen(argv, cwd="/", env={}, pass_fds=() if seccomp_fd is None else (seccomp_fd,), **common)
    finally:
        if seccomp_fd is not None:
            os.close(seccomp_fd)


def _run(code: str, limits: Limits, isolated: bool) -> SnippetResult:
    started = time.monotonic()
    # the request goes through an unlinked file, not a pipe: writing it can never block on a stalled child
    with tempfile.TemporaryDirectory(prefix="progexec-sandbox-") as workdir, tempfile.TemporaryFile() as request:
        request.write(_request(code, limits, isolated))
        request.seek(0)
        try:
            process = _start(isolated, workdir, request)
        except (OSError, SetupError) as error:
            return SnippetResult(SnippetKind.SANDBOX_ERROR, message=f"cannot start the sandbox: {error}")
        try:
            raw, limit = _read_bounded(process, started + limits.snippet_wall_seconds, limits.snippet_result_bytes)
        finally:
            _kill(process)
            process.wait()
            if process.stdout is not None:
                process.stdout.close()
    seconds = time.monotonic() - started
    if limit is SnippetKind.TIMEOUT:
        return SnippetResult(limit, message=f"no result within {limits.snippet_wall_seconds:g} s (wall clock)", seconds=seconds)
    if limit is SnippetKind.OUTPUT_LIMIT:
        return SnippetResult(limit, message="the snippet wrote too much output", seconds=seconds)
    return decode_result(raw, process.returncode, seconds)


def _ended(returncode: int | None, seconds: float) -> SnippetResult:
    """A child that gave no result: name the signal that killed it (bwrap reports it as 128 + n)."""
    number = -returncode if returncode is not None and returncode < 0 else \
        returncode - 128 if returncode is not None and 128 < returncode < 128 + 65 else None
    if number is not None:
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        reason = "CPU time limit" if name == "SIGXCPU" else name
        return SnippetResult(SnippetKind.CRASH, message=f"the process was killed ({reason})", seconds=seconds)
    return SnippetResult(SnippetKind.CRASH, message=f"the process ended without a result (exit code {returncode})",
                         seconds=seconds)


def safe_message(text: str) -> str:
    """A child's message cut to MAX_MESSAGE_CHARS with lone surrogates escaped, so printing or encoding it
    can never fail (a snippet's ``raise ValueError('\\ud800')`` must not end the run)."""
    return escaped_text(text, current().snippet_message_chars)


def readonly_tmp(argv: list[str]) -> list[str]:
    """The bwrap command line with its private ``/tmp`` remounted read-only (after every bind under it): a
    snippet can create nothing there, so it can hold no host memory in it, whatever uid it runs as."""
    separator = argv.index("--")
    return argv[:separator] + ["--remount-ro", "/tmp"] + argv[separator:]


def decode_result(raw: bytes, returncode: int | None, seconds: float = 0.0) -> SnippetResult:
    """The child's result from its bytes: ``{"kind", "answer"?, "message"?}``, every field checked.

    Anything else — not UTF-8, not JSON, too deep, an oversized integer, an unknown
    kind, an ``ok`` without a numeric answer — is ``bad_result``, or ``crash`` when
    the child wrote nothing.
    """
    if not raw.strip():
        return _ended(returncode, seconds)
    try:
        payload: Any = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return SnippetResult(SnippetKind.BAD_RESULT, message="the sandbox's result is not JSON", seconds=seconds)
    if not isinstance(payload, dict):
        return SnippetResult(SnippetKind.BAD_RESULT, message="the sandbox's result is not an object", seconds=seconds)
    try:
        kind = SnippetKind(payload.get("kind"))
    except ValueError:
        kind = None
    if kind is None or kind not in CHILD_KINDS:
        return SnippetResult(SnippetKind.BAD_RESULT, message="the sandbox's result has no valid kind", seconds=seconds)
    message = payload.get("message", "")
    message = safe_message(message) if isinstance(message, str) else ""
    if kind is SnippetKind.OK:
        answer = result_number(payload.get("answer"))
        if answer is None:
            return SnippetResult(SnippetKind.BAD_RESULT, message="the sandbox's result has no numeric answer",
                                 seconds=seconds)
        return SnippetResult(kind, answer, seconds=seconds)
    return SnippetResult(kind, message=message, seconds=seconds)


def default_jobs() -> int:
    """Parallel snippets: one per core."""
    return max(1, os.cpu_count() or 1)


def require_isolation(unsafe_no_isolation: bool = False) -> bubblewrap.Isolation:
    """The machine's isolation; raises SetupError when there is none and the caller did not opt out."""
    isolation = bubblewrap.status()
    if not isolation.available and not unsafe_no_isolation:
        raise SetupError(
            f"refusing to run model-written code without isolation: {isolation.reason}. Install bubblewrap "
            "(apt-get install bubblewrap) or, only for code you trust, pass --unsafe-no-isolation")
    return isolation


def run_snippets(codes: Iterable[str], limits: Limits | None = None, jobs: int | None = None, *,
                 unsafe_no_isolation: bool = False) -> Iterator[SnippetResult]:
    """Run many snippets in parallel (``jobs`` processes at a time) under ``limits`` (default: those in force);
    results in input order.

    Raises SetupError (before running anything) when the machine cannot
    isolate and ``unsafe_no_isolation`` is not set.
    """
    require_isolation(unsafe_no_isolation)
    return _run_all(codes, limits if limits is not None else current(), jobs, unsafe_no_isolation)


def _run_all(codes: Iterable[str], limits: Limits, jobs: int | None,
             unsafe_no_isolation: bool) -> Iterator[SnippetResult]:
    with ThreadPoolExecutor(max_workers=jobs or default_jobs()) as pool:
        yield from pool.map(lambda code: run_snippet(code, limits, unsafe_no_isolation=unsafe_no_isolation), codes)

