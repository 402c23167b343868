"""The interpreter's fast path: a program compiled once into a flat op array, cached by its text.

:func:`compile_program` turns a parsed FinQA/ConvFinQA :class:`~progexec.core.nodes.Program`
into a :class:`Compiled`: every literal read once (Float64's ``literal``), every reference resolved
to a slot, every op of the one op table (:data:`~progexec.core.ops.FINQA_OPS`) bound to the C
function that computes it. :func:`run_compiled` then runs it with no per-step context-variable
lookup, no per-step exception set-up and no AST walk.

It handles the happy path only. Anything the general interpreter would refuse (a literal that is
not a number, a reference to a yes/no result, a missing row, a division by zero, an infinite
result, a bound of :class:`~progexec.limits.Limits` exceeded, more cells to read than
:data:`MAX_FAST_CELLS`) makes it return None, and the caller runs the general path
(:func:`progexec.interp.evaluate.evaluate`), which decides and names the refusal. So there is
one interpreter: where the fast path answers, its Outcome equals the general path's, field by
field (property tests over the grammar and every embedded corpus item check it).

The work of a fast run is counted before it starts (steps, and cells read by table steps; a program
over :data:`MAX_FAST_CELLS` cells goes to the general path), and the clock is honoured once per
program instead of once per step (see :func:`fast_outcome`). Programs are cached by text or token
list and dialect, within ``Limits.max_compiled_bytes`` of estimated size (:func:`entry_bytes`: a
count of steps and characters, so what is kept never depends on the Python version) and at most
``Limits.max_compiled_programs`` of them.
"""

from __future__ import annotations

import dataclasses
import operator
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..core.bytecache import CHAR_BYTES, ENTRY_OVERHEAD, ByteCache, text_size
from ..core.dataset import Dialect
from ..core.nodes import Num, Program, Ref, Row
from ..core.errors import ProgramSyntaxError
from ..grammar.parse import canonical_literal, canonical_program, canonical_steps, parse_program, parse_token_list
from ..core.limits import Limits, check_deadline, current, DEFAULT_LIMITS
from ..core.arithmetic import Float64, LiteralRule, read_str_to_num, sum_left_to_right
from ..core.outcome import Outcome
from ..core.verdict import OfficialVerdict
from ..core.ops import FINQA_OPS
from ..core.status import Status
from ..core.table import Table, clean_cell

MAX_FAST_CELLS = DEFAULT_LIMITS.max_fast_cells
"""Most table cells one fast run reads (rows are read once, then each table step scans its row); a
program over it runs on the general path, under the item's clock."""

_NAN = float("nan")


class _Fast:
    """The fast path's arithmetic on floats: one method per op method of the op table (``OpSpec.method``),
    each taking two operands (a row op gets the row's values and a dummy). An op of the table whose method is
    missing here is never compiled."""

    add = staticmethod(operator.add)
    subtract = staticmethod(operator.sub)
    multiply = staticmethod(operator.mul)
    divide = staticmethod(operator.truediv)
    greater = staticmethod(operator.gt)

    @staticmethod
    def power(a: float, b: float) -> float:
        """``a ** b`` as Float64.power computes it; a complex result (negative base, fractional power) is NaN,
        so the run's finiteness test sends it to the general path (which refuses it as non_real_result)."""
        result = a ** b
        return result if type(result) is float else _NAN

    @staticmethod
    def row_max(row: list[float], _: Any) -> float:
        return max(row)

    @staticmethod
    def row_min(row: list[float], _: Any) -> float:
        return min(row)

    @staticmethod
    def row_sum(row: list[float], _: Any) -> float:
        return sum_left_to_right(row)

    @staticmethod
    def row_average(row: list[float], _: Any) -> float:
        return sum_left_to_right(row) / len(row)


_SPECS: dict[str, tuple[Callable[[Any, Any], Any], bool, bool]] = {
    name: (getattr(_Fast, spec.method), spec.row_op, spec.boolean)
    for name, spec in FINQA_OPS.items()
    if spec.method is not None and hasattr(_Fast, spec.method) and spec.unsupported is None and spec.arity == 2}
"""Op name -> (function, row op?, yes/no result?) for every op of the table the fast path runs."""



