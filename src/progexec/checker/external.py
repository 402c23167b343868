"""The external-program protocol of ``check-rounder --cmd``.

The program reads lines ``<x as float.hex()> <ndigits>`` on stdin and writes one answer line per
input line, in order (a ``float.hex()`` string or a decimal literal), flushing after each line.

Cases go out in chunks of ``chunk`` lines; within a chunk the checker writes and reads at the
same time through non-blocking pipes in one ``selectors`` loop, so neither side can fill a pipe
and wait on the other: it never deadlocks. A chunk fails when ``timeout`` seconds pass without
any progress (no byte written or read). A program that exits early, hangs (it is killed) or
answers something that is not a float is reported case by case as a
:class:`~progexec.checker.classify.Failure`; it is restarted for the next chunk, at most
``max_restarts`` times, after which the remaining cases are marked unanswered without running.

A program that does not flush (C's ``printf`` into a pipe, Python's ``print`` without
``flush``) holds its answers until its buffer fills or it exits. When a fully written chunk gets
no answer for ``stall`` seconds the checker closes the program's stdin; if the program then
answers everything and exits, the checker switches to *batch mode* (one run of the program per
block of cases, stdin closed after the block) and notes it, instead of reporting a hang.
The program's stderr goes to a temporary file (never a pipe that could fill); its tail is quoted
in the protocol notes.
"""

from __future__ import annotations

import os
import selectors
import subprocess
import tempfile
import time
from collections.abc import Sequence
from typing import IO, Optional

from .classify import Divergence, Failure

DEFAULT_CHUNK = 1000
DEFAULT_TIMEOUT = 20.0
DEFAULT_STALL = 1.0
MAX_NOTES = 20
_STALLED = "stalled"


def parse_answer(line: bytes) -> object:
    """An answer line as a float (hex or decimal literal), or a Failure quoting the line."""
    text = line.decode("utf-8", errors="replace").strip()
    lowered = text.lower()
    try:
        if "0x" in lowered or "p" in lowered.replace("inf", ""):
            return float.fromhex(text)
        if text and "_" not in text:
            return float(text)
    except ValueError:
        pass
    return Failure(Divergence.UNPARSEABLE, f"answer line {text[:60]!r}")


