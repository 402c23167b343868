"""Name a divergence: re-run the case under every single-rule variant, keep the one that reproduces it.

One bug is one class where the evidence allows: when several variants reproduce an answer, a
real rule (the final rounding first, then the other rules) wins over the lesser ``libm_pow``
variants, which are named only when they reproduce the answer *and* no other variant does. So
a ``Math.round(x * 1e5) / 1e5`` port is a naive rounder on every case it gets wrong, even
where a 1-ulp ``exp`` would give the same answer (its ``**`` is exact there: the rounding is
at fault), and a lesser class can never hide a real bug from a run without ``--strict``.
When no variant reproduces the answer, its shape decides (a refusal either way, a yes/no, a
non-finite value), else ``other``.
"""

from __future__ import annotations

import math
from typing import Optional

from ...grammar.tokens import official_tokenize
from ...core.arithmetic import Float64, Refusal
from ...interp.flat import ArgKind, FlatProgram, Op
from ...core.verdict import OfficialVerdict
from ...core.status import Status
from ...oracle.rounding import round_half_up, round_naive
from .classes import EvalDivergence, Failure
from .protocol import Answer, FlatVerdict, Prepared, Protocol, Verdict, matches
from .semantics import Variant, evaluate, evaluate_text, round_ties_away

CLASS_OF: dict[Variant, EvalDivergence] = {
    Variant.POW_ULP_UP: EvalDivergence.LIBM_POW, Variant.POW_ULP_DOWN: EvalDivergence.LIBM_POW,
    Variant.NAIVE_ROUNDING: EvalDivergence.NAIVE_ROUNDING, Variant.HALF_UP_ROUNDING: EvalDivergence.HALF_UP_ROUNDING,
    Variant.TIES_AWAY: EvalDivergence.HALF_UP_ROUNDING, Variant.UNROUNDED: EvalDivergence.NO_FINAL_ROUNDING,
    Variant.REPR_HALF_EVEN: EvalDivergence.NAIVE_ROUNDING, Variant.REPR_HALF_UP: EvalDivergence.HALF_UP_ROUNDING,
    Variant.PER_STEP: EvalDivergence.PER_STEP_ROUNDING,
    Variant.NO_BARE_NUMBERS: EvalDivergence.REFUSES_WHERE_OFFICIAL_ANSWERS,
    Variant.NONFINITE_REFUSED: EvalDivergence.OVERFLOW_COMPLEX, Variant.COMPLEX_AS_NAN: EvalDivergence.OVERFLOW_COMPLEX,
    Variant.EXP_NEGATIVE_REFUSED: EvalDivergence.REFUSES_WHERE_OFFICIAL_ANSWERS,
    Variant.DIVIDE_BY_ZERO_IEEE: EvalDivergence.ANSWERS_WHERE_OFFICIAL_REFUSES,
    Variant.GREATER_NUMBER: EvalDivergence.YES_NO, Variant.GREATER_OR_EQUAL: EvalDivergence.YES_NO,
    Variant.LENIENT_TOKENIZER: EvalDivergence.TOKENIZER,
    Variant.PARSE_FLOAT: EvalDivergence.LITERAL_READING, Variant.COMMA_KEPT: EvalDivergence.LITERAL_READING,
    Variant.PERCENT_IGNORED: EvalDivergence.LITERAL_READING, Variant.PERCENT_TIMES: EvalDivergence.LITERAL_READING,
    Variant.NO_CONST_M1: EvalDivergence.LITERAL_READING, Variant.JS_NUMBER: EvalDivergence.LITERAL_READING,
    Variant.DOLLAR_IN_LITERALS: EvalDivergence.LITERAL_READING,
    Variant.FIRST_ROW_WINS: EvalDivergence.TABLE_LOOKUP, Variant.DOLLAR_KEPT: EvalDivergence.TABLE_LOOKUP,
    Variant.PAREN_NEGATIVE: EvalDivergence.TABLE_LOOKUP, Variant.NO_PAREN_CUT: EvalDivergence.TABLE_LOOKUP,
    Variant.NO_STALE_ROW: EvalDivergence.TABLE_LOOKUP, Variant.FSUM_ROWS: EvalDivergence.TABLE_LOOKUP,
    Variant.EMPTY_ROW_IGNORED: EvalDivergence.TABLE_LOOKUP, Variant.EXACT_MEAN: EvalDivergence.TABLE_LOOKUP,
    Variant.DECIMAL: EvalDivergence.DECIMAL_ARITHMETIC,
}
"""Every variant but OFFICIAL, in the order they are tried."""

