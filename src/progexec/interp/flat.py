"""The progexec contract: a program as flat parallel lists, for ports to other languages.

Op codes follow the official ``all_ops`` order; argument kinds are literal,
reference and table row (arg1 of a table op only, read from a flat buffer by
offset and length). ``run_flat`` validates every length before it indexes and
returns a :class:`FlatResult`; it shares the float64 arithmetic with the interpreter.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum

from ..core.nodes import Num, Program, Ref, Row
from ..core.arithmetic import Float64, Refusal
from ..core.ops import FINQA_OPS, FINQA_BY_CODE
from ..core.status import Status
from ..core.table import Table, clean_cell, first_empty_row, row_index


class Op(IntEnum):
    """Op codes, in the official evaluator's order."""

    ADD = 0
    SUBTRACT = 1
    MULTIPLY = 2
    DIVIDE = 3
    EXP = 4
    GREATER = 5
    TABLE_MAX = 6
    TABLE_MIN = 7
    TABLE_SUM = 8
    TABLE_AVERAGE = 9


class ArgKind(IntEnum):
    """How a step's argument slot is read."""

    LITERAL = 0
    REF = 1
    TABLE_ROW = 2


OP_CODES: dict[str, Op] = {name: Op(spec.code) for name, spec in FINQA_OPS.items()}
"""Op name -> contract code, from the one op table (``Op`` names the same codes for readers of the contract)."""
_TABLE_CODES = frozenset(Op(spec.code) for spec in FINQA_OPS.values() if spec.row_op)
_FLOAT64 = Float64()


@dataclass(frozen=True, slots=True)
class FlatResult:
    """``present`` is False on any refusal; a final greater answers through ``bool_value``."""

    status: int
    present: bool
    value: float
    is_bool: bool
    bool_value: bool
    step: int = -1
    message: str = ""


@dataclass(slots=True)
class FlatProgram:
    """The nine arguments of ``run_flat``."""

    ops: list[int] = field(default_factory=list)
    arg1_kind: list[int] = field(default_factory=list)
    arg1_num: list[float] = field(default_factory=list)
    arg2_kind: list[int] = field(default_factory=list)
    arg2_num: list[float] = field(default_factory=list)
    table_values: list[float] = field(default_factory=list)
    table_offset: list[int] = field(default_factory=list)
    table_len: list[int] = field(default_factory=list)

    @property
    def n_steps(self) -> int:
        return len(self.ops)

    def run(self) -> FlatResult:
        return run_flat(self.ops, self.arg1_kind, self.arg1_num, self.arg2_kind, self.arg2_num,
                        self.table_values, self.table_offset, self.table_len, self.n_steps)


def _refuse(status: Status, step: int, message: str) -> FlatResult:
    return FlatResult(int(status), False, 0.0, False, False, step, message)


def _index(number: float) -> int | None:
    """A reference slot's step index, or None when it is not a whole number."""
    if not math.isfinite(number) or number != int(number):
        return None
    return int(number)


def run_flat(ops: Sequence[int], arg1_kind: Sequence[int], arg1_num: Sequence[float],
             arg2_kind: Sequence[int], arg2_num: Sequence[float], table_values: Sequence[float],
             table_offset: Sequence[int], table_len: Sequence[int], n_steps: int) -> FlatResult:
    """Execute a flat program; every refusal is a status, never an exception or a made-up value."""
    if n_steps <= 0:
        return _refuse(Status.NO_STEPS, -1, "n_steps must be positive")
    lists = (ops, arg1_kind, arg1_num, arg2_kind, arg2_num, table_offset, table_len)
    if any(n_steps > len(values) for values in lists):
        return _refuse(Status.LENGTH_MISMATCH, -1, "n_steps is larger than an argument list")
    results: list[float | bool] = []
    for step in range(n_steps):
        code = ops[step]
        if code not in Op._value2member_map_:
            return _refuse(Status.UNKNOWN_OP, step, f"op code {code} is not 0-9")
        op = Op(code)
        try:
            if op in _TABLE_CODES:
                if arg1_kind[step] != ArgKind.TABLE_ROW:
                    return _refuse(Status.BAD_ARG_KIND, step, "a table op's arg1 must be a table row")
                offset, length = table_offset[step], table_len[step]
                if offset < 0 or length < 0 or offset + length > len(table_values):
                    return _refuse(Status.TABLE_SLICE_OUT_OF_BOUNDS, step, "the row slice leaves the buffer")
                if length == 0:
                    return _refuse(Status.EMPTY_ROW, step, "the row is empty")
                row = [float(value) for value in table_values[offset:offset + length]]
                for value in row:
                    if not math.isfinite(value):
                        return _refuse(Status.BAD_CELL, step, "a row value is not finite")
                results.append(_table(op, row))
                continue
            operands: list[float] = []
            for kind, number in ((arg1_kind[step], arg1_num[step]), (arg2_kind[step], arg2_num[step])):
                if kind == ArgKind.LITERAL:
                    if math.isnan(number):
                        return _refuse(Status.NOT_A_NUMBER, step, "a literal is NaN")
                    if math.isinf(number):
                        return _refuse(Status.OVERFLOW, step, "a literal is infinite")
                    operands.append(float(number))
                elif kind == ArgKind.REF:
                    target = _index(number)
                    if target is None or not 0 <= target < step:
                        return _refuse(Status.FORWARD_REFERENCE, step, f"reference {number!r} is not an earlier step")
                    value = results[target]
                    if isinstance(value, bool):
                        return _refuse(Status.REFERENCE_TO_BOOLEAN, step, f"step {target} is a yes/no result")
                    operands.append(value)
                else:
                    return _refuse(Status.BAD_ARG_KIND, step, f"argument kind {kind} is not allowed here")
            results.append(_arithmetic(op, operands[0], operands[1]))
        except Refusal as refusal:
            return _refuse(refusal.status, step, refusal.message)
    final = results[-1]
    if isinstance(final, bool):
        return FlatResult(int(Status.OK), True, 0.0, True, final)
    return FlatResult(int(Status.OK), True, _FLOAT64.finish(final), False, False)


