"""Caches bounded by the bytes they hold: every cache a long-lived process keeps (``serve``, ``reward``, an RL run).

A count bound lets memory grow with the size of what is cached (one 191-step program holds about
70 KB compiled); a byte bound does not. Each entry's size is an *estimate* computed from what the
caller knows about it (a program's steps and text length, a key's characters, a gold's table
cells), never from ``sys.getsizeof`` walks, so it is the same on every Python version and machine,
and what is kept, and so how long a run takes, never depends on them. Every bound is a field of
:class:`progexec.Limits` read at insertion, so ``--limit NAME=0`` turns a cache off. A cache never
changes an answer: it only saves recomputing one.

:class:`ByteCache` is the store (the oldest entry is dropped first while the total is over the
bound; a lookup is one dictionary operation, an insertion holds a lock); :func:`memo` wraps a
function of hashable positional arguments, replacing ``functools.lru_cache(maxsize=N)``.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Hashable
from typing import Any, Generic, Protocol, TypeVar, cast

from .limits import current

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)

ENTRY_OVERHEAD = 200
"""Bytes counted for any entry besides its contents: the dictionary slot, the key tuple, the value's header."""

CHAR_BYTES = 2
"""Bytes counted per character of a key or value text (most are ASCII: 1 byte, plus object overhead)."""

__all__ = ["CHAR_BYTES", "ENTRY_OVERHEAD", "ByteCache", "Memo", "memo", "text_size"]


def text_size(*texts: str) -> int:
    """The estimated bytes of an entry holding these texts (its key's, and a small value)."""
    return ENTRY_OVERHEAD + CHAR_BYTES * sum(map(len, texts))


class ByteCache(Generic[K, V]):
    """Values by key, at most ``max_bytes`` of estimated size in all (and ``max_entries`` of them, when given);
    the oldest entry is dropped first. ``entries`` is the plain dictionary (a lookup needs no lock)."""

    def __init__(self) -> None:
        self.entries: dict[K, V] = {}
        self.sizes: dict[K, int] = {}
        self.total = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.entries)

    def put(self, key: K, value: V, size: int, max_bytes: int, max_entries: int | None = None) -> bool:
        """Keep ``value`` (estimated at ``size`` bytes) unless it alone is over the bound; says whether it is kept."""
        if size > max_bytes or max_entries == 0:
            return False
        with self._lock:
            if key in self.entries:
                return True
            sizes = self.sizes
            if key in sizes:  # its entry was dropped from ``entries`` directly: count it afresh
                self.total -= sizes.pop(key)
            if self.total + size > max_bytes or (max_entries is not None and len(sizes) >= max_entries):
                self._make_room(size, max_bytes, max_entries)
            self.entries[key] = value
            sizes[key] = size
            self.total += size
        return True

    def _make_room(self, size: int, max_bytes: int, max_entries: int | None) -> None:
        """Drop the oldest entries until one of ``size`` bytes fits (the caller holds the lock)."""
        while self.sizes and (self.total + size > max_bytes
                              or (max_entries is not None and len(self.sizes) >= max_entries)):
            oldest = next(iter(self.sizes))
            self.total -= self.sizes.pop(oldest)
            self.entries.pop(oldest, None)

    def clear(self) -> None:
        with self._lock:
            self.entries.clear()
            self.sizes.clear()
            self.total = 0


class Memo(Protocol[R_co]):
    """A memoised function (see :func:`memo`): called as the function; ``cache`` holds its entries."""

    cache: ByteCache[tuple[Any, ...], Any]

    def __call__(self, *args: Any) -> R_co: ...

    def cache_clear(self) -> None:
        """Forget every entry (as ``functools.lru_cache``'s, for benchmarks that time cold runs)."""


def memo(bound: str, size: Callable[[tuple[Any, ...], Any], int] | None = None) -> Callable[[Callable[..., R]], Memo[R]]:
    """Decorate a function of hashable positional arguments: its results kept within the ``Limits`` field
    ``bound`` (bytes); ``size`` estimates one entry from the arguments and the result (default: :func:`text_size`
    of the arguments that are text). A hit is one dictionary look-up, as in ``functools.lru_cache``."""
    def decorate(function: Callable[..., R]) -> Memo[R]:
        cache: ByteCache[tuple[Any, ...], R] = ByteCache()
        look_up = cache.entries.get  # the dictionary is cleared in place, never replaced
        missing = object()

        @functools.wraps(function)
        def memoised(*args: Any) -> R:
            found = look_up(args, missing)
            if found is not missing:
                return cast(R, found)
            value = function(*args)
            if size is None:  # text_size of the arguments that are text, inline: a miss is the cold path's cost
                estimate = ENTRY_OVERHEAD
                for arg in args:
                    if isinstance(arg, str):
                        estimate += CHAR_BYTES * len(arg)
            else:
                estimate = size(args, value)
            cache.put(args, value, estimate, getattr(current(), bound))
            return value

        setattr(memoised, "cache", cache)
        setattr(memoised, "cache_clear", cache.clear)
        return cast(Memo[R], memoised)
    return decorate
