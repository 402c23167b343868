"""Name a divergence: re-run the case under every single-rule variant, keep those that reproduce it.

:func:`explanations` gives every class whose variant reproduces the answer (the report then picks one
class per case so that one bug is one class over the whole run: :meth:`.check.EvalReport.finish`).
A real rule wins over the lesser ``libm_pow`` variants, which are named only when they reproduce the
answer *and* no other variant does: a ``Math.round(x * 1e5) / 1e5`` port is a naive rounder on every
case it gets wrong, even where a 1-ulp ``exp`` would give the same answer, and a lesser class can
never hide a real bug from a run without ``--strict``. When no variant reproduces the answer, its
shape decides (a refusal either way, a yes/no, a non-finite value or ``null`` for one, an answer where
the official found no complete step), else ``other``; a refusal's shape is offered beside the
variants that reproduce it, so a port that refuses a whole kind of program is one class.
"""

from __future__ import annotations

import math
from typing import Optional

from ...grammar.tokens import official_tokenize
from ...core.arithmetic import Float64, Refusal
from ...interp.flat import ArgKind, FlatProgram, Op
from ...core.verdict import OfficialVerdict
from ...core.status import Status
from ...core.ops import FINQA_BY_CODE
from ...oracle.rounding import round_half_up, round_naive
from .classes import EvalDivergence, Failure
from .protocol import Answer, FlatVerdict, Prepared, Protocol, Verdict, matches
from .semantics import Variant, evaluate, evaluate_text, round_product, round_ties_away

from ...core.ops import FINQA_OPS

_POWER_OPS = tuple(name for name, spec in FINQA_OPS.items() if spec.algebra == "exponentiation")
"""The ops whose answer goes through the C library's pow (``exp``): read from the op table."""

CLASS_OF: dict[Variant, EvalDivergence] = {
    Variant.POW_ULP_UP: EvalDivergence.LIBM_POW, Variant.POW_ULP_DOWN: EvalDivergence.LIBM_POW,
    Variant.NAIVE_ROUNDING: EvalDivergence.NAIVE_ROUNDING, Variant.NAIVE_MATH_ROUND: EvalDivergence.NAIVE_ROUNDING,
    Variant.HALF_UP_ROUNDING: EvalDivergence.NAIVE_ROUNDING,
    Variant.TIES_AWAY: EvalDivergence.HALF_UP_ROUNDING, Variant.UNROUNDED: EvalDivergence.NO_FINAL_ROUNDING,
    Variant.REPR_HALF_EVEN: EvalDivergence.NAIVE_ROUNDING, Variant.REPR_HALF_UP: EvalDivergence.HALF_UP_ROUNDING,
    Variant.PER_STEP: EvalDivergence.PER_STEP_ROUNDING,
    Variant.NO_BARE_NUMBERS: EvalDivergence.REFUSES_WHERE_OFFICIAL_ANSWERS,
    Variant.NONFINITE_REFUSED: EvalDivergence.OVERFLOW_COMPLEX, Variant.COMPLEX_AS_NAN: EvalDivergence.OVERFLOW_COMPLEX,
    Variant.EXP_NEGATIVE_REFUSED: EvalDivergence.REFUSES_WHERE_OFFICIAL_ANSWERS,
    Variant.DIVIDE_BY_ZERO_IEEE: EvalDivergence.ANSWERS_WHERE_OFFICIAL_REFUSES,
    Variant.GREATER_NUMBER: EvalDivergence.YES_NO, Variant.GREATER_OR_EQUAL: EvalDivergence.YES_NO,
    Variant.LENIENT_TOKENIZER: EvalDivergence.TOKENIZER, Variant.UNCLOSED_STEP: EvalDivergence.TOKENIZER,
    Variant.PARSE_FLOAT: EvalDivergence.LITERAL_READING, Variant.COMMA_KEPT: EvalDivergence.LITERAL_READING,
    Variant.PERCENT_IGNORED: EvalDivergence.LITERAL_READING, Variant.PERCENT_TIMES: EvalDivergence.LITERAL_READING,
    Variant.NO_CONST_M1: EvalDivergence.LITERAL_READING, Variant.JS_NUMBER: EvalDivergence.LITERAL_READING,
    Variant.DOLLAR_IN_LITERALS: EvalDivergence.LITERAL_READING,
    Variant.FIRST_ROW_WINS: EvalDivergence.TABLE_LOOKUP, Variant.DOLLAR_KEPT: EvalDivergence.TABLE_LOOKUP,
    Variant.PAREN_NEGATIVE: EvalDivergence.TABLE_LOOKUP, Variant.NO_PAREN_CUT: EvalDivergence.TABLE_LOOKUP,
    Variant.NO_STALE_ROW: EvalDivergence.TABLE_LOOKUP, Variant.FSUM_ROWS: EvalDivergence.TABLE_LOOKUP,
    Variant.EMPTY_ROW_IGNORED: EvalDivergence.TABLE_LOOKUP, Variant.EXACT_MEAN: EvalDivergence.TABLE_LOOKUP,
    Variant.DECIMAL: EvalDivergence.DECIMAL_ARITHMETIC, Variant.FLOAT32: EvalDivergence.FLOAT32_ARITHMETIC,
}
"""Every variant but OFFICIAL, in the order they are tried."""

