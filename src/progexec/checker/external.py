"""The external-program protocol of ``check-rounder --cmd``.

The program reads lines ``<x as float.hex()> <ndigits>`` on stdin and writes one answer line per
input line, in order (a ``float.hex()`` string or a decimal literal), flushing after each line.
Cases go out in chunks; within a chunk the checker writes and reads at the same time through
non-blocking pipes and one ``selectors`` loop, so neither side can fill a pipe and wait on the
other: it never deadlocks. Each chunk has a deadline. A program that exits early, hangs past the
deadline (it is killed) or answers something that is not a float is reported case by case as a
:class:`~progexec.checker.classify.Failure`; it is restarted for the next chunk, at most
``max_restarts`` times, after which the remaining cases are marked unanswered without running.
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
MAX_NOTES = 20


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
    """An answerer backed by a long-running external program (see the module docstring)."""

    def __init__(self, argv: Sequence[str], timeout: float = DEFAULT_TIMEOUT, chunk: int = DEFAULT_CHUNK,
                 max_restarts: int = 3, cwd: Optional[str] = None) -> None:
        if not argv:
            raise ValueError("empty command")
        self.argv, self.timeout, self.chunk = list(argv), timeout, max(1, chunk)
        self.max_restarts, self.cwd = max_restarts, cwd
        self.notes: list[str] = []
        self.failures = 0
        self._proc: Optional[subprocess.Popen[bytes]] = None
        self._stderr: Optional[IO[bytes]] = None
        self._pending = b""
        self._gave_up = False

    # -- life cycle ---------------------------------------------------------------------------
    def start(self) -> None:
        """Start the program; ``OSError`` if it cannot be started (a usage error for the CLI)."""
        self._stderr = tempfile.TemporaryFile()
        self._proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=self._stderr, cwd=self.cwd, bufsize=0)
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

    def _stop(self) -> Optional[int]:
        """Kill (if needed) and reap the program; its exit code."""
        proc, self._proc = self._proc, None
        if proc is None:
            return None
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        if proc.poll() is None:
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
        proc = self._proc
        if proc is None:
            return
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.close()
        except OSError:
            pass
        extra = self._pending
        deadline = time.monotonic() + self.timeout
        with selectors.DefaultSelector() as selector:
            selector.register(proc.stdout, selectors.EVENT_READ)
            while time.monotonic() < deadline:
                if not selector.select(max(0.0, deadline - time.monotonic())):
                    break
                data = os.read(proc.stdout.fileno(), 65536)
                if not data:
                    break
                extra += data
        if extra.strip():
            self._note(f"{len(extra.splitlines())} answer line(s) beyond the last case")
        try:
            code = proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self._note(f"the program did not exit within {self.timeout:g}s after end of input; killed")
        else:
            if code != 0:
                self._note(f"the program exited with code {code} at end of input{self._stderr_tail()}")
        self._stop()

    # -- answering ----------------------------------------------------------------------------
    def __call__(self, xs: Sequence[float], ns: Sequence[int]) -> list[object]:
        out: list[object] = []
        for start in range(0, len(xs), self.chunk):
            out.extend(self._answer_chunk(xs[start:start + self.chunk], ns[start:start + self.chunk]))
        return out

    def _answer_chunk(self, xs: Sequence[float], ns: Sequence[int]) -> list[object]:
        if self._gave_up:
            return [Failure(Divergence.NO_ANSWER, "not run: the program failed too often")] * len(xs)
        if self._proc is None:
            self.start()
        payload = "".join(f"{x.hex()} {n}\n" for x, n in zip(xs, ns)).encode("ascii")
        lines, problem = self._exchange(payload, len(xs))
        answers: list[object] = [parse_answer(line) for line in lines]
        if problem is not None:
            self.failures += 1
            self._note(problem)
            answers += [Failure(Divergence.NO_ANSWER, problem)] * (len(xs) - len(lines))
            if self.failures > self.max_restarts:
                self._gave_up = True
                self._note(f"gave up after {self.failures} failures; the remaining cases were not run")
        return answers

    def _exchange(self, payload: bytes, count: int) -> tuple[list[bytes], Optional[str]]:
        """Write ``payload`` while reading answers; (answer lines, None) or (lines so far, problem)."""
        proc = self._proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        buffer, lines, view = self._pending, [], memoryview(payload)
        deadline = time.monotonic() + self.timeout
        selector = selectors.DefaultSelector()
        selector.register(proc.stdout, selectors.EVENT_READ)
        writing = bool(view)
        if writing:
            selector.register(proc.stdin, selectors.EVENT_WRITE)
        problem: Optional[str] = None
        try:
            while True:
                *complete, buffer = buffer.split(b"\n")
                lines.extend(complete)
                if len(lines) >= count:
                    break
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    problem = (f"no answer within {self.timeout:g}s ({len(lines)} of {count} answers in this "
                               f"chunk): the program hangs; killed")
                    break
                for key, _ in selector.select(remaining):
                    if key.fileobj is proc.stdout:
                        data = os.read(proc.stdout.fileno(), 65536)
                        if not data:
                            code = proc.wait()
                            problem = (f"the program exited with code {code} after {len(lines)} of {count} "
                                       f"answers in this chunk{self._stderr_tail()}")
                            break
                        buffer += data
                    elif writing:
                        try:
                            sent = os.write(proc.stdin.fileno(), view[:65536])
                        except BlockingIOError:
                            continue
                        except (BrokenPipeError, ConnectionResetError):
                            sent, view = 0, view[len(view):]
                        view = view[sent:]
                        if not view:
                            selector.unregister(proc.stdin)
                            writing = False
                if problem is not None:
                    break
        finally:
            selector.close()
        if problem is not None:
            self._stop()
            self._pending = b""
            return lines[:count], problem
        self._pending = b"\n".join(lines[count:] + [buffer]) if len(lines) > count else buffer
        return lines[:count], None
