"""Table rows as the official evaluator reads them: keyed by the first cell, a later
duplicate replacing an earlier one; cells cleaned (``$`` removed, text before ``(``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any

from .errors import InputError

Table = Sequence[Sequence[str]]


_STR_ONLY = frozenset({str})
_LIST_ONLY = frozenset({list})


def validate_table(table: Any) -> list[list[str]]:
    """Check the shape of a table from JSON; raise InputError naming the bad row or cell."""
    if not isinstance(table, list):
        raise InputError(f"table must be a list of rows, got {type(table).__name__}")
    if _LIST_ONLY.issuperset(map(type, table)) and _STR_ONLY.issuperset(map(type, chain.from_iterable(table))):
        return table  # the common case: every row a list, every cell a str, checked at C speed
    rows: list[list[str]] = []
    for row_index, row in enumerate(table):
        if not isinstance(row, list):
            raise InputError(f"table row {row_index} must be a list, got {type(row).__name__}")
        for cell_index, cell in enumerate(row):
            if not isinstance(cell, str):
                raise InputError(
                    f"table row {row_index} cell {cell_index} must be a string, got {type(cell).__name__}")
        rows.append(row)
    return rows


def row_index(table: Table) -> dict[str, Sequence[str]]:
    """Row name -> the row's other cells; a later row with the same name wins."""
    return {row[0]: row[1:] for row in table if len(row) > 0}


def first_empty_row(table: Table) -> int | None:
    """The index of the first row with no cells at all, or None.

    The official evaluator keys rows by ``row[0]`` for every table op, so a single empty
    row anywhere in the table makes every table op fail (IndexError): the program is invalid.
    """
    return next((index for index, row in enumerate(table) if len(row) == 0), None)


def clean_cell(cell: str) -> str:
    """The official cell clean-up: drop ``$``, strip, keep the text before the first ``(``, strip."""
    return cell.replace("$", "").strip().split("(")[0].strip()
