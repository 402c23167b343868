"""What the official evaluator would answer, quirks included, for official-compatible scoring.

The progexec contract refuses some programs the official ``eval_program`` still
answers (an infinite result, a NaN literal, a table op whose first argument is a
reference and so silently reuses the previous table op's row, a yes/no string
compared with ``>``). For those, and for token lists our parser rejects, this
module models the official loop on the raw tokens: Python's dynamic operators on
floats and the strings ``"yes"``/``"no"``, every exception meaning "invalid".
It is consulted only when the interpreter refuses; on every program the
interpreter answers, both agree (tested over the corpus and generated programs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .arithmetic import official_str_to_num, sum_left_to_right
from ..limits import check_deadline
from .ops import FINQA_ARITHMETIC_OPS
from .table import Table, clean_cell
from ..grammar.tokens import ALL_OPS as OFFICIAL_OPS, official_step_parts, official_steps


@dataclass(frozen=True, slots=True)
class OfficialVerdict:
    """``valid`` is the official ``invalid_flag == 0``; ``value`` its ``this_res`` (None for ``"n/a"``)."""

    valid: bool
    value: float | str | None

    def equals_gold(self, gold: object) -> bool:
        """Official execution accuracy for one item: valid and ``==`` to the gold answer."""
        return self.valid and self.value is not None and self.value == gold


INVALID = OfficialVerdict(False, None)


def _row_numbers(cells: Sequence[Any], const_marker: str) -> list[float] | None:
    numbers: list[float] = []
    for cell in cells:
        value = official_str_to_num(clean_cell(cell), const_marker)
        if value is None:
            return None
        numbers.append(value)
    return numbers


def official_verdict(tokens: Sequence[str], table: Table | None, dialect: str = "finqa") -> OfficialVerdict:
    """Model the official ``eval_program`` on a token list (``EOF`` last).

    ``dialect`` is ``"finqa"`` (FinQA's evaluate.py) or ``"convfinqa"`` (a single
    token is a bare number; the constant rule needs ``const_``).
    """
    try:
        return _verdict(list(tokens), table, dialect)
    except Exception:  # the official evaluator's bare except: any failure is "invalid"
        return INVALID


def _verdict(tokens: list[str], table: Table | None, dialect: str) -> OfficialVerdict:
    const_marker = "const_" if dialect == "convfinqa" else "const"
    body = tokens[:-1]
    if dialect == "convfinqa" and len(body) == 1:
        number = official_str_to_num(body[0], const_marker)
        if number is None:
            return INVALID
        return OfficialVerdict(True, round(float(number), 5))
    for index, token in enumerate(body):
        if index % 4 == 0 and token.strip("(") not in OFFICIAL_OPS:
            return INVALID
        if (index + 1) % 4 == 0 and token != ")":
            return INVALID
    result: Any = "n/a"
    results: dict[int, Any] = {}
    row: Any = None
    have_row = False
    rows: dict[Any, Any] | None = None
    for index, raw_step in enumerate(official_steps(tokens)):
        check_deadline()
        if len(raw_step.strip().split("(")) > 2:
            return INVALID
        _, op, arg1, arg2 = official_step_parts(raw_step)
        if op in FINQA_ARITHMETIC_OPS:
            a = results[int(arg1.replace("#", ""))] if "#" in arg1 else official_str_to_num(arg1, const_marker)
            if a is None:
                return INVALID
            b = results[int(arg2.replace("#", ""))] if "#" in arg2 else official_str_to_num(arg2, const_marker)
            if b is None:
                return INVALID
            if op == "add":
                result = a + b
            elif op == "subtract":
                result = a - b
            elif op == "multiply":
                result = a * b
            elif op == "divide":
                result = a / b
            elif op == "exp":
                result = a ** b
            else:
                result = "yes" if a > b else "no"
            results[index] = result
        elif "table" in op:
            if rows is None:  # built once: the official rebuilds it per table op, from the same table
                rows = {line[0]: line[1:] for line in table}  # type: ignore[union-attr]
            if "#" in arg1:
                results[int(arg1.replace("#", ""))]  # looked up, then ignored: the stale-row quirk
                if not have_row:
                    return INVALID
            else:
                if arg1 not in rows:
                    return INVALID
                row = _row_numbers(rows[arg1], const_marker)
                have_row = True
            if row is None:
                return INVALID
            if op == "table_max":
                result = max(row)
            elif op == "table_min":
                result = min(row)
            elif op == "table_sum":
                result = sum_left_to_right(row)
            elif op == "table_average":
                result = sum_left_to_right(row) / len(row)
            results[index] = result
    if isinstance(result, str) and result in ("yes", "no", "n/a"):
        return OfficialVerdict(True, None if result == "n/a" else result)
    return OfficialVerdict(True, round(result, 5))
