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
from typing import Any, TYPE_CHECKING


from ..core.verdict import INVALID, OfficialVerdict
from ..core.arithmetic import LiteralRule, official_number, official_str_to_num, sum_left_to_right
from ..core.limits import check_deadline
from ..core.table import Table, clean_cell
from ..grammar.tokens import official_step_parts, official_steps

if TYPE_CHECKING:
    from ..core.dataset import Dialect


def _row_numbers(cells: Sequence[Any], literals: LiteralRule) -> list[float] | None:
    numbers: list[float] = []
    for cell in cells:
        value = official_str_to_num(clean_cell(cell), literals)
        if value is None:
            return None
        numbers.append(value)
    return numbers


def official_verdict(tokens: Sequence[str], table: Table | None, dialect: Dialect) -> OfficialVerdict:
    """Model a dialect's official ``eval_program`` on a token list (``EOF`` last).

    The dialect gives the op names its structure check accepts and their Python semantics, its
    ``str_to_num`` and whether one token is a bare number (ConvFinQA).
    """
    spec = dialect
    state = _State()
    try:
        return _verdict(list(tokens), table, spec, state)
    except Exception:  # the official evaluator's bare except: any failure is "invalid"
        return OfficialVerdict(False, None, _real(state.result))


class _State:
    """The official loop's ``this_res``, kept where an exception can still read it."""

    __slots__ = ("result",)

    def __init__(self) -> None:
        self.result: Any = "n/a"


def _real(value: Any) -> float | str | None:
    """A leftover value as the verdict holds it: a float, ``"yes"``/``"no"``/``"n/a"``; None for a value that
    is not real (a complex power)."""
    return value if isinstance(value, (str, float)) else None


def _broke(state: _State) -> OfficialVerdict:
    """``invalid_flag = 1; break``: the loop ends, and the last value is still rounded before it is returned."""
    result = state.result
    if not (isinstance(result, str) and result in ("yes", "no", "n/a")):
        state.result = round(result, 5)
    return OfficialVerdict(False, None, _real(state.result))


class _OfficialRows:
    """The official evaluator's row ops (``max``, ``min``, a left-to-right sum, its mean): the row methods the
    op table's row ops name."""

    row_max = staticmethod(max)
    row_min = staticmethod(min)
    row_sum = staticmethod(sum_left_to_right)

    @staticmethod
    def row_average(row: list[Any]) -> Any:
        return sum_left_to_right(row) / len(row)


def _verdict(tokens: list[str], table: Table | None, dialect: Dialect, state: _State) -> OfficialVerdict:
    literals = dialect.literals
    ops = dialect.ops
    body = tokens[:-1]
    if dialect.bare_numbers and len(body) == 1:
        number = official_str_to_num(body[0], literals)
        if number is None:
            return INVALID
        return OfficialVerdict(True, round(float(number), 5))
    for index, token in enumerate(body):
        if index % 4 == 0 and token.strip("(") not in ops:
            return INVALID
        if (index + 1) % 4 == 0 and token != ")":
            return INVALID
    results: dict[int, Any] = {}
    row: Any = None
    have_row = False
    rows: dict[Any, Any] | None = None
    for index, raw_step in enumerate(official_steps(tokens)):
        check_deadline()
        if len(raw_step.strip().split("(")) > 2:
            return _broke(state)
        _, op, arg1, arg2 = official_step_parts(raw_step)
        spec = ops.get(op)
        if spec is not None and spec.official is not None:
            a = results[int(arg1.replace("#", ""))] if "#" in arg1 else official_number(arg1, literals)
            if a is None:
                return _broke(state)
            b = results[int(arg2.replace("#", ""))] if "#" in arg2 else official_number(arg2, literals)
            if b is None:
                return _broke(state)
            state.result = spec.official(a, b)
            results[index] = state.result
        elif "table" in op:
            if rows is None:  # built once: the official rebuilds it per table op, from the same table
                rows = {line[0]: line[1:] for line in table}  # type: ignore[union-attr]
            if "#" in arg1:
                results[int(arg1.replace("#", ""))]  # looked up, then ignored: the stale-row quirk
                if not have_row:
                    raise KeyError(arg1)  # the official reads an unset row variable: an exception
            else:
                row = _row_numbers(rows[arg1], literals)
                have_row = True
            if row is None:
                return _broke(state)
            if spec is not None and spec.row_op:
                state.result = spec.apply(_OfficialRows, [row])
            results[index] = state.result
    result = state.result
    if isinstance(result, str) and result in ("yes", "no", "n/a"):
        return OfficialVerdict(True, None if result == "n/a" else result)
    return OfficialVerdict(True, round(result, 5))
