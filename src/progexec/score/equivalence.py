"""Official program accuracy (FinQA/ConvFinQA ``equal_program``), decided mostly without sympy.

The official rule (SPEC §1): every distinct non-reference argument string of the
gold program, and every whole table step, becomes a symbol ``a0, a1, ...`` in
order of first appearance; the prediction may use only those strings and only
backward references; both programs become expression strings such as
``( ( a0 - a1 ) / a1 )`` and are compared after ``sympy.simplify``, with ``==``.

The string handling here follows the official reading exactly (tokens joined
with ``|``, split on ``)``, each step stripped, so a table step's key includes
a leading ``|`` unless it is the first step). Only the final comparison is
reorganised, cheapest proof first:

1. identical expression strings: equal (``simplify`` is a function of its input);
2. identical up to reordering and regrouping of ``+`` and ``*`` arguments:
   equal, because ``sympify`` already sorts and flattens ``Add``/``Mul``, so
   both sides reach ``simplify`` as the same expression;
3. exact rational evaluation at fixed pseudo-random points where both sides are
   defined gives different values: not equal, because ``simplify`` preserves
   value, so structurally equal results would agree everywhere;
4. anything else (mathematically equal but differently written, or using
   ``exp``/``greater``): sympy, exactly as the official script calls it, cached
   by expression string.

Failures on the gold side are what the official script would crash on; they
are reported as ``GOLD_ERROR`` instead of raised.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Union

from ..grammar.tokens import ALL_OPS

_OPS = frozenset(ALL_OPS)
_SYMBOLS = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/", "exp": "**", "greater": ">"}


class Why(enum.Enum):
    """Why a program-accuracy decision came out as it did (a finding kind, never formatted text)."""

    EQUAL = "equal"
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


Expr = Union[str, tuple[str, "Expr", "Expr"]]
"""An expression tree: a symbol name, or ``(op, left, right)``."""


class _GoldFailure(Exception):
    """The official script raises (outside its ``try``) on this gold program."""


class _PredFailure(Exception):
    """The official script's ``try`` catches this on the predicted program: not equal."""

    def __init__(self, why: Why, detail: str = "") -> None:
        super().__init__(detail)
        self.why = why
        self.detail = detail


def _split_steps(tokens: Sequence[str]) -> list[str]:
    """The official step strings: drop the last token, join with ``|``, split on ``)``, keep all but the last piece."""
    return "|".join(tokens[:-1]).split(")")[:-1]


def _parts(step: str) -> tuple[str, str, str, str]:
    """``(stripped step, op, arg1, arg2)`` read the official way; raises on malformed steps."""
    step = step.strip()
    pieces = step.split("(")
    op = pieces[0].strip("|").strip()
    args = pieces[1].strip("|").strip()
    fields = args.split("|")
    return step, op, fields[0].strip(), fields[1].strip()


def _gold_symbols(tokens: Sequence[str]) -> tuple[dict[str, str], dict[int, str]]:
    """The gold symbol map (argument string or table step -> ``aK``) and step strings by index."""
    symbols: dict[str, str] = {}
    steps: dict[int, str] = {}
    for index, raw in enumerate(_split_steps(tokens)):
        if len(raw.strip().split("(")) > 2:
            raise _GoldFailure(f"gold step {index} has more than one '('")
        try:
            step, op, arg1, arg2 = _parts(raw)
        except IndexError:
            raise _GoldFailure(f"gold step {index} is not 'op(arg1, arg2)'") from None
        steps[index] = step
        keys = [step] if "table" in op else [arg for arg in (arg1, arg2) if "#" not in arg]
        for key in keys:
            if key not in symbols:
                symbols[key] = f"a{len(symbols)}"
    return symbols, steps


def _check_prediction(tokens: Sequence[str], symbols: dict[str, str]) -> dict[int, str]:
    """The official checks on the prediction; returns its step strings or raises _PredFailure."""
    body = tokens[:-1]
    for index, token in enumerate(body):
        if index % 4 == 0 and token.strip("(") not in _OPS:
            raise _PredFailure(Why.STRUCTURE, f"token {index} {token!r} is not an op")
        if (index + 1) % 4 == 0 and token != ")":
            raise _PredFailure(Why.STRUCTURE, f"token {index} {token!r} is not ')'")
    steps: dict[int, str] = {}
    for index, raw in enumerate(_split_steps(tokens)):
        if len(raw.strip().split("(")) > 2:
            raise _PredFailure(Why.STRUCTURE, f"step {index} has more than one '('")
        try:
            step, op, arg1, arg2 = _parts(raw)
        except IndexError:
            raise _PredFailure(Why.STRUCTURE, f"step {index} is not 'op(arg1, arg2)'") from None
        steps[index] = step
        if "table" in op:
            if step not in symbols:
                raise _PredFailure(Why.UNKNOWN_TABLE_STEP, f"table step {step!r} is not a gold table step")
            continue
        for arg in (arg1, arg2):
            if "#" not in arg:
                if arg not in symbols:
                    raise _PredFailure(Why.UNKNOWN_SYMBOL, f"argument {arg!r} is not in the gold program")
                continue
            try:
                target = int(arg.strip("#"))
            except ValueError:
                raise _PredFailure(Why.BAD_REFERENCE, f"reference {arg!r} is not a step number") from None
            if target >= index:
                raise _PredFailure(Why.FORWARD_REFERENCE, f"step {index} refers to step {target}")
    return steps


