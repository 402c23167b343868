"""TAT-QA's official normalisation and per-question metric, rule by rule, as tatqa_utils.py and
tatqa_metric.py (NExTplusplus/TAT-QA @ 870accc) define them; each case is a quirk of docs/tatqa.md."""

from __future__ import annotations

from typing import Any

import pytest

from progexec.datasets.tatqa.metric import Reason, numpy_round_2, score_question
from progexec.datasets.tatqa.normalize import answer_string, is_number, normalize_answer, scale_to_num, to_number
from progexec.core.errors import OfficialAbort


def arithmetic(answer: Any, scale: str) -> dict[str, Any]:
    return {"uid": "q", "answer": answer, "answer_type": "arithmetic", "answer_from": "table", "scale": scale}


def span(answer: list[str], kind: str = "span", scale: str = "") -> dict[str, Any]:
    return {"uid": "q", "answer": answer, "answer_type": kind, "answer_from": "text", "scale": scale}


@pytest.mark.parametrize(("prediction", "scale", "em"), [
    ("6.67", "percent", 1.0),   # the scale must be predicted too
    ("6.67", "", 0.0),          # no scale: '6.6700' against '0.0667'
    ("0.0667", "", 1.0),        # a bare fraction with no scale is also compared unrounded (add_percent_pred)
    ("6.67%", "", 1.0),         # '%' in the answer: to_number reads 0.0667, the scale is ignored
    ("6.67%", "million", 1.0),
    ("0.0667", "percent", 0.0),
    (6.67, "percent", 1.0),     # a JSON number is read through str()
    ("6.674", "percent", 1.0),  # rounded to 2 places before the scale
    ("6.675", "percent", 1.0),  # 6.675 is 6.67499... in binary: round(, 2) gives 6.67
    ("6.665", "percent", 1.0),  # 6.665 is 6.66500...04 in binary: 6.67 too
    ("6.6649999", "percent", 1.0),  # to_number first rounds to 4 places (6.665), then to 2: double rounding
    ("6.68", "percent", 0.0),
])
def test_percent_answers_need_their_scale(prediction: Any, scale: str, em: float) -> None:
    scored = score_question(arithmetic(6.67, "percent"), prediction, scale)
    assert (scored.em, scored.f1) == (em, em)  # F1 of an arithmetic answer is its EM


@pytest.mark.parametrize(("text", "value"), [
    ("(12.6)", -12.6), ("(8,551)", 8551), ("($12.6)", 12.6), ("-(12.6)", 12.6), ("-12.6", -12.6),
    ("$1,496.5", 1496.5), ("1.5 million", 1500000.0), ("12%", 0.12), ("12 %", 0.12), ("3 hundred", 300),
    (".5", None), ("1e-05", 1), ("inf", None),
])
def test_to_number_quirks(text: str, value: Any) -> None:
    assert to_number(text) == value


@pytest.mark.parametrize(("text", "number"), [
    ("12", True), ("12 million", True), ("12 apples", False), ("(12.6)", True), ("nan", False), ("inf", True),
    ("", False), ("1_000", True), ("$", False),
])
def test_is_number(text: str, number: bool) -> None:
    assert is_number(text) is number


def test_scale_words() -> None:
    assert [scale_to_num(s) for s in ("", "thousand", "million", "billion", "percent", "Thousands")] == [
        1, 1000, 1000000, 1000000000, 0.01, 1000]
    with pytest.raises(OfficialAbort):
        scale_to_num(None)


def test_normalize_answer_drops_articles_punctuation_and_reads_numbers() -> None:
    assert normalize_answer("The Net  Revenue, total.") == "net revenue total"
    assert normalize_answer("1,234.5000") == "1234.5"
    assert normalize_answer("inf") == "None"  # is_number accepts inf, to_number finds no digits


def test_answer_string_sorts_then_joins() -> None:
    assert answer_string(["b", "A"], "") == "A b"
    assert answer_string(["2019", "x"], "million") == "2019000000.0000 x million"


def test_recasing_one_span_makes_em_0_and_f1_1() -> None:
    gold = span(["Apple", "banana"], "multi-span")
    scored = score_question(gold, ["apple", "Banana"], "")  # sorted: 'Banana apple' vs 'Apple banana'
    assert (scored.em, scored.f1, scored.reason) == (0.0, 1.0, Reason.SPAN_ORDER)
    assert score_question(gold, ["banana", "Apple"], "").em == 1.0


def test_f1_is_rounded_as_numpy_rounds() -> None:
    # 21 predicted words, 59 gold words, 7 in common: F1 0.175; numpy's round gives 0.18, Python's 0.17
    shared = [f"w{i}" for i in range(7)]
    predicted = shared + [f"p{i}" for i in range(14)]
    gold = shared + [f"g{i}" for i in range(52)]
    scored = score_question(span([" ".join(gold)]), " ".join(predicted), "")
    assert scored.f1 == 0.18
    assert round(0.175, 2) == 0.17 and numpy_round_2(0.175) == 0.18 and numpy_round_2(0.025) == 0.02


@pytest.mark.parametrize("falsy", ["", [], None, 0, 0.0, False, {}])
def test_falsy_predictions_are_missing(falsy: Any) -> None:
    scored = score_question(arithmetic(0, ""), falsy, "")
    assert (scored.em, scored.scale_counted, scored.reason) == (0.0, False, Reason.MISSING)


def test_a_gold_answer_of_zero_cannot_be_matched_by_a_number_zero() -> None:
    assert score_question(arithmetic(0, ""), "0", "").em == 1.0
    assert score_question(arithmetic(0, ""), 0, "").em == 0.0


@pytest.mark.parametrize(("prediction", "scale", "reason"), [
    ("1496.5", "", Reason.SCALE_MISSING), ("1496.5", "billion", Reason.SCALE_WRONG), ("-1496.5", "million",
                                                                                       Reason.SIGN),
    ("1496.51", "million", Reason.ROUNDING), ("1500", "million", Reason.VALUE_DIFFERS),
    ("n/a", "million", Reason.NOT_A_NUMBER), ("$1,496.5", "million", Reason.MATCH),
])
def test_reasons(prediction: str, scale: str, reason: Reason) -> None:
    assert score_question(arithmetic(1496.5, "million"), prediction, scale).reason is reason


def test_where_the_official_scorer_raises() -> None:
    with pytest.raises(OfficialAbort):
        score_question(arithmetic(5, "percent"), ["a", 1], "")  # sorted() of str and int
    with pytest.raises(OfficialAbort):
        score_question(arithmetic(5, "percent"), "5", None)  # None.lower()
    with pytest.raises(OfficialAbort):
        score_question(span("not a list"), "x", "")  # type: ignore[arg-type]  # the official assert
    with pytest.raises(OfficialAbort):
        score_question(arithmetic(5, "hundred"), "5", "")  # KeyError in the scale counters
    assert score_question(span(["x"]), "x", None).em == 1.0  # a None scale is fine for text
