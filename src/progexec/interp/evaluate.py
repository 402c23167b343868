"""The interpreter: one walk over the steps, under any arithmetic.

``evaluate(program, arithmetic, table)`` never raises for a bad program: it returns
an :class:`Outcome` whose status says why there is no value. Intermediates stay
exactly what the arithmetic computed; only ``arithmetic.finish`` touches the final value.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn, TypeVar, Union, cast

from ..core.outcome import Outcome
from ..core.nodes import Arg, Input, Program, Ref, Row, Step
from ..core.errors import ProgramSyntaxError
from ..core.limits import DEFAULT_LIMITS, check_deadline, current
from ..core.arithmetic import Arithmetic, Refusal
from ..core.ops import FINQA_OPS, OpSpec, OpTable
from ..core.status import Status
from ..core.table import Table, clean_cell, first_empty_row, row_index
from ..core.plural import plural

V = TypeVar("V")

MAX_STEPS = DEFAULT_LIMITS.max_steps
"""The default most steps; the bound in force is ``limits.current().max_steps``."""


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``" (did you mean 'x'?)"`` for a misspelled op or row name, or nothing (bounded: names over 100
    characters and more than 10,000 candidates are not compared)."""
    if len(name) > 100:
        return ""
    candidates = [candidate for _, candidate in zip(range(10_000), known) if len(candidate) <= 100]
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.75)
    return f" (did you mean {close[0]!r}?)" if close else ""



Value = Union[V, bool]


def _number(arith: Arithmetic[V], arg: Arg, results: list[Any], step: int, position: int,
            inputs: Sequence[str]) -> V:
    """The numeric value of an argument of a number op."""
    if isinstance(arg, Ref):
        if arg.index >= step:
            raise Refusal(Status.FORWARD_REFERENCE, f"{arg.text} refers to step {arg.index}, not an earlier step", step=step, arg=position)
        value = results[arg.index]
        if isinstance(value, bool):
            raise Refusal(Status.REFERENCE_TO_BOOLEAN, f"{arg.text} is a yes/no result used as a number", step=step, arg=position)
        return cast(V, value)
    if isinstance(arg, Input):
        if arg.index >= len(inputs):
            raise Refusal(Status.BAD_LITERAL, f"{arg.text} names input number {arg.index}, but the problem has {len(inputs)}", step=step, arg=position)
        text = inputs[arg.index]
    elif isinstance(arg, Row):
        raise Refusal(Status.BAD_ARG_KIND, f"a number is needed, not the row name {arg.name!r}", step=step, arg=position)
    else:
        text = arg.text
    bound = current().max_literal_chars
    if len(text) > bound:
        raise Refusal(Status.LIMIT_EXCEEDED,
                      f"a literal of {plural(len(text), 'character')} is over the limit of {bound} (max_literal_chars)",
                      step=step, arg=position)
    try:
        return arith.literal(text)
    except Refusal as refusal:
        raise Refusal(refusal.status, refusal.message, refusal.cause, step=step, arg=position) from None


def _row(arith: Arithmetic[V], arg: Arg, table: Table | None, step: int,
         cache: dict[str, Any]) -> list[V]:
    """The numeric cells of the row a table op names.

    ``cache`` holds the row index for this run, built once: a long program of table ops over a
    large table then costs one pass over the table, not one per step (bounded work).
    """
    if not isinstance(arg, Row):
        raise Refusal(Status.BAD_ARG_KIND, f"a table op needs a row name, not {arg}", step=step, arg=1)
    if table is None:
        raise Refusal(Status.MISSING_ROW, "a table op needs a table and the item has none", step=step, arg=1)
    if "rows" not in cache:
        cache["empty"] = first_empty_row(table)
        cache["rows"] = row_index(table)
    if cache["empty"] is not None:
        raise Refusal(Status.EMPTY_ROW, f"table row {cache['empty']} is empty (no name, no cells): the official "
                    "evaluator cannot read a table with an empty row", step=step, arg=1)
    rows = cache["rows"]
    if arg.name not in rows:
        raise Refusal(Status.MISSING_ROW, f"no table row is named {arg.name!r}{did_you_mean(arg.name, rows)}", step=step, arg=1)
    cells = rows[arg.name]
    if not cells:
        raise Refusal(Status.EMPTY_ROW, f"table row {arg.name!r} has no cells", step=step, arg=1)
    values: list[V] = []
    bound = current().max_literal_chars
    for index, cell in enumerate(cells):
        if len(cell) > bound:
            raise Refusal(Status.LIMIT_EXCEEDED, f"cell {index + 1} of row {arg.name!r} is over "
                          f"{plural(bound, 'character')} (max_literal_chars)", step=step, arg=1)
        try:
            values.append(arith.literal(clean_cell(cell)))
        except Refusal as refusal:
            raise Refusal(Status.BAD_CELL, f"cell {index + 1} of row {arg.name!r} ({cell!r}): {refusal.message}", refusal.cause, step=step, arg=1) from None
    return values


