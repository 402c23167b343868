"""The root of every error progexec raises, and its three kinds, so callers can catch by what went wrong.

* :class:`InputError` — an input that cannot be used (a file, a record, a program text, a gold record, a
  request body); it carries where as attributes (``source``, ``line``, ``field``) and, when judged, what it
  is (``seen``), what was wanted (``expected``) and the bound it reached (``bound``).
* :class:`OptionError` — an option, argument or setting that names nothing known (a dialect, a limit, a
  scorer, a format, an engine).
* :class:`SetupError` — the machine lacks what the work needs (the sandbox, an embedded corpus, an extra,
  a child program that cannot start).
* :class:`OfficialAbort` — an official scorer would stop with a traceback on this input; the scorers turn
  it into a status.

Every error carries its ``kind`` (``input``, ``option``, ``setup``, ``official``, ``internal``...) as an
attribute, so a caller that logs or counts errors need not test their types. A :class:`ProgexecError` of
kind ``internal`` is a programming error (an op without semantics, an oracle that contradicts itself).
The package keeps few exception types on purpose: one per way a caller reacts, not one per module.
Besides these, ``ProgramSyntaxError`` (an ``InputError`` with the position), the arithmetic's
``Refusal`` (a value that cannot be produced, with its status), the server's HTTP refusal, and two
interrupts that are ``BaseException`` on purpose so that no ``except Exception`` on the way can swallow
them: ``limits.ItemTimeLimitExceeded`` (the per-item clock) and the equivalence scorer's request to
load sympy outside the clock.
"""

from __future__ import annotations


class ProgexecError(Exception):
    """Base class of every error the progexec package raises on purpose; ``kind`` says which kind."""

    kind: str = "internal"

    def __init__(self, *args: object, kind: str | None = None) -> None:
        super().__init__(*args)
        if kind is not None:
            self.kind = kind


class InputError(ProgexecError, ValueError):
    """An input that cannot be used; exit 2 on the command line. Besides its one-line message it carries
    where and why as attributes: ``source`` (the file or input name), ``line`` (1-based line or record),
    ``field`` (the record's field), ``seen`` (what the input is), ``expected`` (what was wanted) and
    ``bound`` (the ``Limits`` field reached). A subclass may set any of them before calling this."""

    kind = "input"
    source: str | None
    line: int | None
    field: str | None
    seen: str | None
    expected: str | None
    bound: str | None

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None,
                 field: str | None = None, seen: str | None = None, expected: str | None = None,
                 bound: str | None = None, kind: str | None = None) -> None:
        super().__init__(message, kind=kind)
        given = {"source": source, "line": line, "field": field, "seen": seen, "expected": expected, "bound": bound}
        for name, value in given.items():
            setattr(self, name, value if value is not None else getattr(self, name, None))


class ProgramSyntaxError(InputError):
    """Malformed program text (or token list, joined by spaces), with the position and a caret excerpt;
    ``bound`` is ``max_program_chars`` when the text was refused for its length before parsing."""

    line: int

    def __init__(self, message: str, text: str, line: int, column: int, *, bound: str | None = None) -> None:
        self.message = message
        self.text = text
        self.line = line
        self.column = column
        super().__init__(f"{message} at line {line}, column {column}\n{self.excerpt()}", bound=bound)

    def excerpt(self) -> str:
        """The offending line with a caret under the column."""
        lines = self.text.splitlines() or [""]
        source = lines[min(self.line, len(lines)) - 1]
        start = max(0, self.column - 40)
        shown = source[start:self.column + 40]
        return f"  {shown}\n  {' ' * (self.column - 1 - start)}^"


class OptionError(ProgexecError, ValueError):
    """An option, argument or setting that names nothing known or is out of range, or a command line whose
    input cannot be used; exit 2 with its one-line message."""

    kind = "option"


class SetupError(ProgexecError, RuntimeError):
    """The machine lacks what the work needs (bubblewrap, an embedded corpus, an optional extra, a program
    that cannot be started); exit 2."""

    kind = "setup"


class OfficialAbort(ProgexecError, ValueError):
    """An official scorer raises on this input (its run would stop with a traceback, or its ``try`` gives up);
    ``kind`` may name why (a scorer's own reason code)."""

    kind = "official"


__all__ = ["ProgexecError", "InputError", "OptionError", "SetupError", "OfficialAbort", "ProgramSyntaxError"]
