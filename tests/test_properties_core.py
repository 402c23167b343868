"""Property tests: the text form, the token form, the Lark parser and the flat contract agree."""

from __future__ import annotations

import math

from hypothesis import example, given

from progexec.datasets import get_dataset
from progexec.grammar import Program, parse_program, parse_token_list
from progexec.grammar.parse import _parser
from progexec.core.arithmetic import Float64, Refusal
from progexec.interp.evaluate import evaluate
from progexec.interp.flat import compile_program
from progexec.interp.run import execute_text, execute_tokens
from progexec.core.status import Status

from .strategies import programs, tables


def _same(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


@given(programs(), tables())
def test_text_and_token_forms_give_the_same_outcome(program: Program, table: list[list[str]]) -> None:
    by_text = execute_text(program.to_text(), table, get_dataset("finqa"))
    by_tokens = execute_tokens(program.to_tokens(), table, get_dataset("finqa"))
    assert by_text.outcome == by_tokens.outcome
    assert by_text.official == by_tokens.official


@given(programs())
@example(parse_program("table_average(u.s ., none)"))
def test_print_then_parse_is_the_identity(program: Program) -> None:
    assert parse_program(program.to_text()) == program
    assert parse_token_list(program.to_tokens()) == program


@given(programs())
def test_fast_path_and_lark_parser_build_the_same_ast(program: Program) -> None:
    assert _parser().parse(program.to_text()) == parse_program(program.to_text())


@given(programs(), tables())
def test_flat_contract_equals_the_interpreter(program: Program, table: list[list[str]]) -> None:
    outcome = evaluate(program, Float64(), table)
    try:
        flat = compile_program(program, table)
    except Refusal as error:
        assert outcome.status is error.status
        return
    result = flat.run()
    assert result.status == outcome.status
    if outcome.status is Status.OK:
        if outcome.is_bool:
            assert result.is_bool and result.bool_value == outcome.value
        else:
            assert _same(result.value, outcome.value)


@given(programs(), tables())
def test_official_verdict_agrees_whenever_the_contract_answers(program: Program, table: list[list[str]]) -> None:
    from progexec.interp.official import official_verdict

    execution = execute_text(program.to_text(), table, get_dataset("finqa"))
    if execution.outcome.present:
        assert official_verdict(program.to_tokens(), table, get_dataset("finqa")) == execution.official
