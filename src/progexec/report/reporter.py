"""The reporter protocol: a reporter turns one run model into one output format, as coverage.py's do.

Each format of each job is one reporter with a ``report_type`` (``json``, ``markdown``, ``html``,
``text``, ``jsonl``) and a ``report(model, outfile)`` method writing the whole output to a text
stream; :func:`render` and :func:`write` are the two ways every command and notebook uses them.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Protocol, TextIO, TypeVar

ModelT = TypeVar("ModelT", contravariant=True)


class Reporter(Protocol[ModelT]):
    """One output format of one run model."""

    @property
    def report_type(self) -> str:
        """The format's name: ``json``, ``jsonl``, ``markdown``, ``html`` or ``text``."""
        ...

    def report(self, model: ModelT, outfile: TextIO) -> None:  # pragma: no cover - protocol
        """Write the whole output for ``model`` to ``outfile``."""
        ...


def render(reporter: Reporter[ModelT], model: ModelT) -> str:
    """The reporter's output for ``model`` as one string."""
    buffer = io.StringIO()
    reporter.report(model, buffer)
    return buffer.getvalue()


def write(reporter: Reporter[ModelT], model: ModelT, path: str | Path) -> Path:
    """Write the reporter's output for ``model`` to ``path`` (UTF-8, ``\\n`` line ends); return the path."""
    target = Path(path)
    with open(target, "w", encoding="utf-8", newline="\n") as handle:
        reporter.report(model, handle)
    return target
