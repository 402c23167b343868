"""The error of a malformed program text (raised by :mod:`progexec.grammar`, carried by an Execution): the one
:class:`~progexec.core.errors.ProgramSyntaxError`, named here too for the modules that import it from here. A text
refused for its length before parsing is the same error with ``bound="max_program_chars"``."""

from __future__ import annotations

from .errors import ProgramSyntaxError

__all__ = ["ProgramSyntaxError"]
