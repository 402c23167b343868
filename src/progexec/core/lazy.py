"""A package's public names loaded on first use (PEP 562), so that importing the package costs nothing."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Collection, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(package: str, names: Mapping[str, str], submodules: Collection[str] = ()) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package``: a name of ``names`` is taken from the module it maps to (relative
    to the package) and kept in the package; a name of ``submodules`` is that submodule."""
    def __getattr__(name: str) -> Any:
        if name in submodules:
            return importlib.import_module(f"{package}.{name}")
        if name in names:
            value = getattr(importlib.import_module(names[name], package), name)
            setattr(sys.modules[package], name, value)
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    return __getattr__
