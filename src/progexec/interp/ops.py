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


def _binary(method: str) -> Apply:
    def apply(arith: Any, operands: Sequence[Any]) -> Any:
        return getattr(arith, method)(operands[0], operands[1])
    apply.__name__ = method
    return apply


def _row(method: str) -> Apply:
    def apply(arith: Any, operands: Sequence[Any]) -> Any:
        return getattr(arith, method)(operands[0])
    apply.__name__ = method
    return apply


FINQA_OPS: dict[str, OpSpec] = {
    "add": OpSpec("add", 2, _binary("add")),
    "subtract": OpSpec("subtract", 2, _binary("subtract")),
    "multiply": OpSpec("multiply", 2, _binary("multiply")),
    "divide": OpSpec("divide", 2, _binary("divide")),
    "exp": OpSpec("exp", 2, _binary("power")),
    "greater": OpSpec("greater", 2, _binary("greater")),
    "table_max": OpSpec("table_max", 2, _row("row_max"), row_op=True),
    "table_min": OpSpec("table_min", 2, _row("row_min"), row_op=True),
    "table_sum": OpSpec("table_sum", 2, _row("row_sum"), row_op=True),
    "table_average": OpSpec("table_average", 2, _row("row_average"), row_op=True),
}
"""The ten FinQA ops, in the official order."""
