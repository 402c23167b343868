"""Every op of the MathQA table against its definition (google/trax semantics), by hand-computed values."""

from __future__ import annotations

import math

import pytest

from progexec.core.nodes import Num, Program, Step
from progexec.interp.evaluate import evaluate
from progexec.core.status import Status
from progexec.datasets.mathqa.arithmetic import MATHQA_FLOAT, mathqa_constant
from progexec.datasets.mathqa.ops import MATHQA_OPS, MATHQA_PYTHON_OPS, UNSUPPORTED_OPS
from progexec.core.arithmetic import Refusal

PI = 3.141592653589793

# (op, arguments, expected value worked out by hand from the op's definition)
CASES: list[tuple[str, tuple[float, ...], float]] = [
    ("add", (2.5, 4), 6.5), ("subtract", (2.5, 4), -1.5), ("multiply", (2.5, 4), 10.0),
    ("divide", (10, 4), 2.5), ("divide", (10, 0), 0.0), ("speed", (100, 8), 12.5), ("speed", (100, 0), 0.0),
    ("inverse", (4, ), 0.25), ("inverse", (0, ), 0.0), ("negate", (3, ), -3.0),
    ("power", (2, 3), 8.0), ("power", (2, 10), 32.0), ("power", (4, 0.5), 2.0),
    ("factorial", (5, ), 120.0), ("factorial", (5.9, ), 120.0), ("factorial", (20, ), 1307674368000.0),
    ("log", (8, ), 3.0), ("log", (0, ), math.log(1e-5) / math.log(2)), ("sqrt", (16, ), 4.0), ("sqrt", (-9, ), 0.0),
    ("floor", (3.7, ), 3.0), ("floor", (-3.2, ), -4.0), ("reminder", (17, 5), 2.0), ("max", (3, 7), 7.0),
    ("gcd", (12, 18), 6.0), ("gcd", (12.9, 18), 6.0), ("lcm", (4, 6), 12.0),
    ("choose", (5, 2), 10.0), ("choose", (2, 5), 0.0), ("choose", (10, 0), 1.0),
    ("permutation", (5, 2), 20.0), ("permutation", (2, 5), 20.0),
    ("sine", (PI / 2, ), 1.0), ("cosine", (0, ), 1.0),
    ("circle_arc", (90, 2), PI), ("circle_area", (2, ), 4 * PI), ("circle_sector_area", (2, 90), PI),
    ("circumface", (3, ), 6 * PI), ("semi_circle_perimiter", (1, ), PI + 2),
    ("cube_edge_by_volume", (8, ), 2.0), ("diagonal", (3, 4), 5.0), ("count_interval", (10, 3), 8.0),
    ("combined_work", (4, 6), 2.4), ("combined_work", (0.25, 6), 2.4), ("find_work", (4, 6), 12.0),
    ("from_percent", (25, ), 0.25), ("gain_percent", (20, ), 120.0), ("loss_percent", (20, ), 80.0),
    ("negate_percent", (30, ), 70.0), ("percent", (20, 50), 10.0),
    ("price_after_gain", (20, 50), 60.0), ("p_after_gain", (20, 50), 60.0), ("price_after_loss", (20, 50), 40.0),
    ("original_price_before_gain", (20, 120), 100.0),
    ("original_price_before_loss", (20, 80), 80 * 100 / 80.00001),
    ("quadrilateral_area", (4, 3, 5), 16.0), ("trapezium_area", (4, 3, 5), 16.0),
    ("rectangle_area", (3, 4), 12.0), ("rectangle_perimeter", (3, 4), 14.0), ("rhombus_area", (6, 8), 24.0),
    ("rhombus_perimeter", (5, ), 20.0), ("square_perimeter", (5, ), 20.0), ("square_area", (5, ), 25.0),
    ("square_edge_by_perimeter", (20, ), 5.0), ("square_edge_by_area", (25, ), 5.0),
    ("surface_cube", (2, ), 24.0), ("surface_rectangular_prism", (2, 3, 4), 52.0), ("surface_sphere", (1, ), 4 * PI),
    ("speed_ratio_steel_to_stream", (6, 2), 2.0), ("speed_in_still_water", (10, 2), 6.0), ("stream_speed", (10, 2), 4.0),
    ("triangle_area", (6, 4), 12.0), ("triangle_perimeter", (3, 4, 5), 12.0), ("triangle_area_three_edges", (3, 4, 5), 6.0),
    ("triangle_area_three_edges", (1, 1, 5), 0.0), ("union_prob", (0.5, 0.4, 0.2), 0.7), ("negate_prob", (0.25, ), 0.75),
    ("volume_cube", (3, ), 27.0), ("volume_cone", (3, 4), 12 * PI), ("volume_cylinder", (2, 5), 20 * PI),
    ("volume_rectangular_prism", (2, 3, 4), 24.0), ("volume_sphere", (3, ), 36 * PI),
]


def _run(op: str, args: tuple[float, ...]) -> object:
    program = Program((Step(op, tuple(Num(repr(float(arg))) for arg in args)),))
    return evaluate(program, MATHQA_FLOAT, ops=MATHQA_OPS)


def test_the_table_has_the_66_ops() -> None:
    assert len(MATHQA_PYTHON_OPS) == 66
    assert {op for op, _, _ in CASES} == set(MATHQA_PYTHON_OPS)


