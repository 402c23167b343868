"""The checkers' side of the leash: :mod:`progexec.isolation.leash` under its historical name, plus the ``--python`` child.

The leash itself (bounded output, stderr head and tail, killed process tree, time budget)
lives in the isolation package, shared with the snippet sandbox; this module keeps the
names ``check-rounder``, ``check-evaluator`` and ``check-reward`` import, and adds what is
the checkers' own: the handshake of :mod:`.pychild` and the command that runs it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..isolation.leash import (DEFAULT_CHUNK, DEFAULT_STALL, DEFAULT_TIMEOUT, EXIT_GRACE, MAX_NOTES, START_TIMEOUT,
                               Answer, ChildExchange, Fault, FaultKind, StartError)
from ..isolation.process import READ_SIZE, STDERR_HEAD, STDERR_MAX, STDERR_TAIL
from .pychild import READY

__all__ = ["DEFAULT_CHUNK", "DEFAULT_STALL", "DEFAULT_TIMEOUT", "EXIT_GRACE", "MAX_NOTES", "READY_LINE", "READ_SIZE",
           "START_TIMEOUT", "STDERR_HEAD", "STDERR_MAX", "STDERR_TAIL", "Answer", "ChildExchange", "Fault",
           "FaultKind", "StartError", "python_child_argv"]

READY_LINE: bytes = READY
"""The handshake line of the --python child."""


def python_child_argv(protocol: str, spec: str) -> list[str]:
    """The command that runs ``MODULE:FUNC`` in a child behind ``protocol`` (see :mod:`.pychild`)."""
    return [sys.executable, str(Path(__file__).with_name("pychild.py")), protocol, spec]
