"""The one unit of work every command and adapter passes along: :class:`Item`.

An Item is one program to run, with whatever its source says about it: the table, the gold
answer, the dataset (its :class:`~progexec.core.dataset.Dataset` record, resolved once by the reader), and for MathQA the problem record
(text and options). Readers (:mod:`progexec.readers`) make Items; the runner
(:mod:`progexec.runner`) turns each into an :class:`~progexec.core.execution.Execution`.
Nothing is dropped: an input that cannot be used is still an Item, with ``error`` set.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .dataset import Dataset
from .table import Table


@dataclass(frozen=True, slots=True)
class Item:
    """One program and its context. ``program`` is text or an official token list; ``error`` marks bad input.

    ``source`` says where the item came from (``"line 7"``, ``"item 12"``, ``"finqa test 3"``);
    ``answer`` is the dataset's textual answer (FinQA ``qa.answer``) when it has one; ``record``
    is the MathQA problem record (``Problem``, ``options``, ``correct``) for a MathQA item.
    """

    id: str
    program: str | list[str] | None
    table: Table | None = None
    gold: float | str | None = None
    has_gold: bool = False
    error: str | None = None
    source: str = ""
    answer: str | None = None
    record: Mapping[str, Any] | None = None
    dialect: Dataset = field(kw_only=True)
    """The item's dataset record (``item.dialect.name`` is its name): resolved once, where the item is read."""

    @property
    def program_text(self) -> str:
        """The program as one line of text (a token list joined by spaces), for reports."""
        if isinstance(self.program, str):
            return self.program
        return " ".join(self.program or [])

    @property
    def gold_is_finite(self) -> bool:
        """False for a NaN or infinite numeric gold answer (no value can equal it)."""
        return not (isinstance(self.gold, float) and not math.isfinite(self.gold))


def program_item(program: str | list[str], table: Table | None, dialect: Dataset,
                 problem: str = "", item_id: str = "program") -> Item:
    """An Item for one program of a dialect; a dialect whose items are problems (MathQA) gets the program as its
    formula and ``problem`` as the text whose numbers ``nK`` name."""
    if dialect.run is not None:
        body = program if isinstance(program, str) else " ".join(program)
        return Item(item_id, body, dialect=dialect, record={"linear_formula": body, "Problem": problem})
    return Item(item_id, program, table, dialect=dialect)


def bad_item(item_id: str, message: str, source: str, dialect: Dataset) -> Item:
    """An Item that cannot run: kept in its place, with the reason."""
    return Item(item_id, None, error=message, source=source, dialect=dialect)


__all__ = ["Item", "bad_item", "program_item"]
