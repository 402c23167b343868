"""Files rendered from one model side by side: all but the last in forked processes, the last in this one.

A ``--jobs`` run's report is written after every item is analysed, so its renderers are the serial tail of the
run; forked processes share the model without copying it or pickling it, and each writes exactly what this
process would. Without :func:`~progexec.parallel.fork_is_safe` (another system, or a threaded process), the
files are written one after the other here.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from ..parallel import fork_is_safe

M = TypeVar("M")

Writer = Callable[[M, Path], object]


def write_all(model: M, writers: Sequence[tuple[Writer[M], Path]], side_by_side: bool) -> None:
    """Write ``model`` with each writer to its path; raise :class:`OSError` (the first failure's message) when a
    file cannot be written: one after the other, at the first failure; side by side, once every writer is done."""
    if not side_by_side or len(writers) < 2 or not fork_is_safe():
        for writer, path in writers:
            writer(model, path)
        return
    for stream in (sys.stdout, sys.stderr):  # a forked writer must not write what was buffered here
        stream.flush()
    children = [_fork(writer, model, path) for writer, path in writers[:-1]]
    try:
        writers[-1][0](model, writers[-1][1])
    finally:
        failures = [message for message in map(_reaped, children) if message is not None]
    if failures:
        raise OSError(failures[0])


def _fork(writer: Writer[M], model: M, path: Path) -> tuple[int, int]:
    """A child that writes one file and exits (1, with the error on its pipe, when it cannot)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: write, report, and leave without running this process's exit handlers
        os.close(read_end)
        code = 0
        try:
            writer(model, path)
        except BaseException as error:  # noqa: BLE001  (any failure is reported to the parent, never lost)
            os.write(write_end, (str(error) if isinstance(error, OSError) else f"{type(error).__name__}: {error}")
                     .encode("utf-8", "replace") or b"the writer failed")
            code = 1
        os._exit(code)
    os.close(write_end)
    return pid, read_end


def _reaped(child: tuple[int, int]) -> str | None:
    """The child's error message, or None when it wrote its file."""
    pid, read_end = child
    with os.fdopen(read_end, "rb") as pipe:
        message = pipe.read().decode("utf-8", "replace")
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) == 0:
        return None
    return message or f"the writer of a file exited with status {os.waitstatus_to_exitcode(status)}"


__all__ = ["write_all"]
