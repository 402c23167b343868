"""The reward on TAT-QA gold records: the official rule (TAT-QA's exact match) and the numeric rule."""

from __future__ import annotations

import json

import pytest

from progexec.reward import score_completion
from progexec.datasets.tatqa import read_questions
from progexec.datasets.tatqa.reward import final_answer

PERCENT = {"dialect": "tatqa", "answer": 6.67, "scale": "percent", "answer_type": "arithmetic"}


@pytest.mark.parametrize(("completion", "official", "numeric"), [
    ("The answer is 6.67%", "ok", "ok"),
    ("Answer: 6.67 percent", "ok", "ok"),
    ("0.0667", "ok", "ok"),             # the official add_percent_pred: a bare fraction with no scale
    ("6.67", "scale_mismatch", "scale_mismatch"),
    ("Answer: **6.68%**", "wrong", "wrong"),
    ("", "no_answer", "no_answer"),
])
def test_percent_answers(completion: str, official: str, numeric: str) -> None:
    assert score_completion(completion, PERCENT, policy="official").status.label == official
    assert score_completion(completion, PERCENT, policy="numeric").status.label == numeric


def test_scale_words_and_accounting_negatives() -> None:
    gold = {"dialect": "tatqa", "answer": 1496.5, "scale": "million"}
    assert score_completion("Revenue was $1,496.5 million.", gold).correct
    negative = {"dialect": "tatqa", "answer": -12.6, "scale": ""}
    assert score_completion("The change is (12.6)", negative, policy="official").correct


def test_span_gold_and_json_text_gold() -> None:
    gold = json.dumps({"dialect": "tatqa", "answer": ["Revenue", "Cost"], "scale": "", "policy": "official"})
    assert score_completion("The answer is: Cost Revenue", gold).correct  # sorted and joined, as officially
    assert not score_completion("The answer is: Revenue", gold).correct


def test_bad_gold_and_helm() -> None:
    assert score_completion("5", {"dialect": "tatqa", "scale": ""}).status.label == "bad_gold"
    assert score_completion("5", {"dialect": "tatqa", "answer": 5, "scale": "dozens"}).status.label == "bad_gold"
    assert score_completion("5", {"dialect": "tatqa", "answer": 5, "scale": ""}, policy="helm").status.label == \
        "bad_policy"


def test_every_test_gold_answer_stated_in_words_is_correct() -> None:
    for question in read_questions("tatqa:test"):
        if question.answer_type != "arithmetic":
            continue
        gold = {"dialect": "tatqa", "answer": question.answer, "scale": question.scale, "answer_type": "arithmetic"}
        completion = f"So the answer is {question.answer} {question.scale}".rstrip()
        for policy in ("official", "numeric"):
            assert score_completion(completion, gold, policy=policy).correct, (completion, policy)


def test_final_answer() -> None:
    assert final_answer("Step 1...\nAnswer: 1,234 thousand") == ("1,234", "thousand")
    assert final_answer("It fell by 3%.", numeric=True) == ("3", "percent")
    assert final_answer("   ") is None


def test_an_oversized_completion_is_not_read() -> None:
    from progexec.core.limits import Limits, using

    with using(Limits(max_completion_chars=100)):
        assert score_completion("1" * 101, PERCENT).status.label == "too_large"
