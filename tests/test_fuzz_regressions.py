"""Pinned regressions for bugs the differential fuzzer found (issue 7); each states the SPEC rule.

Expected values come from the SPEC text (and agree with tests/reference_impl.py), never from
progexec computing the same thing twice.
"""

from __future__ import annotations

from progexec.datasets import get_dataset
from progexec.grammar import parse_program, parse_token_list
from progexec.core.arithmetic import CONVFINQA_LITERALS, Float64, Refusal
from progexec.interp.evaluate import evaluate
from progexec.interp.flat import compile_program
from progexec.interp.run import execute_text, execute_tokens
from progexec.core.status import Status

from .reference_impl import ref_tokenize, reference_eval


def test_an_empty_row_anywhere_makes_every_table_op_fail() -> None:
    # SPEC §1: rows are keyed by their first cell; the official loop reads row[0] of every row,
    # so an empty row raises inside the bare except: the program is invalid.
    table = [["revenue", "1"], []]
    execution = execute_text("add(1, 2), table_sum(revenue, none)", table, get_dataset("finqa"))
    assert not execution.official.valid
    assert not reference_eval(ref_tokenize("add(1, 2), table_sum(revenue, none)"), table).valid
    assert execution.outcome.status is Status.EMPTY_ROW
    assert (execution.outcome.step, execution.outcome.arg) == (1, 1)
    assert "row 1" in execution.outcome.message
    try:
        compile_program(parse_program("table_sum(revenue, none)"), table)
    except Refusal as error:
        assert error.status is Status.EMPTY_ROW
    else:
        raise AssertionError("the flat form must refuse the same table")
    # arithmetic alone never reads the table: still valid
    assert execute_text("add(1, 2)", table, get_dataset("finqa")).outcome.value == 3.0


def test_unknown_op_is_the_same_status_in_text_and_token_form() -> None:
    by_text = execute_text("foo(1, 2)", None, get_dataset("finqa"))
    by_tokens = execute_tokens(["foo(", "1", "2", ")", "EOF"], None, get_dataset("finqa"))
    assert by_text.outcome.status is by_tokens.outcome.status is Status.UNKNOWN_OP
    assert not by_text.official.valid and not by_tokens.official.valid
    assert parse_token_list(["foo(", "1", "2", ")", "EOF"]).official_invalid
    # a head that is not an identifier stays a syntax error in both forms
    assert execute_tokens(["1(", "1", "2", ")", "EOF"], None, get_dataset("finqa")).outcome.status is Status.SYNTAX_ERROR
    assert execute_text("1(1, 2)", None, get_dataset("finqa")).outcome.status is Status.SYNTAX_ERROR


def test_bare_literal_keeps_the_spaces_the_official_evaluator_sees() -> None:
    # SPEC §2: a single token is read by str_to_num as it stands; "const_m1 " is not "const_m1".
    for text in ("const_m1 ", " const_m1"):
        execution = execute_text(text, None, get_dataset("convfinqa"))
        assert not execution.official.valid
        assert not reference_eval(ref_tokenize(text), None, "convfinqa").valid
        assert execution.outcome.status is Status.BAD_LITERAL
    spaced = execute_text(" 206588 ", None, get_dataset("convfinqa"))  # float() ignores the spaces
    assert spaced.official.valid and spaced.official.value == 206588.0
    assert spaced.outcome.value == 206588.0
    assert evaluate(parse_program("const_m1"), Float64(CONVFINQA_LITERALS)).value == -1.0


def test_exact_oracle_switches_to_intervals_when_fractions_grow() -> None:
    # Found probing slow paths: 3,000 multiplications by 1.0001 made the exact oracle build
    # 40,000-digit fractions (seconds per program). Past the size/work budget it now uses intervals,
    # which still decide the 5-place answer; the result is flagged as too large, not irrational.
    from fractions import Fraction

    from progexec.oracle.exact import MAX_EXACT_BITS
    from progexec.oracle.reference import exact_answer

    steps = ["multiply(1.0001, 1.0001)"] + [f"multiply(#{i}, 1.0001)" for i in range(2999)]
    answer = exact_answer(parse_program(", ".join(steps)), None, "decimal")
    assert answer.status is Status.OK and answer.decided and answer.too_large
    exact = Fraction(10001, 10000) ** 3001  # the value itself, computed once here to check the enclosure
    assert answer.low is not None and answer.high is not None and answer.low <= exact <= answer.high
    assert answer.rounded == round(exact, 5)
    assert max(exact.numerator.bit_length(), exact.denominator.bit_length()) > MAX_EXACT_BITS
    irrational = exact_answer(parse_program("exp(2, 0.5)"), None, "decimal")
    assert irrational.precision_bits is not None and not irrational.too_large
    small = exact_answer(parse_program("multiply(1.0001, 1.0001)"), None, "decimal")
    assert small.value == Fraction(10001, 10000) ** 2 and small.precision_bits is None


def test_official_model_reads_a_large_table_once_per_program() -> None:
    # Found probing slow paths: the official model rebuilt the row dictionary for every table op,
    # so a program the contract refuses (here: cut off mid-step) with thousands of table ops over a
    # large table took minutes. The verdict is unchanged: the official evaluator answers invalid.
    from progexec.interp.official import official_verdict

    table = [[f"row{i}", "1", "2"] for i in range(20_000)]
    tokens = ["table_sum(", "row1", "none", ")"] * 3000 + ["EOF"]
    assert official_verdict(tokens, table, get_dataset("finqa")).valid
    assert official_verdict(tokens, table, get_dataset("finqa")).value == 3.0
    assert not official_verdict(tokens, [*table, []], get_dataset("finqa")).valid  # an empty row still breaks every table op