def _tree(step: str, steps: dict[int, str], symbols: dict[str, str], depth: int = 0) -> Expr:
    """The official ``symbol_recur`` as a tree; raises KeyError/ValueError/IndexError/RecursionError like it."""
    if depth > 200:
        raise RecursionError("reference chain too deep")
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


class _Bail(Exception):
    """sympy's automatic evaluation might combine or cancel terms here: no canonical key."""


def _canonical(expr: Expr) -> Any:
    """A key that determines the expression ``sympify`` builds, or None when unsure.

    ``sympify`` (which ``simplify`` calls first) flattens and sorts ``Add`` and
    ``Mul``, turns ``x - y`` into ``x + (-1)*y`` (distributing the ``-1`` over a
    sum), ``x / y`` into ``x * y**-1`` (distributing ``**-1`` over a product), and
    combines like terms and like bases. The key is the multiset of signed terms
    or of (base, exponent) factors; whenever a combination or cancellation could
    happen (a repeated term or base, the inverse of a power, ``greater`` nested
    in arithmetic) it gives up, so equal keys always mean equal expressions.
    """
    try:
        return _key(expr)
    except _Bail:
        return None


def _key(expr: Expr) -> Any:
    if isinstance(expr, str):
        return expr
    op = expr[0]
    if op in ("add", "subtract"):
        collected = _collect(_terms(expr, 1))
        if len(collected) < 2:  # the sum collapsed to one term or to 0: its shape changes
            raise _Bail
        return ("+", tuple(sorted(collected, key=repr)))
    if op in ("multiply", "divide"):
        factors = _factors(expr, False)
        bases = [base for base, _ in factors]
        if len(set(map(repr, bases))) != len(bases):
            raise _Bail
        return ("*", tuple(sorted(factors, key=repr)))
    if op == "exp":
        return ("**", _key(expr[1]), _key(expr[2]))
    if op == "greater":
        if _has_op(expr[1], _GREATER) or _has_op(expr[2], _GREATER):
            raise _Bail
        left, right = _key(expr[1]), _key(expr[2])
        if left == right:
            raise _Bail
        return (">", left, right)
    raise _Bail


def _collect(terms: list[tuple[int, Any]]) -> list[tuple[int, Any]]:
    """Like terms combined as ``Add`` does (``a0 + a0`` -> ``2*a0``), zero coefficients dropped."""
    totals: dict[str, list[Any]] = {}
    for coefficient, key in terms:
        entry = totals.setdefault(repr(key), [0, key])
        entry[0] += coefficient
    return [(coefficient, key) for coefficient, key in totals.values() if coefficient != 0]


def _terms(expr: Expr, sign: int) -> list[tuple[int, Any]]:
    if not isinstance(expr, str) and expr[0] in ("add", "subtract"):
        second = sign if expr[0] == "add" else -sign
        return _terms(expr[1], sign) + _terms(expr[2], second)
    if not isinstance(expr, str) and expr[0] == "greater":
        raise _Bail
    return [(sign, _key(expr))]


def _factors(expr: Expr, inverted: bool) -> list[tuple[Any, Any]]:
    if not isinstance(expr, str) and expr[0] in ("multiply", "divide"):
        second = inverted if expr[0] == "multiply" else not inverted
        return _factors(expr[1], inverted) + _factors(expr[2], second)
    if not isinstance(expr, str) and expr[0] == "exp":
        if inverted:
            raise _Bail
        return [(_key(expr[1]), ("**", _key(expr[2])))]
    if not isinstance(expr, str) and expr[0] == "greater":
        raise _Bail
    return [(_key(expr), -1 if inverted else 1)]


def _has_op(expr: Expr, ops: frozenset[str]) -> bool:
    if isinstance(expr, str):
        return False
    return expr[0] in ops or _has_op(expr[1], ops) or _has_op(expr[2], ops)


_GREATER = frozenset({"greater"})
_EXP = frozenset({"exp"})


