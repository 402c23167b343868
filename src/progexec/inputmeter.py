"""How far the command has read its input files: the bytes read of their total size, as tqdm shows a file.

Every file :func:`progexec.textsource.open_source` opens is watched here; its position in the file (the
compressed position for gzip: compressed bytes read of the file's size) is asked only when a progress
line is drawn, so reading costs nothing more. Standard input and pipes have no size: then a progress
line shows a count and a rate instead.
"""

from __future__ import annotations

import os
import stat
import weakref
from collections.abc import Iterable
from pathlib import Path
from typing import Any

_OPEN: weakref.WeakValueDictionary[int, Any] = weakref.WeakValueDictionary()
_DONE = [0]
"""Bytes read of the files already closed, since the last :func:`reset`."""


def opened(handle: Any) -> None:
    """Watch a file just opened for reading (its raw handle: its position is the bytes read of it)."""
    _OPEN[id(handle)] = handle


def closed(handle: Any) -> None:
    """The file is done with: what was read of it stays counted."""
    if _OPEN.pop(id(handle), None) is not None:
        _DONE[0] += _position(handle)


def reset() -> None:
    """Count from zero: files closed before are forgotten (a file already open counts from its start)."""
    _DONE[0] = 0


def bytes_read() -> int:
    """Bytes read of the watched files so far."""
    return _DONE[0] + sum(_position(handle) for handle in list(_OPEN.values()))


def _position(handle: Any) -> int:
    try:
        return 0 if handle.closed else handle.tell()
    except (OSError, ValueError):
        return 0


def size_of(sources: Iterable[str | Path]) -> int | None:
    """The total size in bytes of input files, or None when one has no size (``-``, a pipe, a corpus name)."""
    total = 0
    for source in sources:
        if str(source) == "-":
            return None
        try:
            info = os.stat(source)
        except OSError:
            return None
        if not stat.S_ISREG(info.st_mode):
            return None
        total += info.st_size
    return total


__all__ = ["bytes_read", "closed", "opened", "reset", "size_of"]