_TEXT_ONLY = frozenset({Variant.LENIENT_TOKENIZER, Variant.UNCLOSED_STEP})
_FLAT_VARIANTS = (Variant.POW_ULP_UP, Variant.POW_ULP_DOWN, Variant.NAIVE_ROUNDING, Variant.NAIVE_MATH_ROUND,
                  Variant.HALF_UP_ROUNDING,
                  Variant.TIES_AWAY, Variant.UNROUNDED, Variant.PER_STEP, Variant.FSUM_ROWS, Variant.GREATER_NUMBER,
                  Variant.GREATER_OR_EQUAL, Variant.EXP_NEGATIVE_REFUSED)


def model_verdict(prepared: Prepared, protocol: Protocol, variant: Variant) -> Optional[Verdict]:
    """The case's verdict under ``variant`` in the protocol's form (None if the model cannot run it)."""
    try:
        return _model_verdict(prepared, protocol, variant)
    except Exception:  # a hostile flat case the model does not cover: it explains nothing
        return None


def _model_verdict(prepared: Prepared, protocol: Protocol, variant: Variant) -> Verdict:
    case = prepared.case
    if protocol is Protocol.FLAT:
        assert prepared.flat is not None
        return flat_verdict(prepared.flat, variant)
    if protocol is Protocol.JSONL:
        return evaluate_text(case.program, case.table, case.dialect, variant)
    return evaluate(official_tokenize(case.program), case.table, case.dialect, variant)


Explanation = tuple[EvalDivergence, Optional[Variant]]
"""A class that explains a divergent answer, with the first variant of it that reproduces the answer."""

_REFUSAL_SHAPES = (EvalDivergence.ANSWERS_WHERE_OFFICIAL_REFUSES, EvalDivergence.REFUSES_WHERE_OFFICIAL_ANSWERS)


def explanations(prepared: Prepared, protocol: Protocol, expected: Verdict, got: Answer) -> tuple[Explanation, ...]:
    """Every class that explains a divergent answer, in the table's order, each with its first reproducing
    variant (None: by the answer's shape). Never empty."""
    if isinstance(got, Failure):
        return ((got.kind, None),)
    if _sign_of_zero(expected, got):  # equal under ==: any rule that "reproduces" it does so by chance
        return ((EvalDivergence.SIGN_OF_ZERO, None),)
    shape = _by_shape(expected, got)
    official = model_verdict(prepared, protocol, Variant.OFFICIAL)
    if official is None or not matches(expected, official):  # the model cannot explain this case
        return ((shape, None),)
    found: dict[EvalDivergence, Variant] = {}
    for variant in _FLAT_VARIANTS if protocol is Protocol.FLAT else tuple(CLASS_OF):
        if variant in _TEXT_ONLY and protocol is not Protocol.JSONL or CLASS_OF[variant] in found:
            continue
        verdict = model_verdict(prepared, protocol, variant)
        if verdict is not None and _reproduces(verdict, got):
            found[CLASS_OF[variant]] = variant
    if not found and protocol is not Protocol.FLAT and any(f"{name}(" in prepared.case.program for name in _POWER_OPS):
        found = _within_pow_ulps(prepared, protocol, got)  # a rule's answer through another libm's pow
    real = {kind: variant for kind, variant in found.items() if not kind.minor}
    chosen: dict[EvalDivergence, Optional[Variant]] = dict(real or found)
    if not chosen or (shape in _REFUSAL_SHAPES and shape not in chosen):
        chosen[shape] = None
    order = list(EvalDivergence)
    return tuple(sorted(chosen.items(), key=lambda item: order.index(item[0])))


