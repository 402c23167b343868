"""The progress line on stderr: a total or percent and an ETA whenever the input's size is known.

Known size: the bytes read of the input files (compressed bytes of a gzip file's size, as tqdm shows
a file; :mod:`progexec.inputmeter`), or a count of items or cases known up front (``score``'s
predictions, a check's suite). Unknown size (standard input, a pipe): a count and a rate. Shown only
when stderr is a terminal (or when forced with ``--progress``), never with ``--no-progress``; the line
is redrawn at most every ``progress_refresh_seconds`` (a ``Limits`` field), and once more, final, when the work ends, so what it
says last does not depend on the machine's speed.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from .. import inputmeter
from ..core.limits import current



def _bytes(count: float) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count:.0f} B"


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


def _eta(fraction: float, elapsed: float) -> str:
    if fraction >= 1.0:
        return "ETA 0s"
    if fraction <= 0.0:
        return "ETA ?"
    return f"ETA {_duration(elapsed * (1.0 - fraction) / fraction)}"


def progress_line(label: str, done: int, elapsed: float, total: int | None = None, read: int | None = None,
                  size: int | None = None) -> str:
    """The line for ``done`` items after ``elapsed`` seconds: with the bytes ``read`` of ``size`` when the
    input files' size is known, else of ``total`` items when known, else a count and a rate."""
    rate = f"{done / elapsed:,.0f}/s" if elapsed > 0 else "-/s"
    if size is not None and read is not None:
        fraction = min(read / size, 1.0) if size > 0 else 1.0
        return (f"{label}: {done:,} · {_bytes(read)} of {_bytes(size)} ({fraction:.0%}, {rate}, "
                f"{_eta(fraction, elapsed)})")
    if total:
        fraction = min(done / total, 1.0)
        return f"{label}: {done:,}/{total:,} ({fraction:.0%}, {rate}, {_eta(fraction, elapsed)})"
    return f"{label}: {done:,} ({rate}, {_duration(elapsed)})"


class Progress:
    """The progress line of one command: only on a terminal (or when forced), never when piped."""

    def __init__(self, total: int | None, label: str, enabled: bool | None = None,
                 inputs: Iterable[str | Path] | None = None, stream: TextIO | None = None) -> None:
        self.total, self.label = total, label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.size = inputmeter.size_of(inputs) if inputs is not None and self.enabled else None
        self.started = time.monotonic()
        self.last = self.started  # the first line after progress_refresh_seconds: a rate over more than start-up
        self.done = 0

    def line(self) -> str:
        """The line as it stands now."""
        read = inputmeter.bytes_read() if self.size is not None else None
        return progress_line(self.label, self.done, time.monotonic() - self.started, self.total, read, self.size)

    def update(self, done: int) -> None:
        self.done = done
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.last < current().progress_refresh_seconds:
            return
        self.last = now
        self._draw()

    def _draw(self) -> None:
        print(f"\r{self.line()}\033[K", end="", file=self.stream, flush=True)

    def close(self) -> None:
        """The final line (what was done in all), then a newline."""
        if self.enabled:
            self._draw()
            print(file=self.stream, flush=True)
            self.enabled = False


__all__ = ["Progress", "progress_line"]