def _reject_op(spec: OpSpec | None, step: Step, index: int, ops: OpTable) -> NoReturn:
    if spec is None:
        raise Refusal(Status.UNKNOWN_OP, f"{step.op!r} is not an op of this dialect{did_you_mean(step.op, ops)}", step=index, arg=None)
    if spec.unsupported is not None:
        raise Refusal(spec.refusal, spec.unsupported, step=index, arg=None)
    raise Refusal(Status.SYNTAX_ERROR, f"{step.op} takes {spec.arity} arguments, not {len(step.args)}", step=index, arg=None)


def _apply(arith: Arithmetic[V], step: Step, index: int, results: list[Any], table: Table | None,
           ops: OpTable, inputs: Sequence[str], cache: dict[str, Any]) -> Any:
    spec = ops.get(step.op)
    if spec is None or spec.unsupported is not None or len(step.args) != spec.arity:
        _reject_op(spec, step, index, ops)
    if spec.row_op:
        operands: list[Any] = [_row(arith, step.args[0], table, index, cache)]
    else:
        operands = []
        position = 0
        for arg in step.args:
            position += 1
            if type(arg) is Ref and arg.index < index:  # the common case, inlined
                value = results[arg.index]
                if type(value) is bool:
                    raise Refusal(Status.REFERENCE_TO_BOOLEAN, f"{arg.text} is a yes/no result used as a number", step=index, arg=position)
                operands.append(value)
            else:
                operands.append(_number(arith, arg, results, index, position, inputs))
    try:
        return spec.apply(arith, operands)
    except Refusal as refusal:
        raise Refusal(refusal.status, refusal.message, refusal.cause, step=index, arg=None) from None


def evaluate(program: Program, arithmetic: Arithmetic[V], table: Table | None = None,
             max_steps: int | None = None, ops: OpTable = FINQA_OPS, inputs: Sequence[str] = ()) -> Outcome[V]:
    """Run ``program`` under ``arithmetic``; never raises for a bad program or table.

    ``ops`` selects the DSL (FinQA by default); ``inputs`` binds MathQA's ``nK`` to number texts.
    """
    if program.bare is not None:
        if len(program.bare.text) > current().max_literal_chars:
            return Outcome(Status.LIMIT_EXCEEDED, step=0, arg=1,
                           message=f"a literal of {plural(len(program.bare.text), 'character')} is over the limit")
        try:
            raw = arithmetic.literal(program.bare.text)
        except Refusal as refusal:
            return Outcome(refusal.status, step=0, arg=1, message=refusal.message, cause=refusal.cause)
        return Outcome(Status.OK, arithmetic.finish(raw), raw, (raw,))
    if not program.steps:
        return Outcome(Status.NO_STEPS, message="the program has no steps")
    if max_steps is None:
        max_steps = current().max_steps
    if len(program.steps) > max_steps:
        return Outcome(Status.LIMIT_EXCEEDED,
                       message=f"the program has {plural(len(program.steps), 'step')}, over the limit of "
                               f"{max_steps} (max_steps)")
    results: list[Any] = []
    cache: dict[str, Any] = {}
    try:
        for index, step in enumerate(program.steps):
            check_deadline()
            results.append(_apply(arithmetic, step, index, results, table, ops, inputs, cache))
    except Refusal as stop:
        return Outcome(stop.status, results=tuple(results), step=stop.step, arg=stop.arg, message=stop.message,
                       cause=stop.cause)
    final = results[-1]
    if isinstance(final, bool):
        return Outcome(Status.OK, final, final, tuple(results))
    try:
        finished = arithmetic.finish(final)
    except Refusal as refusal:
        return Outcome(refusal.status, results=tuple(results), step=len(results) - 1, message=refusal.message,
                       cause=refusal.cause)
    return Outcome(Status.OK, finished, final, tuple(results))


def syntax_outcome(error: ProgramSyntaxError) -> Outcome[Any]:
    """The outcome of program text that cannot be read: ``limit_exceeded`` naming the bound when it is over
    ``max_program_chars`` (in every dialect), else ``syntax_error`` with the parser's message."""
    status = Status.LIMIT_EXCEEDED if error.bound is not None else Status.SYNTAX_ERROR
    return Outcome(status, message=error.message if status is Status.LIMIT_EXCEEDED else str(error))


def first_refusal_text(outcome: Outcome[V]) -> str:
    """A one-line description of a refusal: status, location, message."""
    where = outcome.where()
    return f"{outcome.status.label}{' at ' + where if where else ''}: {outcome.message}"


__all__ = ["Outcome", "evaluate", "MAX_STEPS", "first_refusal_text", "syntax_outcome"]
