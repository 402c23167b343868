"""The error of a malformed program text (raised by :mod:`progexec.grammar`, carried by an Execution)."""

from __future__ import annotations

from .errors import InputError


class ProgramSyntaxError(InputError):
    """Malformed program text, with the position and a caret excerpt."""

    def __init__(self, message: str, text: str, line: int, column: int) -> None:
        self.message = message
        self.text = text
        self.line = line
        self.column = column
        super().__init__(f"{message} at line {line}, column {column}\n{self.excerpt()}")

    def excerpt(self) -> str:
        """The offending line with a caret under the column."""
        lines = self.text.splitlines() or [""]
        source = lines[min(self.line, len(lines)) - 1]
        start = max(0, self.column - 40)
        shown = source[start:self.column + 40]
        return f"  {shown}\n  {' ' * (self.column - 1 - start)}^"


class ProgramTooLongError(ProgramSyntaxError):
    """The program text is longer than MAX_PROGRAM_CHARS (refused before parsing: bounded work)."""


__all__ = ["ProgramSyntaxError", "ProgramTooLongError"]
