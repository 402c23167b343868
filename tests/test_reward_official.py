"""One meaning of ``official``: the reward's official policy agrees with ``progexec score``'s official
scorer (the official tokenizer, then ``eval_program``, ``==`` to ``exe_ans``) on every program text,
spacing variants included, over all of FinQA test and ConvFinQA dev."""

from __future__ import annotations

import pytest

from progexec.grammar.tokens import official_tokenize
from progexec.core.item import Item
from progexec.readers import read
from progexec.reward import score_completion
from progexec.score import official_scorer
from progexec.score.loading import gold_item
from progexec.score.results import Prediction

VARIANTS = {
    "as written": lambda text: text,
    "no space after commas": lambda text: text.replace(", ", ","),
    "two spaces after commas": lambda text: text.replace(", ", ",  "),
    "spaces inside parentheses": lambda text: text.replace("(", "( ").replace(")", " )"),
}


def _items(source: str, step: int) -> list[Item]:
    return [item for item in read(source) if item.has_gold and isinstance(item.program, str)][::step]


@pytest.mark.parametrize("source, step", [("finqa:test", 3), ("convfinqa:dev", 5)])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_official_policy_is_the_official_scorer(source: str, step: int, variant: str) -> None:
    items = _items(source, step)
    assert len(items) > 200
    disagreements = []
    for item in items:
        assert isinstance(item.program, str)
        text = VARIANTS[variant](item.program)
        verdict = official_scorer.score(official_scorer.ItemContext(
            gold_item(item), Prediction(item.id, tuple(official_tokenize(text)), program_text=text)))
        gold = {"answer": item.gold, "table": item.table, "dialect": item.dialect.name}
        reward = score_completion(f"Program: {text}", gold, policy="official")
        if reward.score != float(verdict.execution):
            disagreements.append((item.id, text, reward.status.label, verdict.execution_why.value))
    assert disagreements == []


def test_the_spacing_the_official_tokenizer_refuses_scores_zero_under_both() -> None:
    gold = {"answer": 94.0, "program": "subtract(5829, 5735)"}
    assert score_completion("Program: subtract(5829,5735)", gold, policy="official").score == 0.0
    assert score_completion("Program: subtract(5829, 5735)", gold, policy="official").score == 1.0
    assert score_completion("Program: subtract(5829,5735)", gold, policy="numeric").score == 1.0