@pytest.mark.parametrize("op, args, expected", CASES)
def test_op_against_its_definition(op: str, args: tuple[float, ...], expected: float) -> None:
    outcome = _run(op, args)
    assert outcome.status is Status.OK, outcome.message
    assert math.isclose(outcome.value, expected, rel_tol=1e-12, abs_tol=1e-12)


def test_log_is_log_over_log2_not_log2() -> None:
    """The generator writes ``math.log(x, 2)``: log(x)/log(2), which is not always ``math.log2`` bit for bit."""
    for x in (3.0, 10.0, 1000.0, 0.3):
        assert _run("log", (x,)).value == math.log(x) / math.log(2)


@pytest.mark.parametrize("op, args, status", [
    ("reminder", (5, 0), Status.DIVIDE_BY_ZERO),
    ("power", (-8, 0.5), Status.NON_REAL_RESULT),
    ("power", (0, -1), Status.DIVIDE_BY_ZERO),
    ("power", (1e300, 3), Status.OVERFLOW),
    ("cube_edge_by_volume", (-8, ), Status.NON_REAL_RESULT),
    ("factorial", (-1, ), Status.NON_REAL_RESULT),
    ("square_edge_by_area", (-4, ), Status.NON_REAL_RESULT),
    ("combined_work", (0, 3), Status.DIVIDE_BY_ZERO),
    ("original_price_before_gain", (-100, 5), Status.DIVIDE_BY_ZERO),
    ("permutation", (1, 1e6), Status.LIMIT_EXCEEDED),
    ("multiply", (1e308, 10), Status.OVERFLOW),
])
def test_what_the_generator_would_crash_on_is_a_typed_refusal(op: str, args: tuple[float, ...], status: Status) -> None:
    assert _run(op, args).status is status


@pytest.mark.parametrize("op", sorted(UNSUPPORTED_OPS))
def test_ops_outside_the_66_are_unsupported(op: str) -> None:
    outcome = _run(op, (1.0,) * UNSUPPORTED_OPS[op])
    assert outcome.status is Status.UNSUPPORTED_OP
    assert int(outcome.status) == 1416
    assert "unsupported by MathQA-Python" in outcome.message


def test_unknown_op() -> None:
    assert _run("frobnicate", (1.0,)).status is Status.UNKNOWN_OP


def test_wrong_arity_is_refused() -> None:
    assert _run("add", (1.0, 2.0, 3.0)).status is Status.SYNTAX_ERROR


@pytest.mark.parametrize("text, value", [
    ("const_100", 100.0), ("const_0_25", 0.25), ("const_3_6", 3.6), ("const_0_2778", 0.2778), ("const_1_6", 1.6),
    ("const_0_33", 0.33), ("const_2.0", 2.0), ("const_100.0", 100.0), ("const_pi", PI), ("const_deg_to_rad", PI / 180),
])
def test_constants(text: str, value: float) -> None:
    assert mathqa_constant(text) == value
    assert MATHQA_FLOAT.literal(text) == value


@pytest.mark.parametrize("text", ["const_m1", "const_e", "const_", "const_1_2_3", "pi"])
def test_other_constant_spellings_are_refused(text: str) -> None:
    with pytest.raises(Refusal) as caught:
        mathqa_constant(text)
    assert caught.value.status is Status.BAD_LITERAL


def test_no_final_rounding() -> None:
    program = Program((Step("divide", (Num("1"), Num("3"))),))
    assert evaluate(program, MATHQA_FLOAT, ops=MATHQA_OPS).value == 1 / 3


# --- the second, documented table (not MathQA-Python) --------------------------------------------

EXTENDED_CASES: list[tuple[str, tuple[float, ...], float]] = [
    ("min", (3, 7), 3.0), ("round", (2.5, ), 2.0), ("round", (3.5, ), 4.0), ("tangent", (PI / 4, ), 1.0),
    ("radians_to_degree", (PI, ), 180.0), ("degree_to_radians", (180, ), PI),
    ("sum_consecutive_number", (1, 100), 5050.0), ("surface_cylinder", (7, 4), 154 * PI),
    ("side_by_diagonal", (2 ** 0.5 * 3, ), 3.0), ("combination", (5, 2), 10.0), ("p_after_loss", (20, 50), 40.0),
    ("to_percent", (0.25, ), 25.0),
]


@pytest.mark.parametrize("op, args, expected", EXTENDED_CASES)
def test_extended_table(op: str, args: tuple[float, ...], expected: float) -> None:
    from progexec.datasets.mathqa.ops import MATHQA_EXTENDED_OPS

    program = Program((Step(op, tuple(Num(repr(float(arg))) for arg in args)),))
    outcome = evaluate(program, MATHQA_FLOAT, ops=MATHQA_EXTENDED_OPS)
    assert outcome.status is Status.OK
    assert math.isclose(outcome.value, expected, rel_tol=1e-12)


def test_extended_table_leaves_surface_cone_unsupported() -> None:
    from progexec.datasets.mathqa.ops import MATHQA_EXTENDED_OPS

    program = Program((Step("surface_cone", (Num("1"), Num("2"))),))
    assert evaluate(program, MATHQA_FLOAT, ops=MATHQA_EXTENDED_OPS).status is Status.UNSUPPORTED_OP
