"""The ``multihiertt`` dialect against MultiHiertt's own code, as read in psunlpgroup/MultiHiertt@45bd9cc.

Each expected value is what the quoted line of their code gives (utils/utils.py ``str_to_num``,
utils/program_generation_utils.py ``program_tokenization`` / ``eval_program``, evaluate.py and
utils/span_selection_utils.py); ``scripts/crosscheck_multihiertt.py`` runs their code itself on 20,000+
programs. Programs are derived from the FinQA gold programs and hand-written edge cases (MultiHiertt's
test labels are private).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import progexec
from progexec.corpus import corpus_items
from progexec.core.registry import UnknownDialectError, dataset_names as dialect_names, get_dataset as get_dialect
from progexec.datasets.multihiertt import Abort, Branch, numpy_round, score_item, score_records, span_metrics, tokenize
from progexec.core.status import Status
from progexec.records import dumps, outcome_fields
from progexec.core.errors import OptionError


def mh(program: str) -> progexec.Execution:
    return progexec.run(program, dialect="multihiertt")


@pytest.mark.parametrize("program, value", [
    ("add(-5, 5%)", 10.0),              # str_to_num: text.replace("-", "") and .replace("%", "")
    ("add($1000, 1)", 1001.0),          # "$" removed
    ("add(1e-3, 0)", 1000.0),           # "1e-3" loses its "-": float("1e3")
    ("add(const_m1, const_100)", 99.0),  # const_m1 is -1 (after "-" removal, "m1" -> "-1")
    ("add(5,3)", 8.0),                  # split on "," (FinQA splits on ", ")
    ("divide(1, 3)", 0.33333),          # round(this_res, 5) at the end
    ("exp(-4, 0.5)", 2.0),              # "-4" reads 4
])
def test_numbers_read_by_multihiertts_str_to_num(program: str, value: float) -> None:
    execution = mh(program)
    assert execution.official.valid and execution.official.value == value


@pytest.mark.parametrize("program", [
    "greater(5, 3)", "table_sum(revenue, none)", "add(1,000, 5)", "add(x, 1)", "divide(5, 0)", "add(#3, 1)"])
def test_programs_multihiertt_calls_invalid(program: str) -> None:
    # all_ops = ["add", "subtract", "multiply", "divide", "exp"]; any exception is invalid_flag = 1
    assert not mh(program).official.valid


def test_the_same_programs_differ_from_finqa_where_the_readings_differ() -> None:
    assert progexec.run("add(-5, 5%)").official.value == -4.95
    assert progexec.run("add(5,3)").official.valid is False   # FinQA's tokenizer splits on ", " only
    assert progexec.run("greater(5, 3)").official.value == "yes"


def test_tokenization_splits_on_every_comma_and_strips() -> None:
    # each comma-separated piece is stripped, not each token: "add( 5 " keeps the space inside
    assert tokenize("add( 5 ,3), divide(#0,2)") == ["add(", " 5", "3", ")", "divide(", "#0", "2", ")", "EOF"]
    assert progexec.run("add( 5 ,3)", dialect="multihiertt").official.value == 8.0


@pytest.mark.parametrize("program, returned", [
    ("add(5, 3), divide(#0, 0)", 8.0),                         # ZeroDivisionError: this_res as it stood
    ("divide(1, 3), add(#0, foo)", 0.33333),                   # "n/a": break, then round(this_res, 5)
    ("divide(1, 3), divide(#0, 0)", 0.3333333333333333),        # exception: not rounded
    ("divide(1, 3), add(const_x, 1)", 0.3333333333333333),      # float("x") raises inside str_to_num
    ("greater(1, 2)", "n/a"),                                 # the structure check returns (1, "n/a")
])
def test_an_invalid_program_still_returns_a_value(program: str, returned: object) -> None:
    execution = mh(program)
    assert not execution.official.valid
    record = json.loads(dumps(outcome_fields(execution)))
    assert record["official_returned"] == returned


@pytest.mark.parametrize("program", ["", "   ", " , "])
def test_the_empty_program_is_officially_invalid(program: str, tmp_path: Path) -> None:
    """MultiHiertt's eval_program (psunlpgroup/MultiHiertt @ 45bd9cc, utils/program_generation_utils.py) runs no
    step for ``program_tokenization("")`` = ["EOF"] and returns this_res "n/a", the result it gives an invalid
    program; evaluate.py compares only that result. The record says official_valid false, returned "n/a"."""
    execution = mh(program)
    record = json.loads(dumps(outcome_fields(execution)))
    assert (record["official_valid"], record["official_value"], record["official_returned"]) == (False, None, "n/a")
    path = tmp_path / "empty.jsonl"
    path.write_text(json.dumps({"id": "e", "program": program}) + "\n")
    line = _cli("exec", str(path), "--dialect", "multihiertt", "--quiet").stdout.splitlines()[0]
    assert json.loads(line)["official_valid"] is False


def test_a_bound_reached_is_limit_exceeded_in_this_dialect_too() -> None:
    execution = progexec.run("add(1, 2)", dialect="multihiertt", limits=progexec.Limits(max_program_chars=5))
    assert execution.status is Status.LIMIT_EXCEEDED and "max_program_chars" in execution.outcome.message


def test_every_finqa_gold_program_without_negatives_percents_or_other_ops_keeps_its_answer() -> None:
    checked = 0
    for item in corpus_items("finqa:test"):
        text = item.program_text
        if any(mark in text for mark in ("-", "%", "$", "greater", "table_")) or ", " not in text + ", ":
            continue
        if "," in text.replace(", ", ""):  # a thousands separator splits differently
            continue
        execution = mh(text)
        assert execution.official.valid and execution.official.value == item.gold, item.id
        checked += 1
    assert checked > 900


# --- evaluate.py -----------------------------------------------------------------------------------------

def test_two_programs_are_compared_by_their_returned_values_whatever_their_flags() -> None:
    # exe_acc = exe_res == exe_gold_res, with no look at invalid_flag
    both_invalid = score_item("", ["add(", "x", "1", ")", "EOF"], 0.0, "add(y, 1)")
    assert (both_invalid.exact_match, both_invalid.branch) == (1.0, Branch.PROGRAMS)
    leftover = score_item("", ["add(", "5", "3", ")", "divide(", "#0", "0", ")", "EOF"], 8.0, "add(4, 4)")
    assert leftover.exact_match == 1.0  # 8.0 returned beside the invalid flag equals the gold's 8.0
    assert score_item("", ["add(", "5", "3", ")", "EOF"], 8.0, "add(4, 5)").exact_match == 0.0


@pytest.mark.parametrize("span, program_answer, expected", [
    ("106.05", 106.0, 1.0),    # abs_tol = min(|min(a, b)| / 1000, 0.1) = 0.1
    ("106.2", 106.0, 0.0),
    ("0.0101", 0.01, 0.0),     # abs_tol = 0.00001
    ("-7.005", -7.0, 0.0),     # "-" removed: 7.005 against -7.0
    ("$1,000", 1000.0, 1.0),
])
def test_a_number_against_a_program_answer_uses_isclose(span: str, program_answer: float, expected: float) -> None:
    result = score_item(span, [], program_answer, "add(1, 2)")
    assert result.branch is Branch.SPAN_VS_PROGRAM_GOLD and (result.exact_match, result.f1) == (expected, expected)


def test_a_program_prediction_against_a_numeric_span_gold_compares_a_string_and_stops_the_script() -> None:
    # evaluate_span_program_result(span_ans=gold_ans, prog_ans=pred["predicted_ans"]): predicted_ans is text
    # ("106.0" in the README's example), and math.isclose("106.0", 106.0) raises TypeError
    result = score_item("12.5", ["add(", "12", "0.5", ")", "EOF"], "12.5", "")
    assert result.branch is Branch.PROGRAM_VS_SPAN_GOLD and result.abort is Abort.NOT_COMPARABLE


def test_spans_use_drops_bag_metrics() -> None:
    assert span_metrics("the apple", "apple") == (1.0, 1.0)       # articles removed
    assert span_metrics("Apple Inc.", "apple inc") == (1.0, 1.0)  # lower case, punctuation removed
    assert span_metrics("12.50", "12.5") == (1.0, 1.0)            # numbers as str(float)
    assert span_metrics("red apple", "apple") == (0.0, 0.67)      # F1 2/3, rounded to 2 places
    assert span_metrics("5 apples", "6 apples") == (0.0, 0.0)     # a gold number must be matched


def test_numpy_round_is_numpys() -> None:
    numpy = pytest.importorskip("numpy")
    values = [k / 1000 for k in range(0, 2001)] + [k / 800 for k in range(0, 801)] + [2 / 3, 0.285, 0.145, 1.005]
    for value in values:
        assert numpy_round(value, 2) == float(round(numpy.float64(value), 2)), value


def test_a_run_divides_by_the_gold_count_and_keeps_the_first_repeated_prediction() -> None:
    gold = [{"uid": "a", "qa": {"answer": 8.0, "program": "add(5, 3)"}},
            {"uid": "b", "qa": {"answer": "apple", "program": ""}},
            {"uid": "c", "qa": {"answer": 2.0, "program": "add(1, 1)"}}]
    predictions = [{"uid": "a", "predicted_ans": "8", "predicted_program": ["add(", "5", "3", ")", "EOF"]},
                   {"uid": "a", "predicted_ans": "9", "predicted_program": ["add(", "5", "4", ")", "EOF"]},
                   {"uid": "b", "predicted_ans": "the apple", "predicted_program": []},
                   {"uid": "z", "predicted_ans": "1", "predicted_program": []}]
    result = score_records(gold, predictions)
    assert (result.exact_match, result.f1) == (2 / 3, 2 / 3)
    assert result.duplicates == ("a",) and result.unknown == ("z",) and result.would_abort == ("c",)


def test_the_registry_has_one_entry_per_dialect_and_refuses_unknown_names() -> None:
    assert {"finqa", "convfinqa", "mathqa", "multihiertt"} <= set(dialect_names())
    assert get_dialect("multihiertt").ops.keys() == {"add", "subtract", "multiply", "divide", "exp"}
    with pytest.raises(OptionError, match="did you mean 'multihiertt'"):
        get_dialect("multihiert")


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "progexec", *args], capture_output=True, text=True, input=stdin,
                          timeout=300)


def test_the_commands_take_the_dialect(tmp_path: Path) -> None:
    run = _cli("run", "--dialect", "multihiertt", "--json", "add(-5, 5%)")
    assert json.loads(run.stdout)["official_value"] == 10.0
    lines = "".join(json.dumps({"id": str(i), "program": p}) + "\n" for i, p in enumerate(["add(-1, 1)", "add(5,3)"]))
    exec_run = _cli("exec", "-", "--dialect", "multihiertt", stdin=lines)
    assert [json.loads(line)["official_value"] for line in exec_run.stdout.splitlines()] == [2.0, 8.0]
    gold = tmp_path / "dev.json"
    gold.write_text(json.dumps([{"uid": "a", "qa": {"question": "q", "answer": 8.0, "program": "add(5, 3)"}},
                                {"uid": "b", "qa": {"question": "q", "answer": "apple", "program": ""}}]))
    pred = tmp_path / "pred.json"
    pred.write_text(json.dumps([{"uid": "a", "predicted_ans": "8", "predicted_program": ["add(", "4", "4", ")", "EOF"]},
                                {"uid": "b", "predicted_ans": "an apple", "predicted_program": []}]))
    scored = _cli("score", "--gold", str(gold), "--pred", str(pred), "--json")
    assert scored.returncode == 0, scored.stderr
    document = json.loads(scored.stdout)
    assert (document["exact_match"], document["f1"]) == (1.0, 1.0) and "meta" in document
    assert _cli("exec", "--dialect", "klingon", str(gold)).returncode == 2


def test_report_runs_the_exact_oracle_under_the_dialect(tmp_path: Path) -> None:
    lines = tmp_path / "p.jsonl"
    lines.write_text(json.dumps({"id": "tie", "program": "divide(-57, 320)", "exe_ans": 0.17813}) + "\n")
    result = _cli("report", str(lines), "--dialect", "multihiertt", "--out", str(tmp_path / "r"), "--no-progress")
    assert result.returncode == 0, result.stderr
    document = json.loads((tmp_path / "r" / "report.json").read_text())
    program = next(entry for entry in document["programs"] if entry["id"] == "tie")
    assert program["official"] == 0.17813 and float(program["raw"]) == 0.178125  # "-57" reads 57


def test_the_reward_reads_multihiertt_programs_and_numbers_by_its_rules() -> None:
    from progexec.reward import score_completion

    gold = {"answer": "10.0", "program": "add(-5, 5%)", "dialect": "multihiertt"}
    assert score_completion("Program: add(-5, 5%)", gold, policy="official").score == 1.0   # "-5" reads 5
    assert score_completion("Program: add(5,5)", gold, policy="official").score == 1.0      # split on ","
    assert score_completion("Program: greater(5, 3)", gold, policy="official").score == 0.0