def eligible(dialect: Dialect) -> Dialect | None:
    """The dataset's record when the fast path serves it: programs of the FinQA grammar over the FinQA op table
    under Float64 (FinQA, ConvFinQA, and any dataset registered with the same reader, ops and arithmetic)."""
    global _LAST_ELIGIBLE
    last = _LAST_ELIGIBLE
    if last[0] is dialect:  # the same record as the last call (a record is frozen: its answer cannot change)
        return last[1]
    spec: Dialect | None = dialect
    if dialect.run is not None or dialect.ops is not FINQA_OPS or dialect.parse is not parse_program \
            or type(dialect.float64) is not Float64:
        spec = None
    _LAST_ELIGIBLE = (dialect, spec)  # one tuple, so a thread reads a record and its own answer
    return spec


_LAST_ELIGIBLE: tuple[object, Dialect | None] = (None, None)

_OK = Status.OK


def _slot_setters(cls: type, names: str) -> list[Callable[[Any, Any], None]]:
    """The setters of a slotted dataclass's fields, which must be exactly those named (see :func:`_ok_outcome`)."""
    if names.split() != [field.name for field in dataclasses.fields(cls)]:
        raise TypeError(f"{cls.__name__}'s fields changed: update the fast path's constructors in {__name__}")
    return [vars(cls)[name].__set__ for name in names.split()]


_OUTCOME_SLOTS = _slot_setters(Outcome, "status value raw results step arg message cause")
_VERDICT_SLOTS = _slot_setters(OfficialVerdict, "valid value leftover")


def _ok_outcome(value: float | bool, raw: float | bool, results: tuple[float | bool, ...]) -> Outcome[float]:
    """``Outcome(Status.OK, value, raw, results)``, written straight into its slots: a frozen dataclass's
    ``__init__`` reaches each field through ``object.__setattr__``, which costs the cold run more than the
    arithmetic. The same object, field for field (the corpus tests compare them by repr)."""
    made: Outcome[float] = Outcome.__new__(Outcome)
    status, value_, raw_, results_, step, arg, message, cause = _OUTCOME_SLOTS
    status(made, _OK)
    value_(made, value)
    raw_(made, raw)
    results_(made, results)
    step(made, None)
    arg(made, None)
    message(made, "")
    cause(made, None)
    return made


def _valid_verdict(value: float | str | None) -> OfficialVerdict:
    """``OfficialVerdict(True, value)``, written straight into its slots (as :func:`_ok_outcome`)."""
    made = OfficialVerdict.__new__(OfficialVerdict)
    valid, value_, leftover = _VERDICT_SLOTS
    valid(made, True)
    value_(made, value)
    leftover(made, None)
    return made


class Compiled:
    """A program as a flat op array over one list of slots: step results first (slot k is step k), then the
    constants, then (at negative indices, from the end) the values of the rows the program reads.

    ``ops`` holds ``function, slot, slot`` per step, in one flat tuple (one object per program, not one per
    step, for the memory kept and the cyclic collector), ``steps`` their count; ``rows`` the row names,
    ``row_reads`` per row 1 + the table steps scanning it (the factor of its cells in the work count); ``bare``
    the value of a bare-literal program; ``official_ok`` whether the official evaluator's answer is the contract's;
    ``outcome`` the Outcome of a program that reads no table, computed once.
    """

    __slots__ = ("_program", "source", "consts", "rows", "row_reads", "ops", "steps", "bare", "longest",
                 "official_ok", "outcome", "verdict")

    def __init__(self, program: Program | None, consts: list[Any], rows: tuple[str, ...], row_reads: tuple[int, ...],
                 ops: tuple[Any, ...], bare: float | None, longest: int, official_ok: bool, source: str = "") -> None:
        self._program = program
        self.source = source
        self.consts = consts
        self.rows = rows
        self.row_reads = row_reads
        self.ops = ops
        self.steps = len(ops) // 3
        self.bare = bare
        self.longest = longest
        self.official_ok = official_ok
        self.outcome: Outcome[float] | None = None
        self.verdict: OfficialVerdict | None = None

    @property
    def program(self) -> Program:
        """The parsed program; compiled from canonical text or a bare literal (``source``) it is built on first
        read, by the parser's own reading of that form (:func:`~progexec.grammar.parse.canonical_program`)."""
        program = self._program
        if program is None:
            program = canonical_program(self.source)
            assert program is not None, "compile_text keeps only canonical text as a source"
            self._program = program
        return program