def _table(op: Op, row: list[float]) -> float:
    """A row op through the op table (its entry names the Float64 method)."""
    result: float = FINQA_BY_CODE[op].apply(_FLOAT64, [row])
    return result


def _arithmetic(op: Op, a: float, b: float) -> float | bool:
    """A two-operand op through the op table (its entry names the Float64 method)."""
    result: float | bool = FINQA_BY_CODE[op].apply(_FLOAT64, [a, b])
    return result


def compile_program(program: Program, table: Table | None = None, arithmetic: Float64 = _FLOAT64) -> FlatProgram:
    """Lower a parsed program (and its table) to the flat lists; rows are resolved here. A program that cannot
    be lowered raises :class:`Refusal` with its status and ``step``."""
    flat = FlatProgram()
    if program.bare is not None:
        raise Refusal(Status.BAD_ARG_KIND, step=0, message="a bare-number program has no flat form")
    rows = row_index(table) if table is not None else {}
    for step_index, step in enumerate(program.steps):
        code = OP_CODES.get(step.op)
        flat.ops.append(int(code) if code is not None else -1)
        slots: list[tuple[int, float]] = []
        offset, length = 0, 0
        for position, arg in ((1, step.arg1), (2, step.arg2)):
            if code in _TABLE_CODES:
                if position == 2:
                    slots.append((int(ArgKind.LITERAL), 0.0))
                elif isinstance(arg, Row):
                    if table is None:
                        raise Refusal(Status.MISSING_ROW, step=step_index, message="the item has no table")
                    if first_empty_row(table) is not None:
                        raise Refusal(Status.EMPTY_ROW, step=step_index, message="the table has an empty row")
                    if arg.name not in rows:
                        raise Refusal(Status.MISSING_ROW, step=step_index, message=f"no row named {arg.name!r}")
                    offset = len(flat.table_values)
                    for cell in rows[arg.name]:
                        try:
                            flat.table_values.append(arithmetic.literal(clean_cell(cell)))
                        except Refusal as refusal:
                            raise Refusal(Status.BAD_CELL, step=step_index, message=refusal.message) from None
                    length = len(flat.table_values) - offset
                    slots.append((int(ArgKind.TABLE_ROW), 0.0))
                else:
                    slots.append((int(ArgKind.REF), float(arg.index)) if isinstance(arg, Ref)
                                 else (int(ArgKind.LITERAL), 0.0))
            elif isinstance(arg, Ref):
                slots.append((int(ArgKind.REF), float(arg.index)))
            elif isinstance(arg, Num):
                try:
                    slots.append((int(ArgKind.LITERAL), arithmetic.literal(arg.text)))
                except Refusal as refusal:
                    raise Refusal(refusal.status, step=step_index, message=refusal.message) from None
            else:
                slots.append((int(ArgKind.TABLE_ROW), 0.0))
        flat.arg1_kind.append(slots[0][0])
        flat.arg1_num.append(slots[0][1])
        flat.arg2_kind.append(slots[1][0])
        flat.arg2_num.append(slots[1][1])
        flat.table_offset.append(offset)
        flat.table_len.append(length)
    return flat


def status_of(result: FlatResult) -> Status:
    return Status(result.status)
