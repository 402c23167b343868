"""MathQA execution on real problems: number binding, options, option selection, the 1 % counts, ``exec``."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import pytest

from progexec.cli import main
from progexec.core.status import Status
from progexec.datasets.mathqa.binding import bind_numbers, number_texts
from progexec.datasets.mathqa.corpus import mathqa_records
from progexec.datasets.mathqa.execute import execute_all, execute_problem, run_formula
from progexec.datasets.mathqa.options import kept_by_filter, option_value, parse_options, select_option


# --- number binding -----------------------------------------------------------------------------

def test_binding_on_the_first_test_problem() -> None:
    assert bind_numbers(mathqa_records("test")[0]["Problem"]) == [5.0, 31.1]


@pytest.mark.parametrize("text, numbers", [
    ("a sum of rs . 1,000 at 14 % for 4 years", ["1000", "14", "4"]),
    ("the price fell by .5 and then 2.75", [".5", "2.75"]),
    ("temperature - 5 then -7 and +3", ["5", "-7", "+3"]),
    ("speed 2e3 m and 3.", ["2e3", "3."]),
    ("page 1,00 and 12,345,678", ["1", "00", "12345678"]),
    ("no numbers here", []),
])
def test_number_texts(text: str, numbers: list[str]) -> None:
    assert number_texts(text) == numbers


def test_binding_on_real_problems() -> None:
    records = mathqa_records("test")
    # item 1: "... at 14 % per annum on a sum of rs . 1000 after 4 years ?"
    assert bind_numbers(records[1]["Problem"]) == [14.0, 1000.0, 4.0]
    # challenge item 0: "there are 1000 buildings ... from 1 to 1000"
    assert bind_numbers(mathqa_records("challenge_test")[0]["Problem"]) == [1000.0, 1.0, 1000.0]


# --- options -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, value", [
    ("38", 38.0), ("27.675", 27.675), ("2 1 / 2", 2.5), ("3 / 5", 0.6), ("rs . 400", 400.0),
    ("50 km / hr", 50.0), ("none of these", None), ("data inadequate", None), ("$ 1,440", 1440.0),
    ("- 6", -6.0), ("- 1 / 2", -0.5), ("23 1 / 13 %", 23 + 1 / 13), ("15 / 8 ohms", 1.875), (".5", 0.5),
])
def test_option_value(text: str, value: float | None) -> None:
    assert option_value(text) == value


def test_parse_options_plain_list_and_doubled_letters() -> None:
    options = parse_options("a ) 38 , b ) 27.675 , c ) 30 , d ) data inadequate , e ) none of these")
    assert [(o.letter, o.value) for o in options.values()] == [
        ("a", 38.0), ("b", 27.675), ("c", 30.0), ("d", None), ("e", None)]
    listed = parse_options("['a ) 240 square units', 'b ) 180 square units', 'c ) 100 square units']")
    assert listed["b"].value == 180.0 and listed["b"].text == "180 square units"
    doubled = parse_options("a ) a ) 3 , b ) b ) 5 , c ) c ) 9")
    assert doubled["c"].value == 9.0
    assert parse_options("a ) 30 , 10 , b ) 4 , 2")["a"].value == 30.0


def test_select_option_one_percent() -> None:
    options = parse_options("a ) 129 , b ) 130 , c ) 124 , d ) 133 , e ) 145")
    assert select_option(128.96016, options) == "a"
    assert select_option(129.5, options) == "a"     # nearer to 129 though within 1 % of both
    assert select_option(140.0, options) is None
    assert select_option(None, options) is None


def test_keep_rule_needs_a_positive_option() -> None:
    assert kept_by_filter(38.0, 38.0) and kept_by_filter(38.3, 38.0) and not kept_by_filter(38.5, 38.0)
    assert not kept_by_filter(0.0, 0.0)
    assert not kept_by_filter(-49.0, -49.0)


# --- real problems, hand-checked ----------------------------------------------------------------

def test_first_test_problem_is_38_percent_profit() -> None:
    """(100 + 31.1) * 100 / (100 - 5) - 100 = 13110 / 95 - 100 = 38: option a."""
    result = execute_problem(mathqa_records("test")[0], 0)
    assert result.outcome.status is Status.OK
    assert math.isclose(result.value, 38.0, rel_tol=1e-12)
    assert (result.option, result.correct, result.match) == ("a", "a", True)


def test_compound_minus_simple_interest() -> None:
    """1000 * 1.14**4 - 1000 - 1000 * 0.14 * 4 = 1688.96016 - 1000 - 560 = 128.96016, option a (129)."""
    result = execute_problem(mathqa_records("test")[1], 1)
    assert math.isclose(result.value, 128.96016, rel_tol=1e-12)
    assert result.option == "a" and result.match


def test_bankers_discount_from_bankers_gain() -> None:
    """dev 2449: gain 60 over 3 years at 10 %: BD = 60 * 100 / (3 * 10) + 60 = 260, option e."""
    result = execute_problem(mathqa_records("dev")[2449], 2449)
    assert result.value == 260.0
    assert result.option == "e" == result.correct


def test_bankers_gain_from_present_worth() -> None:
    """test 2910: PW 1296, TD 72: BD = 72**2 / 1296 + 72 = 4 + 72 = 76, option a."""
    result = execute_problem(mathqa_records("test")[2910], 2910)
    assert result.value == 76.0 and result.option == "a" and result.match


def test_unsupported_op_in_a_real_gold_formula() -> None:
    result = execute_problem(mathqa_records("test")[982], 982)
    assert result.outcome.status is Status.UNSUPPORTED_OP
    assert "surface_cylinder" in result.outcome.message
    assert result.value is None and result.match is False


def test_annotated_formula_with_decimal_commas_is_refused() -> None:
    records = [r for r in mathqa_records("test") if "3,5, 7,9" in r["annotated_formula"]]
    assert records
    assert execute_problem(records[0], 0, annotated=True).outcome.status is Status.SYNTAX_ERROR


def test_bad_records_are_bad_input_not_exceptions() -> None:
    assert execute_problem("not an object", 7).outcome.status is Status.BAD_INPUT
    assert execute_problem({"Problem": "x"}, 3).id == "3"
    assert run_formula("add(n0,n5)|", "1 and 2").status is Status.BAD_LITERAL
    assert run_formula("add(n0,", "1 and 2").status is Status.SYNTAX_ERROR


@pytest.mark.parametrize("split, kept", [("test", 1881), ("dev", 2815)])
def test_the_one_percent_counts(split: str, kept: int) -> None:
    """The issue's independent implementation: 1,881 of 2,985 (test), 2,815 of 4,475 (dev)."""
    results = list(execute_all(mathqa_records(split)))
    assert sum(bool(result.match) for result in results) == kept


