"""The published FinanceMath validation leaderboard (yale-nlp/FinanceMath, outputs/results/validation_pot_results.json)
reproduced from the published raw program-of-thought outputs, model by model and topic by topic.

The data's licence is unclear, so it is read from ``../shared/data/financemath`` beside the repository
(or ``$PROGEXEC_FINANCEMATH_DATA``) and the test skips without it. By default a spread of models is scored (the best, the worst, and
models whose outputs exercise every extraction rule); ``PROGEXEC_FINANCEMATH_ALL=1`` scores all 51
(scripts/crosscheck_financemath.py and benchmarks/bench_financemath.py always do).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from progexec.mathqa import bubblewrap
from progexec.pysolution.datasets import FINANCEMATH, detect
from progexec.pysolution.scoring import load_records, model_name, score_runs

DATA = Path(os.environ.get("PROGEXEC_FINANCEMATH_DATA")
            or Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "financemath")
SPREAD = ("gpt-4o", "claude-3-5-sonnet-20240620", "Llama-2-7b-chat-hf", "aya-23-8B", "Mixtral-8x7B-Instruct-v0_1",
          "WizardMath-7B-V1_1", "gemma-2b-it", "deepseek-math-7b-instruct")

pytestmark = [pytest.mark.skipif(not (DATA / "validation.json.gz").exists(), reason="FinanceMath data not present"),
              pytest.mark.skipif(not bubblewrap.status().available, reason="no bubblewrap isolation")]


def test_published_leaderboard_is_reproduced() -> None:
    published = {row["model_name"]: row for row in json.loads((DATA / "validation_pot_results.json").read_text())}
    files = sorted((DATA / "raw_pot_outputs").glob("*.json.gz"))
    if os.environ.get("PROGEXEC_FINANCEMATH_ALL") != "1":
        files = [path for path in files if model_name(path) in SPREAD]
    gold = load_records(DATA / "validation.json.gz")
    assert detect(gold[0].value) is FINANCEMATH
    board = score_runs(FINANCEMATH, gold, [(model_name(path), load_records(path)) for path in files], jobs=2)
    assert len(board.models) == len(files) > 0
    for question in board.gold:
        assert question.problem is None and question.result is not None and question.result.number is not None
        assert round(question.result.number, 3) == question.recorded  # ground_truth is the executed value, 3 places
    for model in board.models:
        row = published[model.name]
        assert (model.accuracy, model.execution_rate) == (row["accuracy"], row["execution_rate"]), model.name
        topics = model.by_topic()
        assert {topic: figures["accuracy"] for topic, figures in topics.items()} == row["topic_accuracy"]
        assert {topic: figures["execution_rate"] for topic, figures in topics.items()} == row["topic_execution_rate"]
        assert model.strict_accuracy <= model.accuracy
        assert sum(model.divergences().values()) == sum(i.official for i in model.items) - sum(i.strict for i in model.items)
