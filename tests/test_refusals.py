"""One test per refusal status of the contract (1401-1419), each with what the spec says happens."""

from __future__ import annotations

import pytest

from progexec.datasets import get_dataset
from progexec.runner import execute
from progexec.grammar import Program, parse_program
from progexec.core.item import Item
from progexec.core.arithmetic import Float64
from progexec.interp.evaluate import evaluate
from progexec.interp.flat import run_flat
from progexec.core.ops import FINQA_OPS, OpSpec
from progexec.interp.run import execute_text
from progexec.core.status import Status, status_name

TABLE = [["", "2019", "2018"], ["revenue", "$ 1,200", "5%"], ["empty"], ["bad", "n/a", "3"],
         ["dup", "1", "2"], ["dup", "10", "20"]]

TEXT_CASES = [
    ("add(#0, 1)", Status.FORWARD_REFERENCE, 0, 1),
    ("add(1, 2), add(#1, 1)", Status.FORWARD_REFERENCE, 1, 1),
    ("greater(3, 2), add(#0, 1)", Status.REFERENCE_TO_BOOLEAN, 1, 1),
    ("table_sum(empty, none)", Status.EMPTY_ROW, 0, 1),
    ("divide(5, 0)", Status.DIVIDE_BY_ZERO, 0, None),
    ("exp(0, -1)", Status.DIVIDE_BY_ZERO, 0, None),
    ("foo(1, 2)", Status.UNKNOWN_OP, 0, None),
    ("add(1, 2), table_sum(#0, none)", Status.BAD_ARG_KIND, 1, 1),
    ("multiply(1e308, 10)", Status.OVERFLOW, 0, None),
    ("exp(10, 400)", Status.OVERFLOW, 0, None),
    ("add(inf, 1)", Status.OVERFLOW, 0, 1),
    ("exp(-8, 0.5)", Status.NON_REAL_RESULT, 0, None),
    ("add(abc, 1)", Status.BAD_LITERAL, 0, 1),
    ("add(1, const_x)", Status.BAD_LITERAL, 0, 2),
    ("table_max(nothing, none)", Status.MISSING_ROW, 0, 1),
    ("table_max(bad, none)", Status.BAD_CELL, 0, 1),
    ("add(1, 2", Status.SYNTAX_ERROR, None, None),
    ("add(nan, 1)", Status.NOT_A_NUMBER, 0, 1),
    ("add(1, " + "1" * 500 + ")", Status.LIMIT_EXCEEDED, 0, 2),
]


@pytest.mark.parametrize(("program", "status", "step", "arg"), TEXT_CASES, ids=[c[0][:40] for c in TEXT_CASES])
def test_text_refusal(program: str, status: Status, step: int | None, arg: int | None) -> None:
    outcome = execute_text(program, TABLE, get_dataset("finqa")).outcome
    assert outcome.status is status
    assert outcome.value is None and not outcome.present
    assert (outcome.step, outcome.arg) == (step, arg)
    assert outcome.message


def test_no_steps() -> None:
    assert evaluate(Program(()), Float64()).status is Status.NO_STEPS
    assert run_flat([], [], [], [], [], [], [], [], 0).status == Status.NO_STEPS


def test_length_mismatch_and_table_slice() -> None:
    assert run_flat([0], [0], [1.0], [0], [1.0], [], [0], [0], 2).status == Status.LENGTH_MISMATCH
    assert run_flat([8], [2], [0.0], [0], [0.0], [1.0], [0], [2], 1).status == Status.TABLE_SLICE_OUT_OF_BOUNDS
    assert run_flat([8], [2], [0.0], [0], [0.0], [1.0], [-1], [1], 1).status == Status.TABLE_SLICE_OUT_OF_BOUNDS


def test_bad_arg_kind_in_flat_form() -> None:
    assert run_flat([8], [0], [1.0], [0], [0.0], [1.0], [0], [1], 1).status == Status.BAD_ARG_KIND
    assert run_flat([0], [2], [1.0], [0], [0.0], [1.0], [0], [1], 1).status == Status.BAD_ARG_KIND


def test_missing_table_is_a_missing_row() -> None:
    assert execute_text("table_sum(revenue, none)", None, get_dataset("finqa")).outcome.status is Status.MISSING_ROW


def test_unsupported_op() -> None:
    ops = dict(FINQA_OPS)
    ops["add"] = OpSpec("add", 2, FINQA_OPS["add"].apply, unsupported="add is switched off here")
    outcome = evaluate(parse_program("add(1, 2)"), Float64(), ops=ops)
    assert outcome.status is Status.UNSUPPORTED_OP


def test_limit_exceeded_by_steps_and_text() -> None:
    program = parse_program(", ".join(["add(1, 1)"] * 20))
    assert evaluate(program, Float64(), max_steps=10).status is Status.LIMIT_EXCEEDED
    assert execute_text("add(1, 1), " * 20_000 + "add(1, 1)", None, get_dataset("finqa")).status is Status.LIMIT_EXCEEDED


def test_bad_input_item() -> None:
    outcome = execute(Item("x", None, error="the item has no program", dialect=get_dataset("finqa"))).outcome
    assert outcome.status is Status.BAD_INPUT


def test_every_status_code_is_named_and_in_range() -> None:
    assert [int(s) for s in Status] == list(range(1400, 1420))
    assert status_name(1400) == "ok" and status_name(1407) == "divide_by_zero"
    assert status_name(1500) == "unknown_status_1500"


def test_table_semantics() -> None:
    # "$ 1,200" -> 1200, "5%" -> 0.05, later duplicate row wins
    assert execute_text("table_sum(revenue, none)", TABLE, get_dataset("finqa")).outcome.value == round(1200 + 0.05, 5)
    assert execute_text("table_max(dup, none)", TABLE, get_dataset("finqa")).outcome.value == 20.0


def test_official_answer_is_reported_where_the_contract_refuses() -> None:
    overflow = execute_text("multiply(1e308, 10)", None, get_dataset("finqa"))
    assert overflow.official.valid and overflow.official.value == float("inf")
    stale = execute_text("table_sum(revenue, none), table_max(#0, none)", TABLE, get_dataset("finqa"))
    assert stale.status is Status.BAD_ARG_KIND
    assert stale.official.valid and stale.official.value == 1200.0  # reuses the previous table op's row
    assert not execute_text("subtract(5829,5735)", None, get_dataset("finqa")).official.valid
    assert execute_text("subtract(5829,5735)", None, get_dataset("finqa")).outcome.value == 94.0
