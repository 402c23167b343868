"""What every confined child shares: its process group killed, its output bounded, its stderr kept as head and tail, a deadline.

The leash (:mod:`.leash`, the checkers' line-for-line ports) and the snippet sandbox
(:mod:`progexec.datasets.mathqa.sandbox`) both stop a child, read its output and quote its stderr
through these functions, so a bound means the same thing in both.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import time
from dataclasses import dataclass
from enum import Enum
from typing import IO, Optional
from ..core.limits import current, DEFAULT_LIMITS
from ..core.plural import plural

READ_SIZE = DEFAULT_LIMITS.pipe_read_bytes
"""Bytes asked of a pipe per read."""


class Bound(str, Enum):
    """Which bound stopped a bounded read."""

    TIME = "time"
    SIZE = "size"


class Deadline:
    """A point on the monotonic clock; ``None`` seconds is no deadline."""

    def __init__(self, seconds: Optional[float]) -> None:
        self.at = None if seconds is None else time.monotonic() + seconds

    @classmethod
    def at_time(cls, when: float) -> Deadline:
        """The deadline at monotonic time ``when``."""
        deadline = cls(None)
        deadline.at = when
        return deadline

    def remaining(self) -> Optional[float]:
        """Seconds left (never negative), None without a deadline."""
        return None if self.at is None else max(0.0, self.at - time.monotonic())

    @property
    def expired(self) -> bool:
        return self.at is not None and time.monotonic() >= self.at


class StderrCapture:
    """A child's stderr, fed chunk by chunk: its first ``head`` and last ``tail`` bytes, read up to ``cap`` bytes.

    Memory is bounded by ``head + tail`` whatever the child writes; :meth:`text` quotes both
    ends with the count of bytes left out between them.
    """

    def __init__(self, head: int | None = None, tail: int | None = None, cap: int | None = None) -> None:
        limits = current()  # the bounds in force when the child starts (stderr_head_bytes, ...)
        self.head_size = limits.stderr_head_bytes if head is None else head
        self.tail_size = limits.stderr_tail_bytes if tail is None else tail
        self.cap = limits.stderr_max_bytes if cap is None else cap
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0
        self.capped = False

    def feed(self, data: bytes) -> bool:
        """Keep ``data``'s share; False once ``cap`` bytes were read (stop reading this stream)."""
        self.total += len(data)
        room = self.head_size - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if data:
            self.tail += data
            del self.tail[:-self.tail_size]
        if self.total > self.cap:
            self.capped = True
        return not self.capped

    @property
    def omitted(self) -> int:
        """Bytes read but kept neither in the head nor in the tail."""
        return self.total - len(self.head) - len(self.tail)

    def text(self) -> str:
        """Head and tail, decoded, with a marker where bytes were left out between them; stripped."""
        head = bytes(self.head).decode("utf-8", errors="replace")
        tail = bytes(self.tail).decode("utf-8", errors="replace")
        if self.omitted:
            return f"{head}\n[... {plural(self.omitted, 'byte', grouped=True)} of stderr left out ...]\n{tail}".strip()
        return (head + tail).strip()

    def drain(self, stream: IO[bytes], seconds: float = 0.2) -> None:
        """Read what ``stream`` still holds (a child that just exited) until end of file, the cap or ``seconds``."""
        if stream.closed or self.capped:
            return
        deadline = Deadline(seconds)
        with selectors.DefaultSelector() as selector:
            selector.register(stream, selectors.EVENT_READ)
            while not deadline.expired:
                if not selector.select(deadline.remaining()):
                    return
                data = read_ready(stream)
                if data is None:
                    continue
                if not data or not self.feed(data):
                    return


def read_ready(stream: IO[bytes]) -> Optional[bytes]:
    """One read of a non-blocking or ready pipe: the bytes (``b""`` at end of file), None when nothing is there yet."""
    try:
        return os.read(stream.fileno(), current().pipe_read_bytes)
    except BlockingIOError:
        return None
    except OSError:
        return b""


def read_bounded(stream: IO[bytes], deadline: Deadline, cap: int) -> tuple[bytes, Optional[Bound]]:
    """Read ``stream`` until end of file, the deadline or more than ``cap`` bytes; the bound that stopped it, if any."""
    chunks: list[bytes] = []
    size = 0
    with selectors.DefaultSelector() as selector:
        selector.register(stream, selectors.EVENT_READ)
        while True:
            remaining = deadline.remaining()
            if remaining is not None and remaining <= 0:
                return b"".join(chunks), Bound.TIME
            if not selector.select(remaining):
                continue
            chunk = read_ready(stream)
            if chunk is None:
                continue
            if not chunk:
                return b"".join(chunks), None
            chunks.append(chunk)
            size += len(chunk)
            if size > cap:
                return b"".join(chunks), Bound.SIZE


def kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the child's process group (its session: it was started with ``start_new_session``) and the child."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.kill()
    except ProcessLookupError:
        pass


@dataclass(frozen=True, slots=True)
class ExitStatus:
    """How a child ended: its exit code, or the signal that killed it."""

    code: Optional[int]

    def describe(self) -> str:
        """``exit code 1``, ``killed by SIGSEGV``, or ``still running``."""
        if self.code is None:
            return "still running"
        number = -self.code if self.code < 0 else self.code - 128 if 128 < self.code < 128 + 65 else None
        if number is not None:
            try:
                name = signal.Signals(number).name
            except ValueError:
                name = f"signal {number}"
            return f"killed by {name}" if self.code < 0 else f"exit code {self.code} ({name})"
        return f"exit code {self.code}"

    def phrase(self) -> str:
        """The same as a verb phrase: ``exited with code 1``, ``was killed by SIGSEGV``, ``ended``."""
        text = self.describe()
        if text.startswith("killed"):
            return "was " + text
        return "exited with code " + text[len("exit code "):] if text.startswith("exit code") else "ended"


def close_streams(process: subprocess.Popen[bytes]) -> None:
    """Close the parent's ends of the child's pipes (errors ignored)."""
    for stream in (process.stdin, process.stdout, process.stderr):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass


def escaped_text(text: str, limit: int) -> str:
    """A child's text cut to ``limit`` characters with lone surrogates escaped, so printing or encoding it can
    never fail (a child's ``raise ValueError('\\ud800')`` must not end the run that reads it)."""
    return text[:limit * 2].encode("utf-8", "backslashreplace").decode("utf-8")[:limit]


def result_number(raw: object) -> float | None:
    """A number a child reported in JSON: a number, or one of the strings ``inf``, ``-inf``, ``nan``; None for
    anything else (a bool, an integer beyond float64, other text)."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, float):
        return raw
    if isinstance(raw, int):
        try:
            return float(raw)
        except OverflowError:
            return None
    if isinstance(raw, str) and raw in ("inf", "-inf", "nan"):
        return float(raw)
    return None