def compile_program(program: Program, dialect: Dialect) -> Compiled | None:
    """The flat form of ``program`` under ``dialect``'s Float64, or None when the general path must run it.

    A literal is accepted exactly when Float64's ``literal`` accepts it (a number, percentage or constant,
    finite); a reference must point back at a step that is not a yes/no result.
    """
    rule = dialect.literals
    official_ok = not program.official_invalid and (program.bare is None or dialect.bare_numbers)
    if program.bare is not None:
        value = read_str_to_num(program.bare.text, rule)
        if value is None or value - value != 0.0:
            return None
        return Compiled(program, [], (), (), (), value, len(program.bare.text), official_ok)
    steps = program.steps
    count = len(steps)
    if not count:
        return None
    consts: list[Any] = [None] * count  # the step results' slots, then the constants
    rows: list[str] = []
    reads: list[int] = []
    ops: list[Any] = []  # function, slot, slot per step
    longest = 0
    booleans: set[int] = set()
    for index, step in enumerate(steps):
        spec = _SPECS.get(step.op)
        args = step.args
        if spec is None or len(args) != 2:
            return None
        function, row_op, yes_no = spec
        if row_op:
            row = args[0]
            if type(row) is not Row:
                return None
            if row.name in rows:
                place = rows.index(row.name)
                reads[place] += 1
            else:
                place = len(rows)
                rows.append(row.name)
                reads.append(2)
            ops += function, -1 - place, -1 - place
            continue
        slots = []
        for arg in args:
            kind = type(arg)
            if kind is Ref:
                target = arg.index  # type: ignore[union-attr]
                if target >= index or target in booleans:
                    return None
                slots.append(target)
            elif kind is Num:
                text = arg.text  # type: ignore[union-attr]
                number = read_str_to_num(text, rule)
                if number is None or number - number != 0.0:
                    return None
                if len(text) > longest:
                    longest = len(text)
                slots.append(len(consts))
                consts.append(number)
            else:
                return None
        if yes_no:
            booleans.add(index)
        ops += function, slots[0], slots[1]
    return Compiled(program, consts, tuple(rows), tuple(reads), tuple(ops), None, longest, official_ok)


def compile_text(text: str, dialect: Dialect) -> Compiled | None:
    """``compile_program(parse_program(text), dialect)`` in one pass over the text: the canonical form
    (:func:`~progexec.grammar.parse.canonical_steps`) is read, classified and numbered step by step, with no
    syntax tree (the Compiled builds its Program on first read) and no cache of its parts, and so is a bare
    literal the fast parser takes; any other text (spaces or parentheses the fast parser leaves to the grammar,
    a syntax error) goes through the parser and :func:`compile_program`. Both give the same Compiled.

    Each argument is read as :func:`~progexec.grammar.tokens.classify_arg` reads it: with a ``#``, a reference
    when it is ``#`` and ASCII digits, else a literal; the first argument of a table op, a row name; any other,
    a literal."""
    if len(text) > current().max_program_chars:  # parse_program's first check, under the limits in force
        return None
    parts = canonical_steps(text)
    if parts is None:
        if canonical_literal(text):  # compile_program's reading of a bare literal
            value = read_str_to_num(text, dialect.literals)
            if value is None or value - value != 0.0:
                return None
            return Compiled(None, [], (), (), (), value, len(text), dialect.bare_numbers, text)
        try:
            return compile_program(parse_program(text), dialect)
        except ProgramSyntaxError:
            return None
    rule = dialect.literals
    removed = rule.removed
    plain = len(removed) == 1  # read_str_to_num removes one character first: text without it goes to float as is
    marker = rule.const_marker  # (a constant goes to read_str_to_num at once: float would only raise)
    consts: list[Any] = [None] * len(parts)  # the step results' slots, then the constants
    rows: list[str] = []
    reads: list[int] = []
    ops: list[Any] = []  # function, slot, slot per step
    longest = 0
    booleans: set[int] = set()
    for index, (op, first, second) in enumerate(parts):
        spec = _SPECS.get(op)
        if spec is None:
            return None
        function, row_op, yes_no = spec
        if row_op:  # a table op (TABLE_OPS): its first argument is a row name unless it has a '#'
            if "#" in first:
                return None
            if first in rows:
                place = rows.index(first)
                reads[place] += 1
            else:
                place = len(rows)
                rows.append(first)
                reads.append(2)
            ops += function, -1 - place, -1 - place
            continue
        slots = []
        for arg in (first, second):
            if "#" in arg and arg[0] == "#" and (digits := arg.replace("#", "")).isdigit() and digits.isascii():
                target = int(digits)  # a reference, as classify_arg reads it (every '#' removed: '#0#' is #0)
                if target >= index or target in booleans:
                    return None
                slots.append(target)
                continue
            try:  # a literal: every other argument of an arithmetic op; plain float text is read here at once
                number = float(arg) if plain and removed not in arg and marker not in arg \
                    else read_str_to_num(arg, rule)
            except ValueError:
                number = read_str_to_num(arg, rule)
            if number is None or number - number != 0.0:
                return None
            if len(arg) > longest:
                longest = len(arg)
            slots.append(len(consts))
            consts.append(number)
        if yes_no:
            booleans.add(index)
        ops += function, slots[0], slots[1]
    return Compiled(None, consts, tuple(rows), tuple(reads), tuple(ops), None, longest, True, text)


