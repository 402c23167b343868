"""Peer scorers on their documented behaviour (SPEC §3, issue 4, docs/scoring.md)."""

from __future__ import annotations

from progexec.grammar.tokens import official_tokenize
from progexec.score import GoldItem, Prediction, score_predictions
from progexec.score.official_scorer import ItemContext
from progexec.score.peers import float_equiv, nested_program, pot_equal, safe_arithmetic, tokens_to_text, unitxt_2024

import pytest


@pytest.mark.parametrize("completion,gold,expected", [
    ("14.1%", "0.14136", False),     # no % handling
    (".5", "0.5", True),
    ("12,000", "12", True),          # thousands separator: reads as 12
    ("12,000", "12000.0", False),
    ("The answer is 94 million", "94.0", True),
    ("yes", "yes", False),           # no number on either side scores 0
    ("\u22125", "5.0", True),        # U+2212 minus is not a sign
    ("(5)", "-5.0", False),          # parentheses are not a negative
    ("0.1000001", "0.1", True),      # strictly within 1e-6
    ("0.100002", "0.1", False),
    ("1e3", "1000.0", True),
    ("", "1.0", False),
])
def test_helm_float_equiv(completion: str, gold: str, expected: bool) -> None:
    assert float_equiv(completion, gold) is expected


@pytest.mark.parametrize("prediction,reference,expected", [
    (0.14136, 0.1414, True),     # rounded to the shorter precision (4)
    (94.04, 94.0, True),         # str(94.0) has one decimal
    (94.06, 94.0, False),
    ("yes", "yes", True),
    (True, "yes", True),
    (False, "yes", False),
    (None, 1.0, False),
    (1.0, "yes", False),
])
def test_pot_equal(prediction: object, reference: object, expected: bool) -> None:
    assert pot_equal(prediction, reference) is expected  # type: ignore[arg-type]


def _one(gold_program: str, exe_ans: float | str, pred: Prediction, answer: str | None = None,
         table: list[list[str]] | None = None) -> dict[str, tuple[bool, bool | None]]:
    gold = [GoldItem(pred.id, tuple(official_tokenize(gold_program)), table or [], exe_ans, answer,
                     program_text=gold_program)]
    report = score_predictions(gold, [pred], ["all"])
    return {name: (v.execution, v.program) for name, v in report.items[0].verdicts.items()}


def test_helm_fin_qa_uses_isclose_where_official_uses_equality() -> None:
    pred = Prediction("x", tuple(official_tokenize("divide(1, 3)")))
    verdicts = _one("divide(1, 3)", 0.33333000000001, pred)
    assert verdicts["official"][0] is False
    assert verdicts["helm-fin-qa"][0] is True
    assert verdicts["helm-fin-qa"][1] is True


def test_yes_no_golds() -> None:
    pred = Prediction("x", tuple(official_tokenize("greater(5, 3)")))
    verdicts = _one("greater(5, 3)", "yes", pred)
    assert verdicts["official"] == (True, True)
    assert verdicts["helm-fin-qa"][0] is True
    assert verdicts["helm-float-equiv"][0] is False  # 'yes' has no number
    assert verdicts["pot"][0] is True
    # float('yes') raises; unitxt's fallback then finds the prediction ends with references[0], the program
    assert verdicts["unitxt"][0] is True


def test_free_text_answers_feed_only_the_answer_scorers() -> None:
    pred = Prediction("x", None, "The change is 94.0")
    verdicts = _one("subtract(5829, 5735)", 94.0, pred)
    assert verdicts["official"] == (False, False)
    assert verdicts["helm-float-equiv"][0] is True
    assert verdicts["pot"][0] is False  # PoT compares a string prediction with == to a float


def test_unitxt_compares_against_the_human_answer() -> None:
    pred = Prediction("x", tuple(official_tokenize("subtract(5829, 5735)")))
    assert _one("subtract(5829, 5735)", 94.0, pred, answer="94")["unitxt"] == (True, True)
    assert _one("subtract(5829, 5735)", 94.0, pred, answer="94.1")["unitxt"][0] is False
    # without qa.answer the gold falls back to str(exe_ans)
    assert _one("subtract(5829, 5735)", 94.0, pred)["unitxt"][0] is True


def test_unitxt_fallback_compares_with_the_program_reference() -> None:
    # float("94%") raises, so python_expression_eval runs against references[0] = program_re, not the answer
    same = Prediction("x", tuple(official_tokenize("subtract(5829, 5735)")))
    assert _one("subtract(5829, 5735)", 94.0, same, answer="94%")["unitxt"][0] is True
    other = Prediction("x", tuple(official_tokenize("add(5735, 94), subtract(#0, 5735)")))
    assert _one("subtract(5829, 5735)", 94.0, other, answer="94%")["unitxt"][0] is False
    # the prediction is cut after its last ')' before executing and before the endswith test
    wordy = Prediction("x", None, program_text="subtract(5829, 5735) = 94%")
    assert _one("subtract(5829, 5735)", 94.0, wordy, answer="94%")["unitxt"][0] is True
    # the fallback runs only when float() raises: an invalid execution is a plain 0
    invalid = Prediction("x", None, program_text="The program: subtract(5829, 5735)")
    assert _one("subtract(5829, 5735)", 94.0, invalid, answer="94%")["unitxt"][0] is False


