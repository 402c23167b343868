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
    ``code`` is the op's number in the progexec contract (``run_flat``), ``symbol`` the operator the
    official ``equal_program`` writes for it (None: no symbolic form, as for the table ops).
    """

    name: str
    arity: int
    apply: Apply
    row_op: bool = False
    unsupported: str | None = None
    refusal: Status = Status.UNSUPPORTED_OP
    code: int = -1
    symbol: str | None = None


OpTable = Mapping[str, OpSpec]


FINQA_OPS: dict[str, OpSpec] = {spec.name: spec for spec in (
    OpSpec("add", 2, lambda arith, x: arith.add(x[0], x[1]), code=0, symbol="+"),
    OpSpec("subtract", 2, lambda arith, x: arith.subtract(x[0], x[1]), code=1, symbol="-"),
    OpSpec("multiply", 2, lambda arith, x: arith.multiply(x[0], x[1]), code=2, symbol="*"),
    OpSpec("divide", 2, lambda arith, x: arith.divide(x[0], x[1]), code=3, symbol="/"),
    OpSpec("exp", 2, lambda arith, x: arith.power(x[0], x[1]), code=4, symbol="**"),
    OpSpec("greater", 2, lambda arith, x: arith.greater(x[0], x[1]), code=5, symbol=">"),
    OpSpec("table_max", 2, lambda arith, x: arith.row_max(x[0]), row_op=True, code=6),
    OpSpec("table_min", 2, lambda arith, x: arith.row_min(x[0]), row_op=True, code=7),
    OpSpec("table_sum", 2, lambda arith, x: arith.row_sum(x[0]), row_op=True, code=8),
    OpSpec("table_average", 2, lambda arith, x: arith.row_average(x[0]), row_op=True, code=9),
)}
"""The ten FinQA ops, in the official order: the one table the token rules, the flat contract's codes and
the equivalence symbols are derived from."""

FINQA_TABLE_OPS: frozenset[str] = frozenset(name for name, spec in FINQA_OPS.items() if spec.row_op)
FINQA_ARITHMETIC_OPS: frozenset[str] = frozenset(name for name, spec in FINQA_OPS.items() if not spec.row_op)
FINQA_SYMBOLS: dict[str, str] = {name: spec.symbol for name, spec in FINQA_OPS.items() if spec.symbol}
