"""Op tables: what each op name means, so one interpreter serves several DSLs.

An :class:`OpSpec` gives an op's arity, whether its first argument is a table
row, and how to apply it under any arithmetic. ``FINQA_OPS`` is the official
FinQA/ConvFinQA table; MathQA supplies its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .status import Status

Apply = Callable[[Any, Sequence[Any]], Any]
"""``apply(arithmetic, operands) -> value``; operands are numbers, or one row (a list) for a row op."""


@dataclass(frozen=True, slots=True)
class OpSpec:
    """One op: its name, how many arguments it takes, and how to apply it.

    ``row_op`` ops read their first argument as a table row name and ignore the
    rest; ``unsupported`` names why the op, although known, has no semantics here.
    """

    name: str
    arity: int
    apply: Apply
    row_op: bool = False
    unsupported: str | None = None
    refusal: Status = Status.UNSUPPORTED_OP


OpTable = Mapping[str, OpSpec]


FINQA_OPS: dict[str, OpSpec] = {
    "add": OpSpec("add", 2, lambda arith, x: arith.add(x[0], x[1])),
    "subtract": OpSpec("subtract", 2, lambda arith, x: arith.subtract(x[0], x[1])),
    "multiply": OpSpec("multiply", 2, lambda arith, x: arith.multiply(x[0], x[1])),
    "divide": OpSpec("divide", 2, lambda arith, x: arith.divide(x[0], x[1])),
    "exp": OpSpec("exp", 2, lambda arith, x: arith.power(x[0], x[1])),
    "greater": OpSpec("greater", 2, lambda arith, x: arith.greater(x[0], x[1])),
    "table_max": OpSpec("table_max", 2, lambda arith, x: arith.row_max(x[0]), row_op=True),
    "table_min": OpSpec("table_min", 2, lambda arith, x: arith.row_min(x[0]), row_op=True),
    "table_sum": OpSpec("table_sum", 2, lambda arith, x: arith.row_sum(x[0]), row_op=True),
    "table_average": OpSpec("table_average", 2, lambda arith, x: arith.row_average(x[0]), row_op=True),
}
"""The ten FinQA ops, in the official order."""