class ExternalRounder:
    """An answerer backed by an external program (see the module docstring)."""

    def __init__(self, argv: Sequence[str], timeout: float = DEFAULT_TIMEOUT, chunk: int = DEFAULT_CHUNK,
                 max_restarts: int = 3, stall: float = DEFAULT_STALL, cwd: Optional[str] = None) -> None:
        if not argv:
            raise ValueError("empty command")
        self.argv, self.timeout, self.chunk = list(argv), timeout, max(1, chunk)
        self.max_restarts, self.stall, self.cwd = max_restarts, min(stall, timeout), cwd
        self.notes: list[str] = []
        self.failures = 0
        self.batch = False
        self._proc: Optional[subprocess.Popen[bytes]] = None
        self._stderr: Optional[IO[bytes]] = None
        self._pending = b""
        self._gave_up = False

    # -- life cycle ---------------------------------------------------------------------------
    def start(self) -> None:
        """Start the program; ``OSError`` if it cannot be started (a usage error for the CLI)."""
        self._stderr = tempfile.TemporaryFile()
        try:
            self._proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=self._stderr, cwd=self.cwd, bufsize=0)
        except BaseException:
            self._stderr.close()
            self._stderr = None
            raise
        assert self._proc.stdin is not None and self._proc.stdout is not None
        os.set_blocking(self._proc.stdin.fileno(), False)
        os.set_blocking(self._proc.stdout.fileno(), False)
        self._pending = b""

    def _stderr_tail(self) -> str:
        if self._stderr is None:
            return ""
        self._stderr.seek(0)
        tail = self._stderr.read()[-300:].decode("utf-8", errors="replace").strip()
        return f"; stderr: {tail!r}" if tail else ""

    def _stop(self, wait: float = 0.0) -> Optional[int]:
        """Reap the program (killing it unless it exits within ``wait`` seconds); its exit code."""
        proc, self._proc = self._proc, None
        if proc is None:
            return None
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        try:
            code = proc.wait(timeout=wait) if wait > 0 else proc.poll()
        except subprocess.TimeoutExpired:
            code = None
        if code is None:
            proc.kill()
            code = proc.wait()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
        return code

    def _note(self, text: str) -> None:
        if len(self.notes) < MAX_NOTES:
            self.notes.append(text)
        elif len(self.notes) == MAX_NOTES:
            self.notes.append("... further protocol notes left out")

    def close(self) -> None:
        """End of input: close stdin, let the program exit (within the timeout), note extra output."""
        if self._proc is None:
            return
        extra, problem = self._finish(0)
        if extra:
            self._note(f"{len(extra)} answer line(s) beyond the last case")
        if problem:
            self._note(problem)

    def _finish(self, count: int) -> tuple[list[bytes], Optional[str]]:
        """Close stdin, read what is left until end of file, reap the program: (lines, problem)."""
        proc = self._proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.close()
        except OSError:
            pass
        lines, problem = self._exchange(b"", None, count)
        lines = [line for line in lines if line.strip()] if count == 0 else lines
        code = self._stop(wait=self.timeout)
        if problem is None and code not in (0, None):
            problem = f"the program exited with code {code} at end of input{self._stderr_tail()}"
        return lines, problem

    # -- answering ----------------------------------------------------------------------------
    def __call__(self, xs: Sequence[float], ns: Sequence[int]) -> list[object]:
        out: list[object] = []
        start = 0
        while start < len(xs):
            end = len(xs) if self.batch else start + self.chunk
            out.extend(self._answer(xs[start:end], ns[start:end]))
            start = end
        return out

    def _answer(self, xs: Sequence[float], ns: Sequence[int]) -> list[object]:
        """Answers for one chunk (or, in batch mode, one block run by a fresh program)."""
        if self._gave_up:
            return [Failure(Divergence.NO_ANSWER, "not run: the program failed too often")] * len(xs)
        if self._proc is None:
            self.start()
        payload = "".join(f"{x.hex()} {n}\n" for x, n in zip(xs, ns)).encode("ascii")
        lines, problem = self._exchange(payload, None if self.batch else len(xs))
        if self.batch or problem == _STALLED:
            more, problem = self._finish(len(xs))
            lines += more
            if not self.batch and problem is None and len(lines) >= len(xs):
                self.batch = True
                self._note("the program held its answers until end of input (it does not flush, or starts "
                           "slowly): switched to batch mode (one run per block of cases)")
            if problem is None and len(lines) < len(xs):
                problem = f"the program exited after {len(lines)} of {len(xs)} answers{self._stderr_tail()}"
            elif problem is None and len(lines) > len(xs) and any(line.strip() for line in lines[len(xs):]):
                self._note(f"{len(lines) - len(xs)} answer line(s) beyond the cases sent")
        answers: list[object] = [parse_answer(line) for line in lines[:len(xs)]]
        if problem is not None and len(answers) < len(xs):
            self.failures += 1
            self._note(problem)
            answers += [Failure(Divergence.NO_ANSWER, problem)] * (len(xs) - len(answers))
            if self.failures > self.max_restarts:
                self._gave_up = True
                self._note(f"gave up after {self.failures} failures; the remaining cases were not run")
        elif problem is not None:
            self._note(problem)
        return answers

    def _exchange(self, payload: bytes, count: Optional[int], expected: int = 0) -> tuple[list[bytes], Optional[str]]:
        """Write ``payload`` while reading answer lines until ``count`` (None: close stdin once the
        payload is written and read until end of file).

        Returns (lines, None) on success, (lines so far, ``_STALLED``) when the payload is written
        and no answer came for ``stall`` seconds, or (lines so far, problem) when the program
        exited early or made no progress for ``timeout`` seconds (it is then killed). ``expected``
        only words the problem when reading to the end.
        """
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        buffer, lines, view = self._pending, [], memoryview(payload)
        self._pending = b""
        selector = selectors.DefaultSelector()
        selector.register(proc.stdout, selectors.EVENT_READ)
        writing = bool(view) and proc.stdin is not None and not proc.stdin.closed
        if writing:
            assert proc.stdin is not None
            selector.register(proc.stdin, selectors.EVENT_WRITE)
        problem: Optional[str] = None
        progress = time.monotonic()
        try:
            while problem is None:
                *complete, buffer = buffer.split(b"\n")
                lines.extend(complete)
                if count is not None and len(lines) >= count:
                    break
                now = time.monotonic()
                if now - progress >= self.timeout:
                    if count is not None:
                        problem = (f"no progress for {self.timeout:g}s ({len(lines)} of {count} answers in this "
                                   f"chunk): the program hangs; killed")
                    else:
                        problem = (f"no answer for {self.timeout:g}s after end of input ({len(lines)} more of "
                                   f"{expected} answers): the program hangs; killed")
                    break
                if count is not None and not writing and now - progress >= self.stall:
                    self._pending = buffer
                    return lines, _STALLED
                limit = self.timeout if writing or count is None else self.stall
                for key, _ in selector.select(max(0.0, progress + limit - now)):
                    if key.fileobj is proc.stdout:
                        data = os.read(proc.stdout.fileno(), 65536)
                        if not data:
                            if count is None:
                                if buffer:
                                    lines.append(buffer)
                                return lines, None
                            code = proc.wait()
                            problem = (f"the program exited with code {code} after {len(lines)} of {count} "
                                       f"answers in this chunk{self._stderr_tail()}")
                            break
                        buffer += data
                        progress = time.monotonic()
                    elif writing:
                        assert proc.stdin is not None
                        try:
                            sent = os.write(proc.stdin.fileno(), view[:65536])
                        except BlockingIOError:
                            continue
                        except (BrokenPipeError, ConnectionResetError):
                            sent = len(view)  # the program is gone; reading will tell how
                        view = view[sent:]
                        progress = time.monotonic()
                        if not view:
                            selector.unregister(proc.stdin)
                            writing = False
                            if count is None:  # reading to the end: the program needs end of input
                                proc.stdin.close()
        finally:
            selector.close()
        if problem is not None:
            self._stop()
            return lines, problem
        assert count is not None
        rest = lines[count:] + [buffer]
        self._pending = b"\n".join(rest)
        return lines[:count], None