def _top_level_only(expr: Expr) -> bool:
    """True when ``greater`` appears at most as the outermost operation (so sympy can build the expression)."""
    if isinstance(expr, str):
        return True
    if expr[0] == "greater":
        return not _has_op(expr[1], _GREATER) and not _has_op(expr[2], _GREATER)
    return not _has_op(expr, _GREATER)
_POINTS = 3


@lru_cache(maxsize=64)
def _points(count: int) -> tuple[tuple[Fraction, ...], ...]:
    """Fixed pseudo-random rational points (deterministic: same input, same decision path)."""
    rng = random.Random(20211209)
    return tuple(tuple(Fraction(rng.randint(-10**6, 10**6), rng.randint(1, 10**4)) or Fraction(7, 3)
                       for _ in range(count)) for _ in range(_POINTS))


def _value(expr: Expr, point: tuple[Fraction, ...]) -> Fraction:
    if isinstance(expr, str):
        return point[int(expr[1:])]
    op, left, right = expr
    a, b = _value(left, point), _value(right, point)
    if op == "add":
        return a + b
    if op == "subtract":
        return a - b
    if op == "multiply":
        return a * b
    return a / b  # ZeroDivisionError: this point does not decide


@lru_cache(maxsize=64)
def _positive_points(count: int) -> tuple[tuple[Fraction, ...], ...]:
    """Fixed positive rational points for expressions with ``exp`` (real powers need positive bases)."""
    rng = random.Random(20220101)
    return tuple(tuple(Fraction(rng.randint(1, 10**6), rng.randint(1, 10**4)) for _ in range(count))
                 for _ in range(_POINTS + 2))


def _interval(expr: Expr, point: tuple[Any, ...]) -> Any:
    if isinstance(expr, str):
        return point[int(expr[1:])]
    op, left, right = expr
    a, b = _interval(left, point), _interval(right, point)
    if op == "add":
        return a + b
    if op == "subtract":
        return a - b
    if op == "multiply":
        return a * b
    if op == "divide":
        return a / b
    return a ** b


def _differ_by_intervals(gold: Expr, pred: Expr, count: int) -> bool:
    """True when rigorous interval evaluation (mpmath ``iv``) at a positive point separates the values.

    Used for expressions with ``exp``; a point where a value is complex or unbounded does not decide.
    """
    from mpmath import iv  # lazily: only pairs with ``exp`` get here

    iv.prec = 96
    for raw in _positive_points(count):
        point = tuple(iv.mpf(value.numerator) / value.denominator for value in raw)
        try:
            first, second = _interval(gold, point), _interval(pred, point)
        except (ZeroDivisionError, ValueError, OverflowError):
            continue
        if not (isinstance(first, iv.mpf) and isinstance(second, iv.mpf)):
            continue
        if first.b < second.a or second.b < first.a:
            return True
    return False


def _cancels_to_zero(expr: Expr) -> bool:
    """True when a sum's signed terms cancel exactly (``a2 - a2``), so sympify makes it 0."""
    try:
        terms = _terms(expr, 1)
    except _Bail:
        return False
    return len(terms) > 1 and not _collect(terms)


def _degenerate(expr: Expr) -> bool:
    """True when some division's denominator is a sum that cancels to zero."""
    if isinstance(expr, str):
        return False
    if expr[0] == "divide" and _cancels_to_zero(expr[2]):
        return True
    return _degenerate(expr[1]) or _degenerate(expr[2])


def _is_plain_relation(expr: Expr) -> bool:
    """A top-level ``greater`` of two rational expressions (no nested ``greater``, no ``exp``)."""
    return (not isinstance(expr, str) and expr[0] == "greater" and _top_level_only(expr)
            and not _has_op(expr, _EXP))


_RELATION_POINTS = 12


@lru_cache(maxsize=64)
def _relation_points(count: int) -> tuple[tuple[Fraction, ...], ...]:
    rng = random.Random(20221111)
    return tuple(tuple(Fraction(rng.randint(-10**6, 10**6), rng.randint(1, 10**4)) or Fraction(5, 3)
                       for _ in range(count)) for _ in range(_RELATION_POINTS))


def _truth_differs(gold: Expr, pred: Expr, count: int) -> bool:
    """True when the two comparisons have different truth values at some point where both are defined.

    ``simplify`` keeps a relation's truth value, so structurally equal results would agree everywhere.
    """
    assert not isinstance(gold, str) and not isinstance(pred, str)
    for point in _relation_points(count):
        try:
            first = _value(gold[1], point) > _value(gold[2], point)
            second = _value(pred[1], point) > _value(pred[2], point)
        except ZeroDivisionError:
            continue
        if first != second:
            return True
    return False


def _differ_somewhere(gold: Expr, pred: Expr, count: int) -> bool:
    """True when exact evaluation proves the two rational expressions differ."""
    for point in _points(count):
        try:
            if _value(gold, point) != _value(pred, point):
                return True
        except ZeroDivisionError:
            continue
    return False


