"""Official program accuracy (FinQA/ConvFinQA ``equal_program``), decided mostly without sympy.

The official rule (SPEC §1): every distinct non-reference argument string of the
gold program, and every whole table step, becomes a symbol ``a0, a1, ...`` in
order of first appearance; the prediction may use only those strings and only
backward references; both programs become expression strings such as
``( ( a0 - a1 ) / a1 )`` and are compared after ``sympy.simplify``, with ``==``.

The string handling here follows the official reading exactly (tokens joined
with ``|``, split on ``)``, each step stripped, so a table step's key includes
a leading ``|`` unless it is the first step). Only the final comparison is
reorganised, cheapest proof first (the proofs live in :mod:`.shortcuts`):

1. identical expression strings: equal (``simplify`` is a function of its input);
2. equal canonical ``sympify`` keys (same terms/factors up to order, grouping and
   like-term collection): equal, as both sides reach ``simplify`` as one expression;
3. a division by a sum that cancels to zero on one side only: not equal;
4. exact values (or rigorous intervals, with ``exp``) that differ at a fixed
   pseudo-random point, or comparisons whose truth values differ there: not
   equal, because ``simplify`` preserves values;
5. a comparison against an arithmetic expression: not equal;
6. anything else (mathematically equal but differently written): sympy, exactly
   as the official script calls it, cached by expression string.

On the seven real prediction sets no pair reaches step 6.

Failures on the gold side are what the official script would crash on; they
are reported as ``GOLD_ERROR`` instead of raised.
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..grammar.tokens import ALL_OPS, official_step_parts as _parts, official_steps as _split_steps
from ..core.bytecache import ENTRY_OVERHEAD, memo
from ..core.registry import get_dataset as get_dialect
from ..core.ops import FINQA_SYMBOLS
from ..core.limits import DEFAULT_LIMITS, ItemTimeLimitExceeded, check_deadline, current, run_with_time_limit
from ..core.errors import OfficialAbort
from .shortcuts import EXP, GREATER, Expr, canonical_key, degenerate, differ_at_points, differ_by_intervals, has_op, \
    is_plain_relation, top_level_only, truth_differs
from ..core.plural import plural

_OPS = frozenset(ALL_OPS)
_SYMBOLS = FINQA_SYMBOLS


class Why(str, enum.Enum):
    """Why a program-accuracy decision came out as it did (a finding kind, never formatted text)."""

    OK = "ok"  # counted: equal (and, for ConvFinQA, executed validly)
    EQUAL = "equal"
    EXECUTION_INVALID = "execution_invalid"  # ConvFinQA: equal, not counted because the execution was invalid
    NO_PROGRAM = "no_program"
    STRUCTURE = "invalid_structure"
    UNKNOWN_SYMBOL = "unknown_symbol"
    UNKNOWN_TABLE_STEP = "unknown_table_step"
    FORWARD_REFERENCE = "forward_reference"
    BAD_REFERENCE = "bad_reference"
    NO_STEPS = "no_steps"
    SYMBOLIC_ERROR = "symbolic_error"
    DIFFERENT = "different_expression"
    BARE_NUMBER_DIFFERS = "bare_number_differs"
    GOLD_ERROR = "gold_error"
    TOO_LARGE = "expression_too_large"  # the official expansion would be astronomically large
    TIME_LIMIT = "time_limit"  # not decided within the per-item limit (the official loop would not finish either)


class Decider(enum.Enum):
    """Which step of the decision procedure settled the pair (for benchmarks and --items)."""

    RULE = "rule"
    IDENTICAL = "identical"
    CANONICAL = "canonical"
    NUMERIC = "numeric"
    SYMPY = "sympy"


@dataclass(frozen=True, slots=True)
class ProgramMatch:
    """The outcome of the official ``equal_program(gold, pred)`` for one pair."""

    equal: bool
    why: Why
    decided_by: Decider
    detail: str = ""

    @property
    def gold_error(self) -> bool:
        """True when the official script would have raised on the gold program."""
        return self.why is Why.GOLD_ERROR


def _gold_symbols(tokens: Sequence[str]) -> tuple[dict[str, str], dict[int, str]]:
    """The gold symbol map (argument string or table step -> ``aK``) and step strings by index."""
    symbols: dict[str, str] = {}
    steps: dict[int, str] = {}
    for index, raw in enumerate(_split_steps(tokens)):
        if len(raw.strip().split("(")) > 2:
            raise OfficialAbort(f"gold step {index} has more than one '('")
        try:
            step, op, arg1, arg2 = _parts(raw)
        except IndexError:
            raise OfficialAbort(f"gold step {index} is not 'op(arg1, arg2)'") from None
        steps[index] = step
        keys = [step] if "table" in op else [arg for arg in (arg1, arg2) if "#" not in arg]
        for key in keys:
            if key not in symbols:
                symbols[key] = f"a{len(symbols)}"
    return symbols, steps


def _check_prediction(tokens: Sequence[str], symbols: dict[str, str]) -> dict[int, str]:
    """The official checks on the prediction; returns its step strings or raises OfficialAbort (its kind the Why)."""
    body = tokens[:-1]
    for index, token in enumerate(body):
        if index % 4 == 0 and token.strip("(") not in _OPS:
            raise OfficialAbort(f"token {index} {token!r} is not an op", kind=Why.STRUCTURE.value)
        if (index + 1) % 4 == 0 and token != ")":
            raise OfficialAbort(f"token {index} {token!r} is not ')'", kind=Why.STRUCTURE.value)
    steps: dict[int, str] = {}
    for index, raw in enumerate(_split_steps(tokens)):
        if len(raw.strip().split("(")) > 2:
            raise OfficialAbort(f"step {index} has more than one '('", kind=Why.STRUCTURE.value)
        try:
            step, op, arg1, arg2 = _parts(raw)
        except IndexError:
            raise OfficialAbort(f"step {index} is not 'op(arg1, arg2)'", kind=Why.STRUCTURE.value) from None
        steps[index] = step
        if "table" in op:
            if step not in symbols:
                raise OfficialAbort(f"table step {step!r} is not a gold table step", kind=Why.UNKNOWN_TABLE_STEP.value)
            continue
        for arg in (arg1, arg2):
            if "#" not in arg:
                if arg not in symbols:
                    raise OfficialAbort(f"argument {arg!r} is not in the gold program", kind=Why.UNKNOWN_SYMBOL.value)
                continue
            try:
                target = int(arg.strip("#"))
            except ValueError:
                raise OfficialAbort(f"reference {arg!r} is not a step number", kind=Why.BAD_REFERENCE.value) from None
            if target >= index:
                raise OfficialAbort(f"step {index} refers to step {target}", kind=Why.FORWARD_REFERENCE.value)
    return steps


MAX_EXPANDED_NODES = DEFAULT_LIMITS.max_expanded_nodes
"""The default largest expression tree built (the bound in force: ``limits.current().max_expanded_nodes``). The official ``symbol_recur`` re-expands every
reference, so ``add(#0, #0), add(#1, #1), ...`` doubles at each step: such a pair could never finish
there, and is reported as not equal (why ``expression_too_large``) before any tree is built."""


def _expanded_size(steps: dict[int, str]) -> int:
    """Node count of the last step's fully expanded tree, by one pass over the steps (capped)."""
    sizes: dict[int, int] = {}
    cap = current().max_expanded_nodes
    for index in sorted(steps):
        try:
            _, op, arg1, arg2 = _parts(steps[index])
        except IndexError:
            sizes[index] = 1
            continue
        total = 1
        if "table" not in op:
            for arg in (arg1, arg2):
                reference = arg.replace("#", "") if "#" in arg else ""
                total += sizes.get(int(reference), 1) if reference.isdigit() else 1
        sizes[index] = min(total, cap + 1)
    return sizes[max(sizes)] if sizes else 0


def _tree(step: str, steps: dict[int, str], symbols: dict[str, str], depth: int = 0) -> Expr:
    """The official ``symbol_recur`` as a tree; raises KeyError/ValueError/IndexError/RecursionError like it."""
    if depth > 200:
        raise RecursionError("reference chain too deep")
    check_deadline()
    step, op, arg1, arg2 = _parts(step)
    if "table" in op:
        return symbols[step]
    children: list[Expr] = []
    for arg in (arg1, arg2):
        if "#" in arg:
            children.append(_tree(steps[int(arg.replace("#", ""))], steps, symbols, depth + 1))
        else:
            children.append(symbols[arg])
    if op not in _SYMBOLS:
        raise ValueError(f"op {op!r} has no symbolic form")  # the official recursion returns None here
    return (op, children[0], children[1])


def render(expr: Expr) -> str:
    """The official expression string, e.g. ``( ( a0 - a1 ) / a1 )``."""
    if isinstance(expr, str):
        return expr
    op, left, right = expr
    return f"( {render(left)} {_SYMBOLS[op]} {render(right)} )"


_SYMPY_LOCK = threading.Lock()
"""sympy keeps process-wide caches: one simplify at a time, so threads get the serial answers."""


class _SympyNeeded(BaseException):
    """Raised (through any clock and any broad ``except Exception``) by the first pair that needs sympy
    before sympy is loaded: :func:`equal_program` then loads it outside the clock and decides again."""


_SYMPY_READY = threading.Event()


def prepare_symbolic() -> None:
    """Import sympy (a second or more) outside any item's clock: an import cut short by the clock would
    leave sympy half-loaded and turn every later symbolic comparison into an error. Only the runs that
    reach a symbolic comparison pay for it (most never do)."""
    import sympy  # type: ignore[import-untyped, unused-ignore]  # noqa: F401

    _SYMPY_READY.set()


SYMPY_CHAR_BYTES = 64
"""Bytes counted per character of a simplified expression's text (a sympy tree holds a few nodes per character)."""


@memo("max_memo_bytes", lambda args, value: ENTRY_OVERHEAD + SYMPY_CHAR_BYTES * len(args[0]))
def _simplified(text: str) -> Any:
    """``sympy.simplify(text, evaluate=False)`` exactly as the official script calls it, cached."""
    if not _SYMPY_READY.is_set():
        raise _SympyNeeded()
    from sympy import simplify  # type: ignore[import-untyped, unused-ignore]  # loaded by prepare_symbolic()

    with _SYMPY_LOCK:
        return simplify(text, evaluate=False)


SYMPY_CALLS = {"count": 0}
"""How many pairs reached sympy in this process (read by the benchmark)."""


def equal_program(gold: Sequence[str], pred: Sequence[str], dialect: str = "finqa",
                  fast: bool = True) -> ProgramMatch:
    """The official ``equal_program(gold, pred)``, under the per-item time limit (``progexec.limits``).

    The official expansion of references is exponential (``add(#0, #0), add(#1, #1), …`` doubles
    at every step), so a pair it could never finish is reported as not equal with why ``time_limit``.
    """
    try:
        try:
            return run_with_time_limit(lambda: _equal_program(gold, pred, dialect, fast))
        except _SympyNeeded:  # out of the clock now: load sympy, then decide the pair again
            prepare_symbolic()
            return run_with_time_limit(lambda: _equal_program(gold, pred, dialect, fast))
    except ItemTimeLimitExceeded as exceeded:
        return ProgramMatch(False, Why.TIME_LIMIT, Decider.RULE,
                            f"not decided within the per-item time limit of {exceeded.seconds:g} s")


def _equal_program(gold: Sequence[str], pred: Sequence[str], dialect: str = "finqa",
                   fast: bool = True) -> ProgramMatch:
    """The official ``equal_program(gold, pred)`` for token lists (``EOF`` last), never raising.

    A dialect with bare-number programs (ConvFinQA) adds its rule for a one-token gold program:
    equal when the prediction has exactly two tokens and its first is the same string.
    ``fast=False`` skips the shortcuts and asks sympy for every pair that reaches the
    symbolic comparison, as the official script does (the reference the tests compare with).
    """
    if get_dialect(dialect).bare_numbers and len(gold) - 1 == 1:
        if len(pred) == 2 and pred[0] == gold[0]:
            return ProgramMatch(True, Why.EQUAL, Decider.RULE)
        return ProgramMatch(False, Why.BARE_NUMBER_DIFFERS, Decider.RULE)
    try:
        symbols, gold_steps = _gold_symbols(gold)
    except OfficialAbort as failure:  # the official script raises outside its try
        return ProgramMatch(False, Why.GOLD_ERROR, Decider.RULE, str(failure))
    try:
        pred_steps = _check_prediction(pred, symbols)
    except OfficialAbort as failure:  # the official script's try catches this: not equal
        return ProgramMatch(False, Why(failure.kind), Decider.RULE, str(failure))
    except Exception as error:  # the official try catches anything (e.g. a non-string token)
        return ProgramMatch(False, Why.STRUCTURE, Decider.RULE, f"{type(error).__name__}: {error}")
    gold_list = _split_steps(gold)
    if not gold_list:
        return ProgramMatch(False, Why.GOLD_ERROR, Decider.RULE, "the gold program has no steps")
    cap = current().max_expanded_nodes
    if _expanded_size(gold_steps) > cap:  # reachable when a peer swaps the arguments
        return ProgramMatch(False, Why.TOO_LARGE, Decider.RULE,
                            f"the expanded first program has more than {plural(cap, 'node')} (max_expanded_nodes)")
    try:
        gold_tree = _tree(gold_list[-1], gold_steps, symbols)
    except (KeyError, ValueError, IndexError, RecursionError) as error:
        return ProgramMatch(False, Why.GOLD_ERROR, Decider.RULE, f"gold: {type(error).__name__}: {error}")
    pred_list = _split_steps(pred)
    if not pred_list:
        return ProgramMatch(False, Why.NO_STEPS, Decider.RULE, "the prediction has no complete step")
    if _expanded_size(pred_steps) > cap:
        return ProgramMatch(False, Why.TOO_LARGE, Decider.RULE,
                            f"the expanded expression has more than {plural(cap, 'node')} (max_expanded_nodes)")
    try:
        pred_tree = _tree(pred_list[-1], pred_steps, symbols)
    except (KeyError, ValueError, IndexError, RecursionError) as error:
        return ProgramMatch(False, Why.SYMBOLIC_ERROR, Decider.RULE, f"{type(error).__name__}: {error}")
    gold_text, pred_text = render(gold_tree), render(pred_tree)
    if not fast:
        return _by_sympy(gold_text, pred_text)
    if gold_text == pred_text:
        return _checked_gold(gold_text, ProgramMatch(True, Why.EQUAL, Decider.IDENTICAL))
    gold_key = canonical_key(gold_tree)
    if gold_key is not None and gold_key == canonical_key(pred_tree):
        return _checked_gold(gold_text, ProgramMatch(True, Why.EQUAL, Decider.CANONICAL))
    gold_greater, pred_greater = has_op(gold_tree, GREATER), has_op(pred_tree, GREATER)
    if not gold_greater and not pred_greater:
        count = len(symbols)
        if degenerate(gold_tree) != degenerate(pred_tree):
            # x / (y - y): sympy builds zoo or nan, which no finite expression equals
            return ProgramMatch(False, Why.DIFFERENT, Decider.RULE, "a division by a sum that cancels to zero")
        if has_op(gold_tree, EXP) or has_op(pred_tree, EXP):
            if differ_by_intervals(gold_tree, pred_tree, count):
                return ProgramMatch(False, Why.DIFFERENT, Decider.NUMERIC)
        elif differ_at_points(gold_tree, pred_tree, count):
            return ProgramMatch(False, Why.DIFFERENT, Decider.NUMERIC)
    elif is_plain_relation(gold_tree) and is_plain_relation(pred_tree):
        if truth_differs(gold_tree, pred_tree, len(symbols)):
            return ProgramMatch(False, Why.DIFFERENT, Decider.NUMERIC)
    elif top_level_only(gold_tree) and top_level_only(pred_tree) and (
            isinstance(gold_tree, str) or isinstance(pred_tree, str) or
            (gold_tree[0] in GREATER) != (pred_tree[0] in GREATER)):
        # a relation (or true/false) never equals an arithmetic expression after simplify
        return ProgramMatch(False, Why.DIFFERENT, Decider.RULE, "a comparison against an arithmetic expression")
    return _by_sympy(gold_text, pred_text)


def _checked_gold(gold_text: str, match: ProgramMatch) -> ProgramMatch:
    """A gold expression sympy cannot build (``greater`` inside arithmetic) crashes the official script."""
    if "> " in gold_text and gold_text.count("(") > 1 and not _gold_sympifies(gold_text):
        return ProgramMatch(False, Why.GOLD_ERROR, Decider.SYMPY, "gold expression does not sympify")
    return match


def _gold_sympifies(text: str) -> bool:
    try:
        _simplified(text)
    except Exception:
        return False
    return True


def _by_sympy(gold_text: str, pred_text: str) -> ProgramMatch:
    bound = current().max_symbolic_nodes
    for side, text in (("first", gold_text), ("second", pred_text)):
        if text.count("(") > bound:
            return ProgramMatch(False, Why.TOO_LARGE, Decider.RULE,
                                f"the {side} expression has more than {plural(bound, 'operation')} for sympy "
                                f"(max_symbolic_nodes)")
    SYMPY_CALLS["count"] += 1
    try:
        gold_expr = _simplified(gold_text)
    except Exception as error:
        return ProgramMatch(False, Why.GOLD_ERROR, Decider.SYMPY, f"gold: {type(error).__name__}: {error}")
    try:
        pred_expr = _simplified(pred_text)
    except Exception as error:
        return ProgramMatch(False, Why.SYMBOLIC_ERROR, Decider.SYMPY, f"{type(error).__name__}: {error}")
    if bool(gold_expr == pred_expr):
        return ProgramMatch(True, Why.EQUAL, Decider.SYMPY)
    return ProgramMatch(False, Why.DIFFERENT, Decider.SYMPY)
