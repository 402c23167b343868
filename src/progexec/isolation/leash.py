"""The leash: one line-for-line exchange with an untrusted child process, bounded in every way.

Used by ``check-rounder``, ``check-evaluator`` and ``check-reward`` (``--cmd``, and ``--python``
through :mod:`progexec.checker.pychild`). The checker writes one request line per case and reads one answer line per
case, in order, in chunks; a pure ``exchange(lines) -> answers`` per chunk, so a pool of
engines could later answer chunks in parallel.

What the child cannot do to the checker:

* **flood it**: an answer line longer than ``max_line`` bytes, or more answer lines than
  request lines written so far, or any output after the last answer, is an ``output_flood``
  fault (the child is killed); memory is bounded by ``chunk * max_line``;
* **outwait it**: the timeout counts *progress* only, a byte written to the child or a complete
  answer line it was allowed to send; partial lines, floods and stderr never reset the clock;
* **bury it in stderr**: stderr is read through a pipe into a bounded head and tail
  (:class:`~.process.StderrCapture`: ``stderr_head_bytes`` and ``stderr_tail_bytes`` kept, ``Limits`` fields) and
  no longer read past ``stderr_max_bytes`` (a child blocked on it then hangs and is killed);
* **outlive it**: the child runs under the reaper (:mod:`.child`, :mod:`.reaper`), a child
  subreaper in its own session: every process the child starts, a daemon that double-forks,
  calls ``setsid`` and closes its stdio included, is killed when the child ends, and a child
  that leaves one running gets a ``no_exit`` fault, never a pass. The process group is killed
  at every stop and any process still holding one of its pipes is found through ``/proc``;
* **reach the host** (``sandbox``, the checkers' ``--isolate``): the child runs inside the
  bubblewrap sandbox (:mod:`.bwrap`): no network, the host's files hidden but for the port's
  own directory and the programs it names, read-only, uid 65534.

Every fault that ends a child says how it ended (exit code or signal), quotes the head and
the tail of its stderr (:class:`~.process.StderrCapture`) and names the request line it was
answering.

Programs that do not flush are run in *batch mode* (one run per chunk, stdin closed after it)
with a lesser ``unflushed`` fault.
"""

from __future__ import annotations

import os
import selectors
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Optional, Union

from ..core.limits import current, DEFAULT_LIMITS
from . import bwrap
from .bwrap import PortSandbox
from .child import Child, Ending
from .process import READ_SIZE, ExitStatus, StderrCapture
from ..core.plural import plural
from ..core.errors import SetupError

__all__ = ["DEFAULT_CHUNK", "DEFAULT_STALL", "DEFAULT_TIMEOUT", "MAX_NOTES", "Answer",
           "ChildExchange", "Ending", "Fault", "FaultKind"]

DEFAULT_CHUNK = DEFAULT_LIMITS.port_chunk_cases
DEFAULT_TIMEOUT = DEFAULT_LIMITS.port_timeout_seconds
DEFAULT_STALL = DEFAULT_LIMITS.port_stall_seconds
MAX_NOTES = DEFAULT_LIMITS.max_port_notes
REQUEST_QUOTE = DEFAULT_LIMITS.port_request_quote_chars
"""Bytes of the request line a fault quotes (the case the child was answering)."""


class FaultKind(str, Enum):
    """Why the child failed the protocol; the value is the divergence class name in reports."""

    NO_ANSWER = "no_answer"        # the child exited, hung (killed) or was given up on
    OUTPUT_FLOOD = "output_flood"  # an over-long line, more answers than requests, output after the end
    NO_EXIT = "no_exit"            # did not exit at end of input, or a descendant held its output open
    BAD_EXIT = "bad_exit"          # exited with a non-zero code at end of input
    UNFLUSHED = "unflushed"        # held its answers until end of input (lesser: batch mode copes)

    @property
    def minor(self) -> bool:
        return self is FaultKind.UNFLUSHED


@dataclass(frozen=True, slots=True)
class Fault:
    """A protocol failure: for one case (in place of its answer) or for the whole run.

    ``request``: the request line the child was answering when it failed (the first it did
    not answer); ``exit_status``: how it ended (``exit code 1``, ``killed by SIGSEGV``),
    when it ended; ``stderr``: the head and the tail of what it wrote on stderr.
    """

    kind: FaultKind
    detail: str
    request: Optional[bytes] = None
    exit_status: Optional[str] = None
    stderr: str = ""


Answer = Union[bytes, Fault]
"""One answer line (without its newline), or the Fault that stands in for it."""


@dataclass
class _Round:
    """The outcome of one read/write loop."""

    lines: list[bytes]
    fault: Optional[Fault] = None
    stalled: bool = False
    ended: bool = False  # the child closed its output before answering every case