@lru_cache(maxsize=8192)
def _simplified(text: str) -> Any:
    """``sympy.simplify(text, evaluate=False)`` exactly as the official script calls it, cached."""
    from sympy import simplify  # imported lazily: most runs never need it

    return simplify(text, evaluate=False)


SYMPY_CALLS = {"count": 0}
"""How many pairs reached sympy in this process (read by the benchmark)."""


def equal_program(gold: Sequence[str], pred: Sequence[str], dialect: str = "finqa",
                  fast: bool = True) -> ProgramMatch:
    """The official ``equal_program(gold, pred)`` for token lists (``EOF`` last), never raising.

    ``dialect="convfinqa"`` adds ConvFinQA's rule for a one-token gold program:
    equal when the prediction has exactly two tokens and its first is the same string.
    ``fast=False`` skips the shortcuts and asks sympy for every pair that reaches the
    symbolic comparison, as the official script does (the reference the tests compare with).
    """
    if dialect == "convfinqa" and len(gold) - 1 == 1:
        if len(pred) == 2 and pred[0] == gold[0]:
            return ProgramMatch(True, Why.EQUAL, Decider.RULE)
        return ProgramMatch(False, Why.BARE_NUMBER_DIFFERS, Decider.RULE)
    try:
        symbols, gold_steps = _gold_symbols(gold)
    except _GoldFailure as failure:
        return ProgramMatch(False, Why.GOLD_ERROR, Decider.RULE, str(failure))
    try:
        pred_steps = _check_prediction(pred, symbols)
    except _PredFailure as failure:
        return ProgramMatch(False, failure.why, Decider.RULE, failure.detail)
    except Exception as error:  # the official try catches anything (e.g. a non-string token)
        return ProgramMatch(False, Why.STRUCTURE, Decider.RULE, f"{type(error).__name__}: {error}")
    gold_list = _split_steps(gold)
    if not gold_list:
        return ProgramMatch(False, Why.GOLD_ERROR, Decider.RULE, "the gold program has no steps")
    try:
        gold_tree = _tree(gold_list[-1], gold_steps, symbols)
    except (KeyError, ValueError, IndexError, RecursionError) as error:
        return ProgramMatch(False, Why.GOLD_ERROR, Decider.RULE, f"gold: {type(error).__name__}: {error}")
    pred_list = _split_steps(pred)
    if not pred_list:
        return ProgramMatch(False, Why.NO_STEPS, Decider.RULE, "the prediction has no complete step")
    try:
        pred_tree = _tree(pred_list[-1], pred_steps, symbols)
    except (KeyError, ValueError, IndexError, RecursionError) as error:
        return ProgramMatch(False, Why.SYMBOLIC_ERROR, Decider.RULE, f"{type(error).__name__}: {error}")
    gold_text, pred_text = render(gold_tree), render(pred_tree)
    if not fast:
        return _by_sympy(gold_text, pred_text)
    if gold_text == pred_text:
        return _checked_gold(gold_text, ProgramMatch(True, Why.EQUAL, Decider.IDENTICAL))
    gold_key = _canonical(gold_tree)
    if gold_key is not None and gold_key == _canonical(pred_tree):
        return _checked_gold(gold_text, ProgramMatch(True, Why.EQUAL, Decider.CANONICAL))
    gold_greater, pred_greater = _has_op(gold_tree, _GREATER), _has_op(pred_tree, _GREATER)
    if not gold_greater and not pred_greater:
        count = len(symbols)
        if _degenerate(gold_tree) != _degenerate(pred_tree):
            # x / (y - y): sympy builds zoo or nan, which no finite expression equals
            return ProgramMatch(False, Why.DIFFERENT, Decider.RULE, "a division by a sum that cancels to zero")
        if _has_op(gold_tree, _EXP) or _has_op(pred_tree, _EXP):
            if _differ_by_intervals(gold_tree, pred_tree, count):
                return ProgramMatch(False, Why.DIFFERENT, Decider.NUMERIC)
        elif _differ_somewhere(gold_tree, pred_tree, count):
            return ProgramMatch(False, Why.DIFFERENT, Decider.NUMERIC)
    elif _is_plain_relation(gold_tree) and _is_plain_relation(pred_tree):
        if _truth_differs(gold_tree, pred_tree, len(symbols)):
            return ProgramMatch(False, Why.DIFFERENT, Decider.NUMERIC)
    elif _top_level_only(gold_tree) and _top_level_only(pred_tree) and (
            isinstance(gold_tree, str) or isinstance(pred_tree, str) or
            (gold_tree[0] == "greater") != (pred_tree[0] == "greater")):
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