def _row_values(compiled: Compiled, table: Table | None, limits: Limits, rule: LiteralRule) -> list[list[float]] | None:
    """The numbers of every row the program reads, last row first, or None where the general path refuses
    (or must count: more than :data:`MAX_FAST_CELLS` cells of work)."""
    if table is None or len(table) > current().max_fast_cells:
        return None
    try:
        named: dict[Any, Sequence[Any]] = {}
        for line in table:
            if len(line) == 0:
                return None
            named[line[0]] = line[1:]
        chosen = [named.get(name) for name in compiled.rows]
        work = sum(len(row or ()) * reads for row, reads in zip(chosen, compiled.row_reads))
        if work > current().max_fast_cells:
            return None
        bound = limits.max_literal_chars
        values: list[list[float]] = []
        for row in reversed(chosen):
            if not row:
                return None
            numbers: list[float] = []
            for cell in row:
                if len(cell) > bound:
                    return None
                number = read_str_to_num(clean_cell(cell), rule)
                if number is None or number - number != 0.0:
                    return None
                numbers.append(number)
            values.append(numbers)
        return values
    except Exception:  # an odd table (cells that are not strings): the general path decides, as it always has
        return None


def run_compiled(compiled: Compiled, table: Table | None, limits: Limits, dialect: Dialect) -> Outcome[float] | None:
    """The Outcome of ``compiled`` over ``table``, equal to the general path's, or None where that path
    must run (any refusal, any bound exceeded)."""
    if compiled.longest > limits.max_literal_chars or compiled.steps > limits.max_steps:
        return None
    outcome = compiled.outcome
    if outcome is not None:
        return outcome
    if compiled.bare is not None:
        value = compiled.bare
        outcome = compiled.outcome = _ok_outcome(round(value, 5), value, (value,))
        return outcome
    slots = compiled.consts.copy()
    if compiled.rows:
        rows = _row_values(compiled, table, limits, dialect.literals)
        if rows is None:
            return None
        slots += rows
    step = 0
    try:
        ops = iter(compiled.ops)
        for function, first, second in zip(ops, ops, ops):
            result = function(slots[first], slots[second])
            if result - result != 0.0:  # NaN or an infinity: the general path refuses it
                return None
            slots[step] = result
            step += 1
    except (ArithmeticError, ValueError):  # division by zero, overflow: the general path names it
        return None
    final = slots[step - 1]
    results = tuple(slots[:step])
    if type(final) is bool:
        outcome = _ok_outcome(final, final, results)
    else:
        outcome = _ok_outcome(round(final, 5), final, results)
    if not compiled.rows:
        compiled.outcome = outcome  # no table read: the same program always has the same outcome
    return outcome


STEP_BYTES = 500
"""Bytes counted per step of a cached compiled program (its parsed step, op tuple and constant slot)."""

TOKEN_BYTES = 60
"""Bytes counted per token of a program given as a token list (the tuple slot and the string's header)."""


