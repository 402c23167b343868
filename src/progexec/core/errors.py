"""The root of every error progexec raises, and its three kinds, so callers can catch by what went wrong.

* :class:`InputError` — an input that cannot be used (a file, a record, a program text, a gold record, a
  request body); it carries where as attributes (``source``, ``line``, ``field``) and, when judged, what it
  is (``seen``), what was wanted (``expected``) and the bound it reached (``bound``).
* :class:`OptionError` — an option, argument or setting that names nothing known (a dialect, a limit, a
  scorer, a format, an engine).
* :class:`SetupError` — the machine lacks what the work needs (the sandbox, an embedded corpus, an extra).

Exceptions that do not derive from these are programming errors (an op without semantics, an oracle that
contradicts itself).
"""

from __future__ import annotations


class ProgexecError(Exception):
    """Base class of every error the progexec package raises on purpose."""


class InputError(ProgexecError, ValueError):
    """An input that cannot be used; exit 2 on the command line. Besides its one-line message it carries
    where and why as attributes: ``source`` (the file or input name), ``line`` (1-based line or record),
    ``field`` (the record's field), ``seen`` (what the input is), ``expected`` (what was wanted) and
    ``bound`` (the ``Limits`` field reached). A subclass may set any of them before calling this."""

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None,
                 field: str | None = None, seen: str | None = None, expected: str | None = None,
                 bound: str | None = None) -> None:
        super().__init__(message)
        given = {"source": source, "line": line, "field": field, "seen": seen, "expected": expected, "bound": bound}
        for name, value in given.items():
            setattr(self, name, value if value is not None else getattr(self, name, None))


class OptionError(ProgexecError, ValueError):
    """An option, argument or setting that names nothing known or is out of range; exit 2."""


class SetupError(ProgexecError, RuntimeError):
    """The machine lacks what the work needs (bubblewrap, an embedded corpus, an optional extra); exit 2."""


__all__ = ["ProgexecError", "InputError", "OptionError", "SetupError"]