class ChildExchange:
    """A child process answering request lines, on a leash (see the module docstring).

    ``ready``: a line the child must print before anything else (the ``--python`` child's
    handshake); a child that exits instead raises :class:`SetupError` with its stderr.
    ``sandbox``: run the child inside bubblewrap with this view of the host
    (:class:`SetupError` at start when the machine cannot).
    """

    def __init__(self, argv: Sequence[str], *, timeout: float = DEFAULT_TIMEOUT, chunk: int = DEFAULT_CHUNK,
                 max_line: int = 4096, max_restarts: int = 3, stall: float = DEFAULT_STALL,
                 cwd: Optional[str] = None, env: Optional[Mapping[str, str]] = None,
                 ready: Optional[bytes] = None, sandbox: Optional[PortSandbox] = None) -> None:
        if not argv:
            raise SetupError("empty command")
        self.argv, self.timeout, self.chunk = list(argv), timeout, max(1, chunk)
        self.max_line, self.max_restarts, self.stall = max(16, max_line), max_restarts, min(stall, timeout)
        self.cwd, self.env, self.ready = cwd, dict(env) if env is not None else None, ready
        self.sandbox = sandbox
        self.notes: list[str] = []
        self.faults: list[Fault] = []
        self.failures = 0
        self.batch = False
        self._proc: Optional[subprocess.Popen[bytes]] = None
        self._child: Optional[Child] = None
        self._pending = b""
        self._gave_up = False
        self._stderr = StderrCapture()
        self._stderr_open = False

    # -- life cycle ---------------------------------------------------------------------------
    def start(self) -> None:
        """Start the child; :class:`SetupError` if it cannot be started or fails its handshake."""
        if self.sandbox is not None and not bwrap.status().available:
            raise SetupError(f"cannot isolate the port: {bwrap.status().reason}")
        child = Child.start(self.argv, cwd=self.cwd, env=self.env, sandbox=self.sandbox)
        proc = child.proc
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        self._child, self._proc = child, proc
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            os.set_blocking(stream.fileno(), False)
        self._pending, self._stderr, self._stderr_open = b"", StderrCapture(), True
        if self.ready is not None:
            self._handshake(self.ready)

    def _handshake(self, ready: bytes) -> None:
        wait = max(self.timeout, current().port_start_seconds)  # interpreter start-up is not the function hanging
        result = self._loop(memoryview(b""), 1, to_eof=False, stall=wait, timeout=wait)
        if result.lines[:1] == [ready.rstrip(b"\n")] and result.fault is None:
            return
        ending = self._stop(wait=self.timeout)
        text = self.stderr_tail() or (result.fault.detail if result.fault else "no handshake")
        raise SetupError(f"{text} ({ExitStatus(ending.code).describe()})" if ending.code else text)

    def stderr_tail(self) -> str:
        """The head and the tail of what the child wrote on stderr (decoded, stripped)."""
        return self._stderr.text()

    def _ended(self, kind: FaultKind, what: str, ending: Optional[Ending], request: Optional[bytes] = None) -> Fault:
        """A fault for a child that ended (or was killed): ``what`` happened, with its exit status and stderr."""
        exit_status = ExitStatus(ending.code).describe() if ending is not None else None
        quoted = None if request is None else request.rstrip(b"\n")[:current().port_request_quote_chars]
        return Fault(kind, what, quoted, exit_status, self.stderr_tail())

    def note(self, text: str) -> None:
        if len(self.notes) < current().max_port_notes:
            self.notes.append(text)
        elif len(self.notes) == current().max_port_notes:
            self.notes.append("... further protocol notes left out")

    def _record(self, fault: Fault) -> Fault:
        """Keep ``fault`` as the run's fault of its kind (the first of each kind explains the run); note it."""
        if all(f.kind is not fault.kind for f in self.faults):
            self.faults.append(fault)
        self.note(fault.detail)
        return fault

    def _fault(self, kind: FaultKind, detail: str) -> Fault:
        return self._record(Fault(kind, detail))

    def close(self) -> None:
        """End of input: close stdin, let the child exit within the timeout; kill what is left."""
        if self._proc is None:
            return
        result, ending = self._finish(0)
        extra = [line for line in result.lines if line.strip()]
        if extra and result.fault is None:
            self._fault(FaultKind.OUTPUT_FLOOD, f"{plural(len(extra), 'answer line')} after the last case")
        elif result.fault is not None:
            fault = result.fault
            self._record(fault if fault.stderr else replace(fault, stderr=self.stderr_tail()))
        elif ending.code not in (0, None):
            self._record(self._ended(FaultKind.BAD_EXIT, f"the program {ExitStatus(ending.code).phrase()} "
                                                         f"at end of input", ending))

    def _finish(self, count: int) -> tuple[_Round, Ending]:
        """Close stdin, read until end of file (``count`` lines allowed), reap the child."""
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        try:
            proc.stdin.close()
        except OSError:
            pass
        result = self._loop(memoryview(b""), count, to_eof=True)
        ending = self._stop(wait=self.timeout if result.fault is None else 0.0)
        return result, ending

    def _stop(self, wait: float = 0.0) -> Ending:
        """End the child (killed unless it exits within ``wait`` s) and its whole tree; a port that left
        processes running gets a ``no_exit`` fault."""
        child, self._child, self._proc = self._child, None, None
        if child is None:
            return Ending(None)
        ending = child.stop(wait, self._stderr)
        if ending.left_behind:
            shown = "; ".join(ending.left[:3]) + (" ..." if ending.left_count > 3 else "")
            self._record(self._ended(FaultKind.NO_EXIT, f"the program left {ending.left_count} process(es) running "
                                                        f"after it exited, killed: {shown}", None))
        elif ending.held_pipes:
            self._fault(FaultKind.NO_EXIT, "a process outside the program's tree held its output open; killed")
        return ending

    def kill(self) -> None:
        """Stop the child now (it is restarted on the next exchange)."""
        self._stop()

    # -- answering ----------------------------------------------------------------------------
    def exchange(self, requests: Sequence[bytes]) -> list[Answer]:
        """One answer per request line (each a single line ending in ``\\n``), in order."""
        out: list[Answer] = []
        start = 0
        while start < len(requests):
            end = start + self.chunk
            out.extend(self._answer(requests[start:end]))
            start = end
        return out

    def _answer(self, requests: Sequence[bytes]) -> list[Answer]:
        """Answers for one chunk (in batch mode, one run of a fresh child)."""
        count = len(requests)
        if self._gave_up:
            return [Fault(FaultKind.NO_ANSWER, "not run: the program failed too often")] * count
        if self._proc is None:
            self.start()
        payload = memoryview(b"".join(requests))
        ending: Optional[Ending] = None
        if self.batch:
            result = self._loop(payload, count, to_eof=True)
            ending = self._stop(wait=self.timeout if result.fault is None else 0.0)
        else:
            result = self._loop(payload, count, to_eof=False)
            if result.ended:
                ending = self._stop(wait=self.timeout)
            elif result.stalled:
                more, ending = self._finish(count - len(result.lines))
                result = _Round(result.lines + more.lines, more.fault)
                if result.fault is None and len(result.lines) >= count:
                    self.batch = True
                    self._fault(FaultKind.UNFLUSHED,
                                "the program held its answers until end of input (it does not flush, or starts "
                                "slowly): switched to batch mode (one run per chunk)")
        done = len(result.lines)
        if (result.fault is None or result.ended) and done < count:
            verb = ExitStatus(ending.code if ending is not None else None).phrase()
            result.fault = self._ended(FaultKind.NO_ANSWER, f"the program {verb} after {done} of "
                                                            f"{plural(count, 'answer')} "
                                                            f"in this chunk", ending, requests[done])
        answers: list[Answer] = list(result.lines[:count])
        if result.fault is not None:
            if self._proc is not None:
                self._stop()
            fault = result.fault  # completed after the stop: the stderr it quotes is all there is
            if fault.request is None and done < count:
                fault = replace(fault, request=requests[done].rstrip(b"\n")[:current().port_request_quote_chars])
            if not fault.stderr:
                fault = replace(fault, stderr=self.stderr_tail())
            self._record(fault)
            if len(answers) < count:
                self.failures += 1
                answers += [fault] * (count - len(answers))
                if self.failures > self.max_restarts:
                    self._gave_up = True
                    self.note(f"gave up after {plural(self.failures, 'failure')}; the remaining cases were not run")
        return answers

    def _loop(self, payload: memoryview, count: int, to_eof: bool, stall: Optional[float] = None,
              timeout: Optional[float] = None) -> _Round:
        """Write ``payload`` while reading answer lines: until ``count`` lines (or end of file).

        Lines beyond those requested so far, a line longer than ``max_line`` or no progress for
        ``timeout`` seconds end the loop with a Fault. Without ``to_eof``, a fully written payload
        with no answer for ``stall`` seconds ends it as stalled.
        """
        proc = self._proc
        assert proc is not None and proc.stdout is not None and proc.stderr is not None
        stall = self.stall if stall is None else stall
        timeout = self.timeout if timeout is None else timeout
        buffer, self._pending = self._pending, b""
        lines: list[bytes] = []
        total = len(payload)
        written = 0
        allowed = count if to_eof or not total else 0  # answer lines the child may have sent so far
        selector = selectors.DefaultSelector()
        selector.register(proc.stdout, selectors.EVENT_READ)
        if self._stderr_open:
            selector.register(proc.stderr, selectors.EVENT_READ)
        writing = total > 0 and proc.stdin is not None and not proc.stdin.closed
        if writing:
            assert proc.stdin is not None
            selector.register(proc.stdin, selectors.EVENT_WRITE)
        progress = time.monotonic()
        exited_at: Optional[float] = None
        try:
            while True:
                if not to_eof and len(lines) >= count:
                    break
                now = time.monotonic()
                if now - progress >= timeout:
                    return _Round(lines, Fault(FaultKind.NO_ANSWER if not to_eof or count else FaultKind.NO_EXIT,
                                               f"no progress for {timeout:g}s ({len(lines)} of "
                                               f"{plural(count, 'answer')}"
                                               f"{' after end of input' if to_eof else ' in this chunk'}): "
                                               f"the program hangs; killed", exit_status="killed (hung)"))
                if not to_eof and not writing and now - progress >= stall:
                    self._pending = buffer
                    return _Round(lines, stalled=True)
                limit = timeout if writing or to_eof else stall
                wait = max(0.0, progress + limit - now)
                if to_eof:
                    wait = min(wait, 0.05)
                    if exited_at is None and proc.poll() is not None:
                        exited_at = now
                    if exited_at is not None and now - exited_at > current().port_exit_grace_seconds:
                        return _Round(lines, Fault(FaultKind.NO_EXIT,
                                                   "the program exited but a process it started still holds "
                                                   "its output open; killed"))
                for key, _ in selector.select(wait):
                    if key.fileobj is proc.stderr:
                        if not self._read_stderr(proc):
                            selector.unregister(proc.stderr)
                        continue
                    if key.fileobj is proc.stdout:
                        try:
                            data = os.read(proc.stdout.fileno(), READ_SIZE)
                        except BlockingIOError:
                            continue
                        if not data:
                            if buffer.strip():
                                lines.append(buffer)
                            if to_eof:
                                return _Round(lines)
                            return _Round(lines, ended=True)
                        buffer += data
                        if b"\n" in data:
                            *complete, buffer = buffer.split(b"\n")
                            if to_eof and not count:  # after the last case: blank lines are harmless
                                complete = [line for line in complete if line.strip()]
                            before = len(lines)
                            lines.extend(complete)
                            if len(lines) > allowed:
                                return _Round(lines[:allowed], Fault(
                                    FaultKind.OUTPUT_FLOOD,
                                    f"{plural(len(lines), 'answer line')} for {plural(allowed, 'case')} sent so far: "
                                    f"the program floods its output; killed"))
                            if any(len(line) > self.max_line for line in complete):
                                return _Round(lines, Fault(FaultKind.OUTPUT_FLOOD,
                                                           f"an answer line longer than "
                                                           f"{plural(self.max_line, 'byte')}; killed"))
                            if len(lines) > before:
                                progress = time.monotonic()
                        if len(buffer) > self.max_line:
                            return _Round(lines, Fault(FaultKind.OUTPUT_FLOOD,
                                                       f"an answer line longer than {plural(self.max_line, 'byte')} "
                                                       f"(no newline); killed"))
                    elif writing:
                        assert proc.stdin is not None
                        try:
                            sent = os.write(proc.stdin.fileno(), payload[written:written + READ_SIZE])
                        except BlockingIOError:
                            continue
                        except (BrokenPipeError, ConnectionResetError):
                            sent = total - written  # the child is gone; reading will tell how
                        allowed += payload[written:written + sent].tobytes().count(b"\n")
                        written += sent
                        progress = time.monotonic()
                        if written >= total:
                            selector.unregister(proc.stdin)
                            writing = False
                            if to_eof:
                                proc.stdin.close()
        finally:
            selector.close()
        self._pending = buffer  # a partial line only: more complete lines than allowed is a flood
        return _Round(lines)

    def _read_stderr(self, proc: subprocess.Popen[bytes]) -> bool:
        """Keep a bounded tail of stderr; False once it is closed or no longer read."""
        assert proc.stderr is not None
        try:
            data = os.read(proc.stderr.fileno(), READ_SIZE)
        except BlockingIOError:
            return True
        if not data:
            self._stderr_open = False
            return False
        if not self._stderr.feed(data):
            self._stderr_open = False
            self.note(f"the program wrote more than {current().stderr_max_bytes >> 20} MiB on stderr; no longer read")
            return False
        return True
