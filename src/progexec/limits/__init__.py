"""The former path of :mod:`progexec.core.limits`, kept for callers of ``progexec.limits.using`` and friends.

Deprecated: import from :mod:`progexec.core.limits` (or use ``progexec.Limits``). Every name, public or not,
is the one of :mod:`progexec.core.limits` itself (the same objects, not copies).
"""

from __future__ import annotations

import warnings
from typing import Any

from ..core import limits as _limits
from ..core.limits import *  # noqa: F401,F403  (the public names, for ``from progexec.limits import using``)
from ..core.limits import __all__ as __all__  # noqa: F401


def __getattr__(name: str) -> Any:
    """Any other name of :mod:`progexec.core.limits` (its private helpers), with a deprecation warning."""
    warnings.warn("progexec.limits is progexec.core.limits now", DeprecationWarning, stacklevel=2)
    return getattr(_limits, name)
