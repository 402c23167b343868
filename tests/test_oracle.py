"""The exact oracle against an independent Fraction evaluation, and findings against the spec."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

from hypothesis import assume, given, strategies as st

from progexec.grammar import Program, parse_program
from progexec.core.nodes import Ref
from progexec.core.status import Status
from progexec.oracle.classify import FindingKind, analyze, ulps_to_boundary
from progexec.oracle.reference import exact_answer

from .strategies import programs


def _decimal(text: str) -> Fraction:
    """Independent reading of a literal as the exact decimal it spells (SPEC §1 rules)."""
    text = text.replace(",", "")
    if text.startswith("const_"):
        rest = text[len("const_"):]
        return Fraction(-1) if rest == "m1" else Fraction(Decimal(rest))
    if text.endswith("%"):
        return Fraction(Decimal(text[:-1])) / 100
    return Fraction(Decimal(text))


def _float(text: str) -> Fraction:
    text = text.replace(",", "")
    if text.startswith("const_"):
        rest = text[len("const_"):]
        return Fraction(-1.0 if rest == "m1" else float(rest))
    if text.endswith("%"):
        return Fraction(float(text[:-1]) / 100.0)
    return Fraction(float(text))


def arithmetic_programs() -> st.SearchStrategy[Program]:
    """Programs of + - * / only: the exact value is then a rational the test can compute itself."""
    return programs(max_steps=4, ops=("add", "subtract", "multiply", "divide"))


def _independent(program: Program, read) -> Fraction | None:  # type: ignore[no-untyped-def]
    values: list[Fraction] = []
    for step in program.steps:
        a, b = (values[arg.index] if isinstance(arg, Ref) else read(arg.text) for arg in step.args)
        if step.op == "divide" and b == 0:
            return None
        values.append({"add": a + b, "subtract": a - b, "multiply": a * b}.get(step.op) if step.op != "divide"
                      else a / b)
    return values[-1]


@given(arithmetic_programs())
def test_decimal_reading_equals_an_independent_fraction_evaluation(program: Program) -> None:
    expected = _independent(program, _decimal)
    answer = exact_answer(program, None, "decimal")
    if expected is None:
        assert answer.status is Status.DIVIDE_BY_ZERO
        return
    assert answer.value == expected
    assert answer.rounded == round(expected, 5)  # Fraction.__round__ is half-even on the exact value


@given(arithmetic_programs())
def test_float_reading_equals_an_independent_fraction_evaluation(program: Program) -> None:
    expected = _independent(program, _float)
    answer = exact_answer(program, None, "float")
    assume(expected is not None)
    assert answer.value == expected


def test_exact_rational_powers_and_irrational_ones() -> None:
    assert exact_answer(parse_program("exp(4, 0.5)")).value == 2
    assert exact_answer(parse_program("exp(1.21, 0.5)")).value == Fraction(11, 10)
    irrational = exact_answer(parse_program("exp(2, 0.5)"))
    assert irrational.value is None and irrational.rounded == Fraction(141421, 100000)
    assert irrational.low is not None and irrational.high is not None
    assert irrational.low ** 2 < 2 < irrational.high ** 2  # a true enclosure of sqrt(2)
    assert irrational.high - irrational.low < Fraction(1, 2**100)


def test_huge_exponent_is_bounded_not_hung() -> None:
    assert exact_answer(parse_program("exp(3, 100000000)")).status is Status.OVERFLOW
    near_e = exact_answer(parse_program("exp(1.0000001, 100000000)"))
    assert near_e.decided and abs(float(near_e.rounded) - math.exp(1e8 * math.log1p(1e-7))) < 1e-3


def _kinds(text: str) -> set[FindingKind]:
    analysis = analyze("x", parse_program(text), None)
    return set(analysis.kinds)


def test_exact_binary_tie_only_for_m_over_64() -> None:
    assert FindingKind.EXACT_BINARY_TIE in _kinds("divide(1, 64)")  # 0.015625 -> 0.01562 (SPEC §5)
    assert FindingKind.HALF_UP_DIFFERS in _kinds("divide(1, 64)")
    assert FindingKind.EXACT_BINARY_TIE not in _kinds("divide(1, 32)")  # 0.03125: 3125 is an integer
    assert FindingKind.EXACT_BINARY_TIE in _kinds("divide(-3, 64)")


def test_product_double_rounding_and_naive() -> None:
    kinds = _kinds("divide(3.7, 32)")  # IP/2012/page_84.pdf-2's value
    assert {FindingKind.PRODUCT_DOUBLE_ROUNDING, FindingKind.NAIVE_DIFFERS} <= kinds
    assert FindingKind.EXACT_BINARY_TIE not in kinds


def test_scale_artefact_threshold() -> None:
    assert FindingKind.SCALE_ARTEFACT in _kinds("multiply(11.4, 8000000000)")
    assert FindingKind.SCALE_ARTEFACT not in _kinds("multiply(11.4, 1000)")


def test_float_vs_decimal_cause() -> None:
    analysis = analyze("x", parse_program("divide(3.7, 32)"), None)
    finding = next(f for f in analysis.findings if f.kind is FindingKind.FLOAT_VS_DECIMAL)
    assert "representation" in finding.message()
    analysis = analyze("x", parse_program("divide(57, 320)"), None)
    finding = next(f for f in analysis.findings if f.kind is FindingKind.FLOAT_VS_DECIMAL)
    assert "operation" in finding.message()


def test_gold_mismatch_and_per_step_on_a_greater() -> None:
    assert FindingKind.GOLD_MISMATCH in set(analyze("x", parse_program("add(1, 2)"), None, 4.0, True).kinds)
    # rounding intermediates can flip a comparison: 1.000004 vs 1.000001 both round to 1.0
    flipped = analyze("x", parse_program("add(1, 0.000004), add(1, 0.000001), greater(#0, #1)"), None)
    assert flipped.official is True and flipped.answers["per_step"] is False
    assert FindingKind.PER_STEP_DIFFERS in flipped.kinds


def test_ulps_to_boundary() -> None:
    # 0.115625 is 0.5e-5 from neither neighbour: its nearest boundary is itself, in exact terms almost 0
    assert ulps_to_boundary(0.115625) < 1
    assert ulps_to_boundary(0.11) > 1e9
