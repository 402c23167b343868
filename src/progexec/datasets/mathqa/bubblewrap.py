"""Moved to :mod:`progexec.isolation.bwrap`; kept so that existing imports work: every name read here is
read from that module at the time it is read (``bubblewrap.status()`` is ``bwrap.status()``, and a test
that patches the function patches ``progexec.isolation.bwrap``). New code imports the new module."""

from __future__ import annotations

from typing import Any

from ...isolation import bwrap as _bwrap


def __getattr__(name: str) -> Any:
    return getattr(_bwrap, name)


def __dir__() -> list[str]:
    return dir(_bwrap)
