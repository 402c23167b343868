"""The checkers' side of the leash: :mod:`progexec.isolation.leash` under its historical name, plus the ``--python`` child.

The leash itself (bounded output, stderr head and tail, killed process tree, time budget)
lives in the isolation package, shared with the snippet sandbox; this module keeps the
names ``check-rounder``, ``check-evaluator`` and ``check-reward`` import, and adds what is
the checkers' own: the handshake of :mod:`.pychild` and the command that runs it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Optional

from ..isolation.leash import (DEFAULT_CHUNK, DEFAULT_STALL, DEFAULT_TIMEOUT, MAX_NOTES, Answer, ChildExchange,
                               Fault, FaultKind)
from ..isolation.bwrap import PortSandbox, python_sandbox, sandbox_for
from ..core.limits import current
from ..isolation.process import READ_SIZE
from .pychild import READY

__all__ = ["DEFAULT_CHUNK", "DEFAULT_STALL", "DEFAULT_TIMEOUT", "MAX_NOTES", "READY_LINE", "READ_SIZE",
           "Answer", "ChildExchange", "Fault",
           "FaultKind", "PortSandbox", "command_port", "python_child_argv", "python_port"]

READY_LINE: bytes = READY
"""The handshake line of the --python child."""


def _flush_seconds() -> str:
    """The --python child's ``pychild_flush_seconds``, as its last argument."""
    return str(current().pychild_flush_seconds)


def python_child_argv(protocol: str, spec: str) -> list[str]:
    """The command that runs ``MODULE:FUNC`` in a child behind ``protocol`` (see :mod:`.pychild`)."""
    return [sys.executable, str(Path(__file__).with_name("pychild.py")), protocol, spec, _flush_seconds()]


def command_port(argv: Sequence[str], isolate: bool = False,
                 cwd: Optional[str] = None) -> tuple[list[str], Optional[PortSandbox]]:
    """A ``--cmd`` port's command line, and its sandbox under ``--isolate`` (see :func:`~progexec.isolation.bwrap.sandbox_for`)."""
    if not isolate:
        return list(argv), None
    return sandbox_for(argv, cwd)


def python_port(protocol: str, spec: str, isolate: bool = False,
                cwd: Optional[str] = None) -> tuple[list[str], Optional[PortSandbox]]:
    """A ``--python MODULE:FUNC`` port's command line, and its sandbox under ``--isolate``.

    In the sandbox the function's module is found in the working directory (the port's own
    directory, read-only) and the allowed third-party packages (numpy, scipy) are importable.
    """
    if not isolate:
        return python_child_argv(protocol, spec), None
    return python_sandbox(str(Path(__file__).with_name("pychild.py")), [protocol, spec, _flush_seconds()], cwd)
