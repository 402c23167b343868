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

from progexec.isolation import bwrap as bubblewrap
from progexec.datasets.pysolution.datasets import FINANCEMATH, detect
from progexec.datasets.pysolution.scoring import load_records, model_name, score_runs

DATA = Path(os.environ.get("PROGEXEC_FINANCEMATH_DATA")
            or Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "financemath")
SPREAD = ("gpt-4o", "claude-3-5-sonnet-20240620", "Llama-2-7b-chat-hf", "aya-23-8B", "Mixtral-8x7B-Instruct-v0_1",
          "WizardMath-7B-V1_1", "gemma-2b-it", "deepseek-math-7b-instruct")

pytestmark = [pytest.mark.skipif(not (DATA / "validation.json.gz").exists(), reason="FinanceMath data not present"),
              pytest.mark.skipif(not bubblewrap.status().available, reason="no bubblewrap isolation")]


def test_published_leaderboard_is_reproduced() -> None:
    published = {row["model_name"]: row for row in json.loads((DATA / "validation_pot_results.json").read_text())}
    files = sorted((DATA / "raw_pot_outputs").glob("*.json.gz"))
    everything = os.environ.get("PROGEXEC_FINANCEMATH_ALL") == "1"
    if not everything:
        files = [path for path in files if model_name(path) in SPREAD]
    gold = load_records(DATA / "validation.json.gz")
    assert detect(gold[0].value) is FINANCEMATH
    board = score_runs(FINANCEMATH, gold, [(model_name(path), load_records(path)) for path in files], jobs=2)
    assert len(board.models) == len(files) > 0
    for question in board.gold:
        assert question.problem is None and question.result is not None and question.result.number is not None
        assert round(question.result.number, 3) == question.recorded  # ground_truth is the executed value, 3 places
    assert sorted(question.result.type_name for question in board.gold if question.result).count("float64") == 1
    for model in board.models:
        if model.name == "gpt-4o":  # docs/financemath.md, the divergence report
            assert (model.accuracy, model.strict_accuracy) == (67.0, 46.5)
            assert model.divergences() == {"sign_ignored": 2, "power_of_ten": 33, "within_0.15_percent": 3,
                                           "ceil_3_places": 3, "nan_accepted": 0}
        row = published[model.name]
        assert (model.accuracy, model.execution_rate) == (row["accuracy"], row["execution_rate"]), model.name
        topics = model.by_topic()
        assert {topic: figures["accuracy"] for topic, figures in topics.items()} == row["topic_accuracy"]
        assert {topic: figures["execution_rate"] for topic, figures in topics.items()} == row["topic_execution_rate"]
        assert model.strict_accuracy <= model.accuracy
        assert sum(model.divergences().values()) == sum(i.official for i in model.items) - sum(i.strict for i in model.items)
    if everything:  # docs/financemath.md: 717 of the 2,478 official correct answers, by class
        totals = {name: sum(model.divergences()[name] for model in board.models) for name in board.models[0].divergences()}
        assert totals == {"sign_ignored": 41, "power_of_ten": 518, "within_0.15_percent": 126, "ceil_3_places": 32,
                          "nan_accepted": 0}
        assert sum(item.official for model in board.models for item in model.items) == 2478
        clocked = {(model.name, item.id) for model in board.models for item in model.items
                   if item.result.status.value == "time_limit"}
        assert clocked == {("Meta-Llama-3_1-8B-Instruct", "validation-54"), ("claude-3-haiku-20240307", "validation-92"),
                           ("claude-3-opus-20240229", "validation-182")}