_TEXT_ONLY = frozenset({Variant.LENIENT_TOKENIZER})
_FLAT_VARIANTS = (Variant.POW_ULP_UP, Variant.POW_ULP_DOWN, Variant.NAIVE_ROUNDING, Variant.HALF_UP_ROUNDING,
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


def classify(prepared: Prepared, protocol: Protocol, expected: Verdict,
             got: Answer) -> tuple[EvalDivergence, Optional[Variant]]:
    """The class of a divergent answer, and the variant that reproduces it (None: by its shape)."""
    if isinstance(got, Failure):
        return got.kind, None
    if _sign_of_zero(expected, got):  # equal under ==: any rule that "reproduces" it does so by chance
        return EvalDivergence.SIGN_OF_ZERO, None
    variants = _FLAT_VARIANTS if protocol is Protocol.FLAT else tuple(CLASS_OF)
    official = model_verdict(prepared, protocol, Variant.OFFICIAL)
    if official is None or not matches(expected, official):  # the model cannot explain this case
        return _by_shape(expected, got), None
    lesser: Optional[Variant] = None
    for variant in variants:
        if variant in _TEXT_ONLY and protocol is not Protocol.JSONL:
            continue
        if lesser is not None and CLASS_OF[variant].minor:
            continue  # already explained by a lesser cause: only a real rule can replace it
        verdict = model_verdict(prepared, protocol, variant)
        if verdict is not None and _reproduces(verdict, got):
            if not CLASS_OF[variant].minor:
                return CLASS_OF[variant], variant
            lesser = variant
    if lesser is not None:
        return CLASS_OF[lesser], lesser
    return _by_shape(expected, got), None


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
    finite = [isinstance(v, float) and math.isfinite(v) for v in (expected, got)]
    if finite[0] != finite[1]:
        return EvalDivergence.OVERFLOW_COMPLEX
    return EvalDivergence.OTHER


# -- the contract's run_flat with one rule changed -------------------------------------------

_F64 = Float64()


def flat_verdict(flat: FlatProgram, variant: Variant) -> FlatVerdict:
    """``run_flat`` on a compiled program under ``variant`` (rounding, pow, row sums, greater)."""
    results: list[float | bool] = []
    try:
        for step in range(flat.n_steps):
            op = Op(flat.ops[step])
            if op in (Op.TABLE_MAX, Op.TABLE_MIN, Op.TABLE_SUM, Op.TABLE_AVERAGE):
                offset, length = flat.table_offset[step], flat.table_len[step]
                row = flat.table_values[offset:offset + length]
                value: float | bool = _flat_table(op, row, variant)
            else:
                a, b = (_operand(kind, number, results, variant) for kind, number in
                        ((flat.arg1_kind[step], flat.arg1_num[step]), (flat.arg2_kind[step], flat.arg2_num[step])))
                value = _flat_op(op, a, b, variant)
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


def _flat_op(op: Op, a: float, b: float, variant: Variant) -> float | bool:
    if op is Op.GREATER:
        if variant is Variant.GREATER_NUMBER:
            return 1.0 if a > b else 0.0
        return a >= b if variant is Variant.GREATER_OR_EQUAL else a > b
    if op is Op.EXP:
        if variant is Variant.EXP_NEGATIVE_REFUSED and a < 0:
            raise Refusal(Status.NON_REAL_RESULT, "negative base")
        result = _F64.power(a, b)
        if variant in (Variant.POW_ULP_UP, Variant.POW_ULP_DOWN) and result != 0.0:
            result = math.nextafter(result, math.inf if variant is Variant.POW_ULP_UP else -math.inf)
        return result
    return {Op.ADD: _F64.add, Op.SUBTRACT: _F64.subtract, Op.MULTIPLY: _F64.multiply,
            Op.DIVIDE: _F64.divide}[op](a, b)


def _flat_table(op: Op, row: list[float], variant: Variant) -> float:
    if op is Op.TABLE_MAX:
        return max(row)
    if op is Op.TABLE_MIN:
        return min(row)
    total = math.fsum(row) if variant is Variant.FSUM_ROWS else _F64.row_sum(row)
    return total if op is Op.TABLE_SUM else total / len(row)


def _finish(value: float, variant: Variant) -> float:
    if variant is Variant.UNROUNDED:
        return value
    if variant is Variant.NAIVE_ROUNDING:
        return round_naive(value, 5)
    if variant is Variant.HALF_UP_ROUNDING:
        return round_half_up(value, 5)
    if variant is Variant.TIES_AWAY:
        return round_ties_away(value)
    return round(value, 5)
