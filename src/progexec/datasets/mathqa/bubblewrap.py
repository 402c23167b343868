"""Moved to :mod:`progexec.isolation.bwrap`; this name is the same module object, so existing imports keep working.

``from progexec.datasets.mathqa import bubblewrap`` and ``from progexec.datasets.mathqa.bubblewrap import ...``
both give :mod:`progexec.isolation.bwrap` itself (a test that patches ``bubblewrap.status``
patches the one function everyone calls).
"""

from __future__ import annotations

import sys

from ...isolation import bwrap as _bwrap
from ...isolation.bwrap import *  # noqa: F401,F403  (the public names, for type checkers)
from ...isolation.bwrap import (CHILD_ENV, SANDBOX_UID, THIRD_PARTY, Isolation, IsolationUnavailable, Runtime, UidDrop,
                               command, open_seccomp, runtime, status)

__all__ = ["CHILD_ENV", "SANDBOX_UID", "THIRD_PARTY", "Isolation", "IsolationUnavailable", "Runtime",
           "UidDrop", "command", "open_seccomp", "runtime", "status"]

sys.modules[__name__] = _bwrap
