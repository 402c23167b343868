"""FinanceReasoning in the reward core and in ``progexec rows``: rows built from the real file carry the context
and the gold, and the verl, TRL and OpenRLHF adapters score completions against them by the official rule
(``get_acc``: the 0.2 % band) or the strict one (``numeric``: the gold's written precision)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .shared_data import shared_data
from progexec.integrations import openrlhf, trl, verl
from progexec.integrations.rows import build_rows
from progexec.reward import Policy, score_completion

DATA = shared_data() / "financereasoning"
HARD = str(DATA / "hard.json.gz")


def program(value: str) -> str:
    return f"Here it is.\n```python\ndef solution():\n    return {value}\n```"


def test_rows_carry_the_context_question_and_gold() -> None:
    rows = list(build_rows(HARD, "verl", Policy.OFFICIAL))
    assert len(rows) == 238
    first = rows[0]
    assert first["data_source"] == "progexec/financereasoning"
    content = first["prompt"][0]["content"]
    assert "| Balance, January 1, 2010 | 1,334 | (139) | 1,195 |" in content   # the context's table
    assert "what would the 2012 shares outstanding" in content
    assert "solution()" in content
    assert first["reward_model"]["ground_truth"] == "1152"                  # hard.json's first ground_truth
    assert first["extra_info"]["dialect"] == "financereasoning"


def test_verl_scores_a_row_by_both_policies() -> None:
    row = next(iter(build_rows(HARD, "verl", Policy.OFFICIAL)))
    ground_truth, extra = row["reward_model"]["ground_truth"], row["extra_info"]
    assert verl.compute_score(row["data_source"], program("1152"), ground_truth, extra)["score"] == 1.0
    # 1153 is within 0.2 % of 1152 (the official band) but not at the gold's precision (1152 +- 0.5)
    assert verl.compute_score(row["data_source"], program("1153"), ground_truth, extra)["score"] == 1.0
    assert verl.compute_score(row["data_source"], program("1153"), ground_truth, extra,
                              policy="numeric")["score"] == 0.0
    assert verl.compute_score(row["data_source"], program("1155"), ground_truth, extra)["score"] == 0.0


def test_trl_and_openrlhf_rows_score() -> None:
    trl_row = next(iter(build_rows(HARD, "trl", Policy.NUMERIC)))
    reward = trl.ProgexecReward()
    columns = {key: [trl_row[key]] * 2 for key in trl_row if key not in ("prompt", "id")}
    scores = reward(prompts=[trl_row["prompt"]] * 2, completions=[program("1152.0"), program("'1,152'")], **columns)
    assert scores == [1.0, 0.0]   # strict: a float at the gold's precision; '1,152' is not a plain numeral
    row = next(iter(build_rows(HARD, "openrlhf", Policy.OFFICIAL)))
    assert json.loads(row["label"]) == {"answer": 1152, "dialect": "financereasoning", "policy": "official"}
    result = openrlhf.reward_func([row["input"] + program("1152")], [row["input"]], [row["label"]])
    assert list(result["rewards"]) == [1.0]


@pytest.mark.parametrize(("completion", "gold", "policy", "score"), [
    (program("27.04"), 27, "official", 1.0), (program("27.04"), 27, "numeric", 1.0),
    (program("26.923"), 27, "official", 0.0), (program("26.923"), 27, "numeric", 1.0),
    (program("'2**3'"), 8, "official", 1.0), (program("'2**3'"), 8, "numeric", 0.0),
    (program("True"), 1, "official", 1.0), (program("True"), 1, "numeric", 0.0),
    (program("1"), True, "official", 1.0), (program("True"), True, "numeric", 1.0),
    (program("[12.345, 99]"), 12.345, "official", 1.0), (program("[12.345, 99]"), 12.345, "numeric", 0.0),
])
def test_reward_core_policies(completion: str, gold: object, policy: str, score: float) -> None:
    result = score_completion(completion, {"dialect": "financereasoning", "answer": gold}, policy=policy)
    assert result.score == score, result.reason


def test_bad_golds_and_policies_are_typed() -> None:
    assert score_completion(program("1"), {"dialect": "financereasoning", "answer": "many"}).status.label == "bad_gold"
    assert score_completion(program("1"), {"dialect": "financereasoning", "answer": 1},
                            policy="helm").status.label == "bad_policy"