POW_ULPS = 4
"""How far (in ulps of the answer) a rule's answer may be from the port's when the program has ``exp``:
another libm's ``pow`` one ulp off, carried through a few more steps, on top of the port's real bug."""


def _within_pow_ulps(prepared: Prepared, protocol: Protocol, got: Answer) -> dict[EvalDivergence, Variant]:
    """The real rules whose answer is the port's but for a few ulps (an unrounded answer through V8's pow)."""
    if not isinstance(got, OfficialVerdict) or not isinstance(got.value, float) or not math.isfinite(got.value):
        return {}
    found: dict[EvalDivergence, Variant] = {}
    for variant, kind in CLASS_OF.items():
        if kind.minor or kind in found or variant in _TEXT_ONLY:
            continue
        verdict = model_verdict(prepared, protocol, variant)
        if isinstance(verdict, OfficialVerdict) and verdict.valid and got.valid and isinstance(verdict.value, float) \
                and abs(verdict.value - got.value) <= POW_ULPS * math.ulp(got.value):
            found[kind] = variant
    return found


def classify(prepared: Prepared, protocol: Protocol, expected: Verdict, got: Answer) -> Explanation:
    """The first class (in the table's order) that explains a divergent answer on its own, and its variant."""
    return explanations(prepared, protocol, expected, got)[0]


def _reproduces(verdict: Verdict, got: Answer) -> bool:
    """The variant's verdict is the port's answer (as an answer: a verdict in the same form)."""
    if isinstance(verdict, OfficialVerdict):
        return isinstance(got, OfficialVerdict) and matches(verdict, got)
    return isinstance(got, FlatVerdict) and matches(verdict, got)


def _sign_of_zero(expected: Verdict, got: Answer) -> bool:
    if isinstance(expected, OfficialVerdict) and isinstance(got, OfficialVerdict):
        a, b = expected.value, got.value
        return bool(expected.valid and got.valid and isinstance(a, float) and isinstance(b, float)
                    and a == b == 0.0)
    if isinstance(expected, FlatVerdict) and isinstance(got, FlatVerdict):
        return (expected.status, expected.present, expected.is_bool) == (got.status, got.present, got.is_bool) \
            and expected.present and not expected.is_bool and expected.value == got.value == 0.0
    return False


def _by_shape(expected: Verdict, got: Answer) -> EvalDivergence:
    if isinstance(expected, FlatVerdict):
        assert isinstance(got, FlatVerdict)
        if expected.present != got.present:
            return (EvalDivergence.ANSWERS_WHERE_OFFICIAL_REFUSES if got.present
                    else EvalDivergence.REFUSES_WHERE_OFFICIAL_ANSWERS)
        if not expected.present:
            return EvalDivergence.STATUS_CODE
        if expected.is_bool != got.is_bool or expected.is_bool:
            return EvalDivergence.YES_NO
        return _values(expected.value, got.value)
    assert isinstance(got, OfficialVerdict)
    if expected.valid != got.valid:
        return EvalDivergence.ANSWERS_WHERE_OFFICIAL_REFUSES if got.valid else EvalDivergence.REFUSES_WHERE_OFFICIAL_ANSWERS
    if isinstance(expected.value, str) or isinstance(got.value, str):
        return EvalDivergence.YES_NO
    return _values(expected.value, got.value)