def test_unitxt_current_card_gives_a_correct_multi_step_program_accuracy_1() -> None:
    program = "subtract(5829, 5735), divide(#0, 5735)"
    pred = Prediction("x", tuple(official_tokenize(program)))
    verdicts = _one(program, 0.01639, pred)
    assert verdicts["official"] == (True, True)
    assert verdicts["unitxt"] == (True, True)  # program_re = str(qa.program), the flat form


def test_unitxt_2024_card_uses_the_nested_program_re() -> None:
    program = "subtract(5829, 5735), divide(#0, 5735)"
    gold = GoldItem("x", tuple(official_tokenize(program)), [], 0.01639, None, program_text=program)
    pred = Prediction("x", tuple(official_tokenize(program)))
    verdict = unitxt_2024(ItemContext(gold, pred))
    assert (verdict.execution, verdict.program) == (True, False)  # the nested form fails the structure check
    single = "subtract(5829, 5735)"
    gold = GoldItem("x", tuple(official_tokenize(single)), [], 94.0, None, program_text=single)
    verdict = unitxt_2024(ItemContext(gold, Prediction("x", tuple(official_tokenize(single)))))
    assert (verdict.execution, verdict.program) == (True, True)


def test_unitxt_table_ops_are_invalid_because_the_card_passes_a_dict() -> None:
    table = [["", "2019", "2018"], ["revenue", "$ 1", "2"]]
    program = "table_sum(revenue, none)"
    pred = Prediction("x", tuple(official_tokenize(program)))
    verdicts = _one(program, 3.0, pred, table=table)
    assert verdicts["official"] == (True, True)
    assert verdicts["unitxt"] == (False, True)  # for row in {"header", "rows"}: no row named 'revenue'


def test_unitxt_reads_the_first_non_empty_line_of_the_prediction() -> None:
    text = "\n  add(1, 2)\nexplanation: subtract(9, 6)"
    pred = Prediction("x", None, program_text=text)
    assert _one("add(1, 2)", 3.0, pred)["unitxt"] == (True, True)


def test_nested_program_and_token_text() -> None:
    tokens = official_tokenize("subtract(34.8, 1.2), divide(#0, 34.8)")
    assert nested_program(tokens) == "divide(subtract(34.8, 1.2), 34.8)"
    assert tokens_to_text(tokens) == "subtract(34.8, 1.2), divide(#0, 34.8)"


def test_safe_arithmetic_refuses_code() -> None:
    assert safe_arithmetic("3.8 / 35.1") == 3.8 / 35.1
    with pytest.raises(ValueError):
        safe_arithmetic("__import__('os')")
    with pytest.raises(ValueError):
        safe_arithmetic("subtract(5, 3)")


def test_helm_fin_qa_strips_the_completion_before_tokenizing() -> None:
    # a leading space makes the official tokenizer's first token ' add(' (not an op); HELM strips first
    pred = Prediction("x", tuple(official_tokenize(" add(1, 2)")), program_text=" add(1, 2)")
    verdicts = _one("add(1, 2)", 3.0, pred)
    assert verdicts["official"] == (False, False)
    assert verdicts["helm-fin-qa"] == (True, True)
    assert verdicts["unitxt"] == (True, True)  # take_first_non_empty_line strips it too


def test_free_text_convfinqa_predictions_reach_only_the_answer_scorers() -> None:
    """The zarifaziz dev file (1,490 free-text turns): every id is a dev turn, no program to execute."""
    from pathlib import Path

    from progexec.score import load_gold, load_predictions

    path = Path(__file__).parent / "data" / "predictions" / "zarifaziz-claude-sonnet-4-6_convfinqa-dev_predictions.jsonl.gz"
    report = score_predictions(load_gold("convfinqa:dev"), load_predictions(str(path)), ["all"])
    assert report.n == 1490 and report.unknown_ids == [] and report.missing_ids == []
    assert report.scorers["official"].execution_correct == 0
    assert all(item.verdicts["official"].execution_why == "no_program" for item in report.items)
    first = next(item for item in report.items if item.id == "Single_IPG/2009/page_85.pdf-3_0")
    # answer "0.1082" against exe_ans 0.10826: 5.8e-5 apart (float_equiv 0); PoT rounds both to 4 places (0.1083)
    assert first.verdicts["helm-float-equiv"].execution is False
    assert first.verdicts["pot"].execution is False
