"""Op tables: what each op name means, so one interpreter serves several DSLs.

An :class:`OpSpec` gives an op's arity, whether its first argument is a table
row, and how to apply it under any arithmetic. ``FINQA_OPS`` is the official
FinQA/ConvFinQA table; MathQA supplies its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
import operator
from typing import Any

from .errors import ProgexecError

from .status import Status

Apply = Callable[[Any, Sequence[Any]], Any]
"""``apply(arithmetic, operands) -> value``; operands are numbers, or one row (a list) for a row op."""


@dataclass(frozen=True, slots=True)
class OpSpec:
    """One op: its name, how many arguments it takes, and how to apply it.

    ``method`` names the arithmetic method that gives the op's semantics under every arithmetic (Float64,
    Exact, Interval, the per-step variant): :func:`require_methods` checks at import that each one has it.
    ``official`` is the op as the official evaluator writes it in Python (``a + b``, ``"yes" if a > b``):
    the official model and the symbolic shortcuts apply it to floats, Fractions or intervals alike.
    ``row_op`` ops read their first argument as a table row name and ignore the rest; ``unsupported``
    names why the op, although known, has no semantics here. ``code`` is the op's number in the progexec
    contract (``run_flat``), ``symbol`` the operator the official ``equal_program`` writes for it (None:
    no symbolic form, as for the table ops). ``boolean`` ops answer yes/no. ``algebra`` says how sympy's
    canonical form treats the op (``sum``, ``product``, ``exponentiation``, ``relation``: what the equivalence
    shortcuts read), and ``inverts`` that its second operand enters the sum negated or the product inverted.

    A new op is one entry here plus the method ``method`` names on each arithmetic: every interpreter,
    model and scorer dispatches through this table, never on the op's name.
    """

    name: str
    arity: int
    apply: Apply
    row_op: bool = False
    unsupported: str | None = None
    refusal: Status = Status.UNSUPPORTED_OP
    code: int = -1
    symbol: str | None = None
    method: str | None = None
    official: Callable[[Any, Any], Any] | None = None
    boolean: bool = False
    algebra: str | None = None
    inverts: bool = False


OpTable = Mapping[str, OpSpec]


FINQA_OPS: dict[str, OpSpec] = {spec.name: spec for spec in (
    OpSpec("add", 2, lambda arith, x: arith.add(x[0], x[1]), code=0, symbol="+", method="add",
           official=operator.add, algebra="sum"),
    OpSpec("subtract", 2, lambda arith, x: arith.subtract(x[0], x[1]), code=1, symbol="-", method="subtract",
           official=operator.sub, algebra="sum", inverts=True),
    OpSpec("multiply", 2, lambda arith, x: arith.multiply(x[0], x[1]), code=2, symbol="*", method="multiply",
           official=operator.mul, algebra="product"),
    OpSpec("divide", 2, lambda arith, x: arith.divide(x[0], x[1]), code=3, symbol="/", method="divide",
           official=operator.truediv, algebra="product", inverts=True),
    OpSpec("exp", 2, lambda arith, x: arith.power(x[0], x[1]), code=4, symbol="**", method="power",
           official=operator.pow, algebra="exponentiation"),
    OpSpec("greater", 2, lambda arith, x: arith.greater(x[0], x[1]), code=5, symbol=">", method="greater",
           official=lambda a, b: "yes" if a > b else "no", boolean=True, algebra="relation"),
    OpSpec("table_max", 2, lambda arith, x: arith.row_max(x[0]), row_op=True, code=6, method="row_max"),
    OpSpec("table_min", 2, lambda arith, x: arith.row_min(x[0]), row_op=True, code=7, method="row_min"),
    OpSpec("table_sum", 2, lambda arith, x: arith.row_sum(x[0]), row_op=True, code=8, method="row_sum"),
    OpSpec("table_average", 2, lambda arith, x: arith.row_average(x[0]), row_op=True, code=9,
           method="row_average"),
)}
"""The ten FinQA ops, in the official order: the one table the token rules, the flat contract's codes and
the equivalence symbols are derived from. (The lambdas call the method named by ``method`` directly: one
attribute lookup less per step than the generic ``_binary``.)"""

FINQA_TABLE_OPS: frozenset[str] = frozenset(name for name, spec in FINQA_OPS.items() if spec.row_op)
FINQA_ARITHMETIC_OPS: frozenset[str] = frozenset(name for name, spec in FINQA_OPS.items() if not spec.row_op)
FINQA_SYMBOLS: dict[str, str] = {name: spec.symbol for name, spec in FINQA_OPS.items() if spec.symbol}
FINQA_BY_CODE: dict[int, OpSpec] = {spec.code: spec for spec in FINQA_OPS.values()}
"""Contract code (``run_flat``) -> the op."""


def subset(ops: OpTable, names: Sequence[str]) -> dict[str, OpSpec]:
    """The ops of ``ops`` named in ``names``, in that order (a dialect that keeps only some FinQA ops)."""
    return {name: ops[name] for name in names}


def require_methods(arithmetic: type, ops: OpTable = FINQA_OPS) -> type:
    """Check at import that ``arithmetic`` implements every op of ``ops`` (never a silent fallback)."""
    missing = sorted(spec.name for spec in ops.values()
                     if spec.method is not None and spec.unsupported is None and not hasattr(arithmetic, spec.method))
    if missing:
        raise ProgexecError(f"{arithmetic.__name__} has no semantics for the ops {', '.join(missing)}")
    return arithmetic
