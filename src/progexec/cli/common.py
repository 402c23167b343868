"""Shared CLI pieces: exit codes, JSON output helpers, progress on stderr."""

from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path
from typing import Any, TextIO

EXIT_OK = 0
EXIT_DIVERGENCE = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3


class UsageError(Exception):
    """Bad arguments or unusable input: exit 2 with a one-line message."""


def internal_error(error: BaseException) -> int:
    print(f"progexec: internal error: {type(error).__name__}: {error} (rerun with --debug for a traceback)",
          file=sys.stderr)
    return EXIT_INTERNAL


def json_number(value: Any) -> Any:
    """A value JSON can carry: finite floats as numbers, inf/nan as strings, bools as yes/no."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, complex):
        return repr(value)
    return value


def dumps(record: dict[str, Any]) -> str:
    """One deterministic JSON line."""
    return json.dumps(record, ensure_ascii=False, allow_nan=False)


def open_output(path: str | None) -> TextIO:
    """``--out FILE`` or standard output."""
    if path is None or path == "-":
        return sys.stdout
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        return open(path, "w", encoding="utf-8", newline="\n")
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error}") from None


class Progress:
    """A progress line on stderr for long batches (only when stderr is a terminal or forced)."""

    def __init__(self, total: int, label: str, enabled: bool | None = None) -> None:
        self.total, self.label = total, label
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.started = time.monotonic()
        self.last = 0.0

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.last < 0.2 and done < self.total:
            return
        self.last = now
        print(f"\r{self.label}: {done}/{self.total} ({now - self.started:.1f}s)", end="", file=sys.stderr)

    def close(self) -> None:
        if self.enabled:
            print(file=sys.stderr)
