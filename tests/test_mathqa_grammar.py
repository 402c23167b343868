"""The MathQA grammar: both surface forms of real items parse, malformed text gives a typed error."""

from __future__ import annotations

import pytest

from progexec.grammar.mathqa_parse import parse_annotated, parse_linear, parse_mathqa
from progexec.core.errors import ProgramSyntaxError
from progexec.core.nodes import Input, Num, Ref, Step
from progexec.datasets.mathqa.corpus import MATHQA_SPLITS, mathqa_records


def test_first_test_problem_linear_formula() -> None:
    program = parse_linear(mathqa_records("test")[0]["linear_formula"])
    assert program.steps[0] == Step("add", (Input(1, "n1"), Num("const_100")))
    assert program.steps[3] == Step("divide", (Ref(2, "#2"), Ref(1, "#1")))
    assert len(program.steps) == 5


def test_annotated_formula_flattens_inner_calls_first() -> None:
    program = parse_annotated("subtract(divide(multiply(add(const_100, 31.1), const_100), "
                              "subtract(const_100, 5)), const_100)")
    assert [step.op for step in program.steps] == ["add", "multiply", "subtract", "divide", "subtract"]
    assert program.steps[0].args == (Num("const_100"), Num("31.1"))
    assert program.steps[3].args == (Ref(1, "#1"), Ref(2, "#2"))
    assert program.steps[4].args == (Ref(3, "#3"), Num("const_100"))


@pytest.mark.parametrize("text", [
    "add(n0,n1)", "add(n0,n1)|", "negate(n0)|", "triangle_area_three_edges(n0,n1,n2)|",
    "add(const_0_25,const_pi)|multiply(#0,const_deg_to_rad)|", "add( n0 , n1 )|", "add(n0,const_2.0)|",
])
def test_valid_linear(text: str) -> None:
    assert parse_linear(text).steps


@pytest.mark.parametrize("text, fragment", [
    ("", "empty"),
    ("add(n0,n1", "end of program"),
    ("add(n0 n1)|", "unexpected 'n1'"),
    ("add()|", "unexpected ')'"),
    ("add(n0,x)|", "unexpected character 'x'"),
    ("add(n0,n1)||", "expected an op name"),
    ("(n0,n1)|", "expected an op name"),
])
def test_invalid_linear_is_a_typed_error_with_position(text: str, fragment: str) -> None:
    with pytest.raises(ProgramSyntaxError) as caught:
        parse_linear(text)
    assert fragment in caught.value.message
    assert caught.value.line == 1 and caught.value.column >= 1
    assert "^" in caught.value.excerpt()


def test_parse_mathqa_picks_the_form() -> None:
    assert parse_mathqa("add(n0,n1)|divide(#0,n2)|") == parse_linear("add(n0,n1)|divide(#0,n2)|")
    assert len(parse_mathqa("divide(add(5, 3), 2)").steps) == 2


@pytest.mark.parametrize("split", MATHQA_SPLITS)
def test_every_real_linear_formula_parses(split: str) -> None:
    for record in mathqa_records(split):
        assert parse_linear(record["linear_formula"]).steps


def test_real_annotated_formulas_parse_except_decimal_commas() -> None:
    """The nested form parses for every real item but the few written with decimal commas (``3,5``),
    which read as extra arguments and are refused at run time, not at parse time."""
    for split in MATHQA_SPLITS:
        for record in mathqa_records(split):
            assert parse_annotated(record["annotated_formula"]).steps