def _values(expected: object, got: object) -> EvalDivergence:
    """Two different valid values (numbers or ``None``, the official n/a) by their shape."""
    if any(isinstance(v, float) and not math.isfinite(v) for v in (expected, got)):
        return EvalDivergence.OVERFLOW_COMPLEX  # inf or nan on one side: ``null`` written for inf included
    if expected is None:
        return EvalDivergence.TOKENIZER  # the official found no complete step (n/a): the port parsed one
    return EvalDivergence.OTHER


# -- the contract's run_flat with one rule changed -------------------------------------------

_F64 = Float64()


def flat_verdict(flat: FlatProgram, variant: Variant) -> FlatVerdict:
    """``run_flat`` on a compiled program under ``variant`` (rounding, pow, row sums, greater)."""
    results: list[float | bool] = []
    arithmetic = _FlatVariant(variant)
    try:
        for step in range(flat.n_steps):
            spec = FINQA_BY_CODE[flat.ops[step]]
            if spec.row_op:
                offset, length = flat.table_offset[step], flat.table_len[step]
                row = flat.table_values[offset:offset + length]
                value: float | bool = spec.apply(arithmetic, [row])
            else:
                a, b = (_operand(kind, number, results, variant) for kind, number in
                        ((flat.arg1_kind[step], flat.arg1_num[step]), (flat.arg2_kind[step], flat.arg2_num[step])))
                value = spec.apply(arithmetic, [a, b])
            if variant is Variant.PER_STEP and not isinstance(value, bool):
                value = round(value, 5)
            results.append(value)
    except Refusal as refusal:
        return FlatVerdict(int(refusal.status), False, 0.0, False, False)
    final = results[-1]
    if isinstance(final, bool):
        return FlatVerdict(int(Status.OK), True, 0.0, True, final)
    return FlatVerdict(int(Status.OK), True, _finish(final, variant), False, False)


def _operand(kind: int, number: float, results: list[float | bool], variant: Variant) -> float:
    if kind == ArgKind.REF:
        value = results[int(number)]
        if isinstance(value, bool):
            if variant is Variant.GREATER_NUMBER:
                return 1.0 if value else 0.0
            raise Refusal(Status.REFERENCE_TO_BOOLEAN, "yes/no used as a number")
        return value
    return number


class _FlatVariant:
    """Float64 with one rule changed by ``variant``: one method per op method of the op table."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant

    def add(self, a: float, b: float) -> float:
        return _F64.add(a, b)

    def subtract(self, a: float, b: float) -> float:
        return _F64.subtract(a, b)

    def multiply(self, a: float, b: float) -> float:
        return _F64.multiply(a, b)

    def divide(self, a: float, b: float) -> float:
        return _F64.divide(a, b)

    def power(self, a: float, b: float) -> float:
        if self.variant is Variant.EXP_NEGATIVE_REFUSED and a < 0:
            raise Refusal(Status.NON_REAL_RESULT, "negative base")
        result = _F64.power(a, b)
        if self.variant in (Variant.POW_ULP_UP, Variant.POW_ULP_DOWN) and result != 0.0:
            result = math.nextafter(result, math.inf if self.variant is Variant.POW_ULP_UP else -math.inf)
        return result

    def greater(self, a: float, b: float) -> float | bool:
        if self.variant is Variant.GREATER_NUMBER:
            return 1.0 if a > b else 0.0
        return a >= b if self.variant is Variant.GREATER_OR_EQUAL else a > b

    def row_max(self, row: list[float]) -> float:
        return max(row)

    def row_min(self, row: list[float]) -> float:
        return min(row)

    def row_sum(self, row: list[float]) -> float:
        return math.fsum(row) if self.variant is Variant.FSUM_ROWS else _F64.row_sum(row)

    def row_average(self, row: list[float]) -> float:
        return self.row_sum(row) / len(row)


def _finish(value: float, variant: Variant) -> float:
    if variant is Variant.UNROUNDED:
        return value
    if variant is Variant.NAIVE_ROUNDING:
        return round_naive(value, 5)
    if variant is Variant.HALF_UP_ROUNDING:
        return round_half_up(value, 5)
    if variant is Variant.NAIVE_MATH_ROUND:
        return round_product(value)
    if variant is Variant.TIES_AWAY:
        return round_ties_away(value)
    return round(value, 5)