def entry_bytes(key: object, compiled: Compiled | None) -> int:
    """The estimated size of one cache entry, from the program's step count and its text's length (deterministic:
    the same on every Python version and machine)."""
    if type(key) is str:
        size = ENTRY_OVERHEAD + CHAR_BYTES * len(key)  # text_size(key), inline: every cold program pays it
    else:
        tokens: tuple[str, ...] = key  # type: ignore[assignment]
        size = text_size(*tokens) + TOKEN_BYTES * len(tokens)
    if compiled is not None:
        size += STEP_BYTES * max(1, compiled.steps)
    return size


_ABSENT = object()


class ProgramCache:
    """Compiled programs by (dialect, text or token tuple), within ``max_compiled_bytes`` of estimated size
    (:func:`entry_bytes`) and ``max_compiled_programs`` entries (bounds of :class:`~progexec.limits.Limits`; the
    oldest is dropped first). A key that cannot be compiled is kept as None, so it is tried once."""

    def __init__(self) -> None:
        self.store: ByteCache[tuple[Dialect, object], Compiled | None] = ByteCache()
        self.entries = self.store.entries

    def get(self, dialect: Dialect, key: object, make: Callable[[], Compiled | None], limits: Limits) -> Compiled | None:
        """The compiled program of ``key``, from the cache or ``make()`` (None: the general path runs it)."""
        cache_key = (dialect, key)
        found = self.entries.get(cache_key, _ABSENT)  # a miss raises no KeyError: the cold path is the common one
        if found is not _ABSENT:
            return found  # type: ignore[return-value]
        compiled = make()
        if limits.max_compiled_programs:
            self.store.put(cache_key, compiled, entry_bytes(key, compiled), limits.max_compiled_bytes,
                           limits.max_compiled_programs)
        return compiled

    @property
    def total_bytes(self) -> int:
        """The estimated bytes held (the sum of :func:`entry_bytes` of the entries kept)."""
        return self.store.total

    def clear(self) -> None:
        self.store.clear()


CACHE = ProgramCache()
"""The process's compiled programs (thread-safe: a lookup is one dictionary operation, an insertion holds a lock)."""


def _compile_tokens(tokens: tuple[str, ...], dialect: Dialect) -> Compiled | None:
    """The compiled program of an official token list, or None (a syntax error: the general path names it)."""
    try:
        return compile_program(parse_token_list(tokens), dialect)
    except ProgramSyntaxError:
        return None


def fast_outcome(program: str | Sequence[str], table: Table | None, dialect: Dialect,
                 limits: Limits | None = None, clock: bool = False) -> tuple[Compiled, Outcome[float]] | None:
    """The compiled program and its Outcome, or None where the general path must run.

    The clock is honoured as the general path honours it, once per program instead of once per step: a
    deadline already set around the call (:func:`~progexec.limits.run_with_deadline`) that has passed raises
    ItemTimeLimitExceeded; with ``clock`` (the runner, which sets no deadline first), a run that took longer
    than ``item_time_limit`` returns None, so the general path runs it under its clock and says so.
    """
    spec = eligible(dialect)
    if spec is None:
        return None
    started = time.monotonic() if clock else 0.0
    chosen = limits if limits is not None else current()
    if isinstance(program, str):
        if len(program) > chosen.max_program_chars:
            return None
        text = program
        compiled = CACHE.get(spec, program, lambda: compile_text(text, spec), chosen)
    else:
        key = tuple(program)
        if not all(type(token) is str for token in key):
            return None
        compiled = CACHE.get(spec, key, lambda: _compile_tokens(key, spec), chosen)
    if compiled is None:
        return None
    outcome = run_compiled(compiled, table, chosen, spec)
    if outcome is None:
        return None
    check_deadline()
    if clock and 0 < chosen.item_time_limit < time.monotonic() - started:
        return None
    return compiled, outcome


def fast_verdict(compiled: Compiled, outcome: Outcome[float]) -> OfficialVerdict | None:
    """The official verdict when it is the contract's answer (else None: model the official loop)."""
    if not compiled.official_ok:
        return None
    if outcome is compiled.outcome and compiled.verdict is not None:
        return compiled.verdict  # a program that reads no table: its verdict, like its Outcome, is kept
    value = outcome.value
    verdict = _valid_verdict(("yes" if value else "no") if type(value) is bool else value)
    if outcome is compiled.outcome:
        compiled.verdict = verdict
    return verdict


__all__ = ["Compiled", "compile_program", "run_compiled", "fast_outcome", "fast_verdict", "CACHE", "MAX_FAST_CELLS"]
