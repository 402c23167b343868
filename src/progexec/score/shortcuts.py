"""Shortcuts that decide an official program-accuracy comparison without sympy, soundly.

Each function either proves the answer the official ``sympy.simplify(...) == ...``
comparison would give, or declines (returns None/False) so the caller falls back to
sympy:

* :func:`canonical_key` — ``sympify`` (which ``simplify`` calls first) flattens and
  sorts ``Add``/``Mul``, distributes ``-1`` over a sum and ``**-1`` over a product, and
  combines like terms. The key is the multiset of signed terms or of (base, exponent)
  factors; wherever sympy might combine or cancel in a way not modelled (repeated
  bases, the inverse of a power, a sum collapsing to one term, ``greater`` nested in
  arithmetic) it declines. Equal keys mean ``sympify`` builds the same expression, so
  ``simplify`` returns the same result for both.
* :func:`differ_at_points` / :func:`differ_by_intervals` / :func:`truth_differs` —
  ``simplify`` preserves values (and a relation's truth value), so two expressions
  whose exact values (Fractions) or rigorous enclosures (mpmath ``iv``) differ at a
  point where both are defined cannot simplify to equal expressions.
* :func:`degenerate` — a division by a sum that cancels to zero makes sympy build
  ``zoo``/``nan``, which no finite expression equals.

The points are fixed pseudo-random rationals, so decisions are deterministic.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import lru_cache
from typing import Any, Union

from mpmath import iv

from ..core.errors import ProgexecError
from ..core.ops import FINQA_OPS
from ..oracle.interval import precision

Expr = Union[str, tuple[str, "Expr", "Expr"]]
"""An expression tree: a symbol name, or ``(op, left, right)``."""


def has_op(expr: Expr, ops: frozenset[str]) -> bool:
    """True when any node of the tree is one of ``ops``."""
    if isinstance(expr, str):
        return False
    return expr[0] in ops or has_op(expr[1], ops) or has_op(expr[2], ops)


def _ops_with(algebra: str) -> frozenset[str]:
    return frozenset(name for name, spec in FINQA_OPS.items() if spec.algebra == algebra)


GREATER = _ops_with("relation")
"""The ops sympy builds as a relation (``greater``): read from the op table."""
EXP = _ops_with("exponentiation")
"""The ops sympy builds as a power (``exp``): read from the op table."""


def _algebra(expr: Expr) -> str | None:
    """How sympy's canonical form treats the expression's top op (the op table's ``algebra``); None for a symbol."""
    return None if isinstance(expr, str) else FINQA_OPS[expr[0]].algebra


def _bail() -> ProgexecError:
    """sympy's automatic evaluation might combine or cancel terms here: no canonical key."""
    return ProgexecError("no canonical key", kind="no_canonical_key")


def canonical_key(expr: Expr) -> Any:
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
    except ProgexecError:  # _bail(): no canonical key
        return None


def _key(expr: Expr) -> Any:
    if isinstance(expr, str):
        return expr
    algebra = _algebra(expr)
    if algebra == "sum":
        collected = _collect(_terms(expr, 1))
        if len(collected) < 2:  # the sum collapsed to one term or to 0: its shape changes
            raise _bail()
        return ("+", tuple(sorted(collected, key=repr)))
    if algebra == "product":
        factors = _factors(expr, False)
        bases = [base for base, _ in factors]
        if len(set(map(repr, bases))) != len(bases):
            raise _bail()
        return ("*", tuple(sorted(factors, key=repr)))
    if algebra == "exponentiation":
        return ("**", _key(expr[1]), _key(expr[2]))
    if algebra == "relation":
        if has_op(expr[1], GREATER) or has_op(expr[2], GREATER):
            raise _bail()
        left, right = _key(expr[1]), _key(expr[2])
        if left == right:
            raise _bail()
        return (">", left, right)
    raise _bail()


def _collect(terms: list[tuple[int, Any]]) -> list[tuple[int, Any]]:
    """Like terms combined as ``Add`` does (``a0 + a0`` -> ``2*a0``), zero coefficients dropped."""
    totals: dict[str, list[Any]] = {}
    for coefficient, key in terms:
        entry = totals.setdefault(repr(key), [0, key])
        entry[0] += coefficient
    return [(coefficient, key) for coefficient, key in totals.values() if coefficient != 0]


def _terms(expr: Expr, sign: int) -> list[tuple[int, Any]]:
    algebra = _algebra(expr)
    if algebra == "sum":
        second = -sign if FINQA_OPS[expr[0]].inverts else sign
        return _terms(expr[1], sign) + _terms(expr[2], second)
    if algebra == "relation":
        raise _bail()
    return [(sign, _key(expr))]


def _factors(expr: Expr, inverted: bool) -> list[tuple[Any, Any]]:
    algebra = _algebra(expr)
    if algebra == "product":
        second = not inverted if FINQA_OPS[expr[0]].inverts else inverted
        return _factors(expr[1], inverted) + _factors(expr[2], second)
    if algebra == "exponentiation":
        if inverted:
            raise _bail()
        return [(_key(expr[1]), ("**", _key(expr[2])))]
    if algebra == "relation":
        raise _bail()
    return [(_key(expr), -1 if inverted else 1)]


def top_level_only(expr: Expr) -> bool:
    """True when ``greater`` appears at most as the outermost operation (so sympy can build the expression)."""
    if isinstance(expr, str):
        return True
    if expr[0] in GREATER:
        return not has_op(expr[1], GREATER) and not has_op(expr[2], GREATER)
    return not has_op(expr, GREATER)
_POINTS = 3


@lru_cache(maxsize=64)
def _points(count: int) -> tuple[tuple[Fraction, ...], ...]:
    """Fixed pseudo-random rational points (deterministic: same input, same decision path)."""
    rng = random.Random(20211209)
    return tuple(tuple(Fraction(rng.randint(-10**6, 10**6), rng.randint(1, 10**4)) or Fraction(7, 3)
                       for _ in range(count)) for _ in range(_POINTS))


@lru_cache(maxsize=64)
def _positive_points(count: int) -> tuple[tuple[Fraction, ...], ...]:
    """Fixed positive rational points for expressions with ``exp`` (real powers need positive bases)."""
    rng = random.Random(20220101)
    return tuple(tuple(Fraction(rng.randint(1, 10**6), rng.randint(1, 10**4)) for _ in range(count))
                 for _ in range(_POINTS + 2))


def _evaluate(expr: Expr, point: tuple[Any, ...]) -> Any:
    """The expression at a point: exact Fractions (for exp-free expressions) or mpmath intervals.

    A zero divisor raises ZeroDivisionError: that point does not decide.
    """
    if isinstance(expr, str):
        return point[int(expr[1:])]
    op, left, right = expr
    official = FINQA_OPS[op].official
    assert official is not None
    return official(_evaluate(left, point), _evaluate(right, point))  # the op as the official script writes it


def differ_by_intervals(gold: Expr, pred: Expr, count: int) -> bool:
    """True when rigorous interval evaluation (mpmath ``iv``) at a positive point separates the values.

    Used for expressions with ``exp``; a point where a value is complex or unbounded does not decide.
    """
    with precision(96):
        return _separated_by_intervals(gold, pred, count)


def _separated_by_intervals(gold: Expr, pred: Expr, count: int) -> bool:
    for raw in _positive_points(count):
        point = tuple(iv.mpf(value.numerator) / value.denominator for value in raw)
        try:
            first, second = _evaluate(gold, point), _evaluate(pred, point)
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
    except ProgexecError:  # _bail(): no canonical key
        return False
    return len(terms) > 1 and not _collect(terms)


def degenerate(expr: Expr) -> bool:
    """True when some division's denominator is a sum that cancels to zero."""
    if isinstance(expr, str):
        return False
    if _algebra(expr) == "product" and FINQA_OPS[expr[0]].inverts and _cancels_to_zero(expr[2]):
        return True
    return degenerate(expr[1]) or degenerate(expr[2])


def is_plain_relation(expr: Expr) -> bool:
    """A top-level ``greater`` of two rational expressions (no nested ``greater``, no ``exp``)."""
    return (not isinstance(expr, str) and expr[0] in GREATER and top_level_only(expr)
            and not has_op(expr, EXP))


_RELATION_POINTS = 12


@lru_cache(maxsize=64)
def _relation_points(count: int) -> tuple[tuple[Fraction, ...], ...]:
    rng = random.Random(20221111)
    return tuple(tuple(Fraction(rng.randint(-10**6, 10**6), rng.randint(1, 10**4)) or Fraction(5, 3)
                       for _ in range(count)) for _ in range(_RELATION_POINTS))


def truth_differs(gold: Expr, pred: Expr, count: int) -> bool:
    """True when the two comparisons have different truth values at some point where both are defined.

    ``simplify`` keeps a relation's truth value, so structurally equal results would agree everywhere.
    """
    assert not isinstance(gold, str) and not isinstance(pred, str)
    for point in _relation_points(count):
        try:
            first = _evaluate(gold[1], point) > _evaluate(gold[2], point)
            second = _evaluate(pred[1], point) > _evaluate(pred[2], point)
        except ZeroDivisionError:
            continue
        if first != second:
            return True
    return False


def differ_at_points(gold: Expr, pred: Expr, count: int) -> bool:
    """True when exact evaluation proves the two rational expressions differ."""
    for point in _points(count):
        try:
            if _evaluate(gold, point) != _evaluate(pred, point):
                return True
        except ZeroDivisionError:
            continue
    return False