# --- progexec exec on a MathQA file ---------------------------------------------------------------

def test_exec_routes_a_mathqa_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = list(mathqa_records("test")[:3]) + [{"Problem": "what is 2 plus 2 ?", "options": "a ) 4 , b ) 5",
                                                   "correct": "a", "linear_formula": "min(n0,n1)|", "id": "mine"}]
    source = tmp_path / "mathqa.json.gz"
    source.write_bytes(gzip.compress(json.dumps(records).encode("utf-8")))
    out = tmp_path / "out.jsonl"
    assert main(["exec", str(source), "--out", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [line["id"] for line in lines] == ["0", "1", "2", "mine"]
    assert lines[0] == {"id": "0", "status": "ok", "code": 1400, "value": 38.0, "option": "a",
                        "correct": "a", "match": True}
    assert lines[3]["status"] == "unsupported_op" and lines[3]["code"] == 1416
    assert "within 1% of the correct option" in capsys.readouterr().err


def test_extended_table_runs_the_unsupported_gold_formulas() -> None:
    """test 2931: whole surface of a cylinder, r 7, h 4: 2·pi·7·(7 + 4) = 154·pi ≈ 483.8, option a (484).
    test 2889: median of seven prices is the 7th listed (1.82), the formula's min(1.82, mean 1.8757): b."""
    from progexec.datasets.mathqa.ops import MATHQA_EXTENDED_OPS

    cylinder = execute_problem(mathqa_records("test")[2931], 2931, ops=MATHQA_EXTENDED_OPS)
    assert math.isclose(cylinder.value, 154 * math.pi, rel_tol=1e-12) and cylinder.option == "a" and cylinder.match
    median = execute_problem(mathqa_records("test")[2889], 2889, ops=MATHQA_EXTENDED_OPS)
    assert median.value == 1.82 and median.option == "b" and median.match
    assert execute_problem(mathqa_records("test")[2931], 2931).outcome.status is Status.UNSUPPORTED_OP
