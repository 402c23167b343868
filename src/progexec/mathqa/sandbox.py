"""Running untrusted Python snippets (model-written MathQA-Python code), one process each.

:func:`run_snippet` starts a fresh ``python -I`` for one snippet
(:mod:`progexec.mathqa.sandbox_child` is its program), sends the code on standard
input, and waits at most ``timeout`` seconds of wall-clock time; past that, or past
``max_result_bytes`` of output, the whole process group is killed. The child limits
its own address space, CPU seconds, file size (0: no writes), core files and
process count, installs an audit hook against process creation, sockets, file
writes, deletions and FFI, and admits only the allowed imports. Whatever the
snippet does, the caller gets a :class:`SnippetResult` — never an exception, never
a hang. :func:`run_snippets` runs many in parallel (threads that each wait on one
child process), in input order.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

ALLOWED_MODULES: frozenset[str] = frozenset({"math", "scipy"})
"""What MathQA-Python's own code imports: ``math``, and ``scipy`` (``scipy.special.comb``, ``scipy.gcd``)."""


@dataclass(frozen=True, slots=True)
class SandboxLimits:
    """Per-snippet limits. ``timeout`` is wall-clock seconds, including interpreter start-up."""

    timeout: float = 10.0
    memory_bytes: int = 1024 * 1024 * 1024
    max_output_chars: int = 1_000_000
    max_result_bytes: int = 64 * 1024
    allowed_modules: frozenset[str] = field(default=ALLOWED_MODULES)

    @property
    def cpu_seconds(self) -> int:
        return max(1, int(self.timeout) + 1)


@dataclass(frozen=True, slots=True)
class SnippetResult:
    """What running one snippet gave: a float ``answer``, or ``kind`` and ``message`` saying why not.

    ``kind`` is one of ``ok``, ``no_answer``, ``not_a_number``, ``syntax_error``,
    ``error`` (an exception), ``forbidden`` (the sandbox refused an action),
    ``memory``, ``output_limit``, ``exit``, ``timeout``, ``crash`` (killed by a
    signal or exited without a result), ``too_long`` (not run) and ``sandbox_error``
    (the child could not be started or read).
    ``answer`` may be ``inf``/``nan`` (as floats) when the snippet computed them.
    """

    kind: str
    answer: float | None = None
    message: str = ""
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.kind == "ok"


@lru_cache(maxsize=1)
def _child_source() -> str:
    return resources.files("progexec.mathqa").joinpath("sandbox_child.py").read_text(encoding="utf-8")


_CHILD_ENV = {
    "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
    "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
}


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """Kill the child and anything it started (it leads its own session)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.kill()
    except ProcessLookupError:
        pass


def _read_bounded(process: subprocess.Popen[bytes], deadline: float, cap: int) -> tuple[bytes, str | None]:
    """Read the child's result until EOF, the deadline or the byte cap; the second item names a limit hit."""
    assert process.stdout is not None
    chunks: list[bytes] = []
    size = 0
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return b"".join(chunks), "timeout"
            if not selector.select(remaining):
                continue
            chunk = os.read(process.stdout.fileno(), 65536)
            if not chunk:
                return b"".join(chunks), None
            chunks.append(chunk)
            size += len(chunk)
            if size > cap:
                return b"".join(chunks), "output"


MAX_CODE_CHARS = 1_000_000
"""Longest snippet accepted; a longer one is not run (kind ``too_long``)."""


def run_snippet(code: str, limits: SandboxLimits = SandboxLimits()) -> SnippetResult:
    """Run one snippet in a fresh confined process; always returns a result, never raises."""
    if len(code) > MAX_CODE_CHARS:
        return SnippetResult("too_long", message=f"the snippet has {len(code)} characters, over {MAX_CODE_CHARS}")
    try:
        return _run(code, limits)
    except Exception as error:  # the scorer must go on: any failure of ours is this snippet's result
        return SnippetResult("sandbox_error", message=f"{type(error).__name__}: {error}")


def _run(code: str, limits: SandboxLimits) -> SnippetResult:
    started = time.monotonic()
    request = json.dumps({
        "code": code, "allowed": sorted(limits.allowed_modules), "memory_bytes": limits.memory_bytes,
        "cpu_seconds": limits.cpu_seconds, "max_output": limits.max_output_chars,
    }).encode("utf-8", "surrogatepass")
    with tempfile.TemporaryDirectory(prefix="progexec-sandbox-") as workdir:
        try:
            process = subprocess.Popen(
                [sys.executable, "-I", "-c", _child_source()], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, cwd=workdir, env=_CHILD_ENV, start_new_session=True, close_fds=True)
        except OSError as error:
            return SnippetResult("sandbox_error", message=f"cannot start the sandbox: {error}")
        try:
            assert process.stdin is not None
            try:
                process.stdin.write(request)
                process.stdin.close()
            except (BrokenPipeError, OSError):
                pass
            raw, limit = _read_bounded(process, started + limits.timeout, limits.max_result_bytes)
        finally:
            _kill_group(process)
            process.wait()
            if process.stdout is not None:
                process.stdout.close()
    seconds = time.monotonic() - started
    if limit == "timeout":
        return SnippetResult("timeout", message=f"no result within {limits.timeout:g} s (wall clock)", seconds=seconds)
    if limit == "output":
        return SnippetResult("output_limit", message="the snippet wrote too much output", seconds=seconds)
    return _decode(raw, process.returncode, seconds)


def _decode(raw: bytes, returncode: int | None, seconds: float) -> SnippetResult:
    try:
        payload: Any = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        payload = None
    if not isinstance(payload, dict):
        if returncode is not None and returncode < 0:
            try:
                name = signal.Signals(-returncode).name
            except ValueError:
                name = f"signal {-returncode}"
            reason = "CPU time limit" if name == "SIGXCPU" else name
            return SnippetResult("crash", message=f"the process was killed ({reason})", seconds=seconds)
        return SnippetResult("crash", message=f"the process ended without a result (exit code {returncode})",
                             seconds=seconds)
    if payload.get("ok") is True:
        answer = payload.get("answer")
        value = float(answer) if isinstance(answer, (int, float, str)) else None
        return SnippetResult("ok", value, seconds=seconds)
    return SnippetResult(str(payload.get("kind", "error")), message=str(payload.get("message", ""))[:500],
                         seconds=seconds)


def default_jobs() -> int:
    """Parallel snippets: one per core."""
    return max(1, os.cpu_count() or 1)


def run_snippets(codes: Iterable[str], limits: SandboxLimits = SandboxLimits(),
                 jobs: int | None = None) -> Iterator[SnippetResult]:
    """Run many snippets in parallel (``jobs`` processes at a time); results in input order."""
    with ThreadPoolExecutor(max_workers=jobs or default_jobs()) as pool:
        yield from pool.map(lambda code: run_snippet(code, limits), codes)
