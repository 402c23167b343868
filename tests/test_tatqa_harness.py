"""TAT-QA answer generation in the harnesses: the documents, the judge, and lm-eval / inspect_ai runs whose
aggregated EM and F1 equal TAT-QA's official scorer on the same answers."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from progexec.integrations.docs import task_docs
from progexec.integrations.judge import judge
from progexec.datasets.tatqa import score_questions
from progexec.datasets.tatqa.reward import final_answer

TASK = "progexec_tatqa_answer"


def test_every_test_gold_answer_written_as_the_target_scores_1() -> None:
    docs = task_docs(TASK)
    assert len(docs) == 1663
    for doc in docs:
        result = judge(TASK, doc, f"Let me look at the table.\n{doc['target']}")
        assert result.metrics == {"tatqa_em": 1.0, "tatqa_f1": 1.0}, (doc["target"], result.reason)


def test_the_prompt_shows_table_text_and_question() -> None:
    doc = task_docs(TASK, "tatqa:dev", limit=1)[0]  # the first dev question, as the dataset file holds it
    assert doc["prompt"].startswith("Table:\n") and "\nText:\n" in doc["prompt"]
    assert "Total sales | $1,496.5 | $1,202.9 | $1,107.7" in doc["prompt"]
    assert "\nQ: What is the company paid on a cost-plus type contract?\n" in doc["prompt"]
    assert json.loads(doc["gold"])["answer_type"] == "span" and doc["target"].startswith("Answer: our allowable")


def _completions(docs: list[dict[str, str]]) -> dict[str, str]:
    styles: list[Callable[[dict[str, str]], str]] = [
        lambda doc: doc["target"], lambda doc: "Answer: 12", lambda doc: doc["target"].split(" | ")[0],
        lambda doc: "I cannot tell."]
    return {doc["id"]: styles[index % len(styles)](doc) for index, doc in enumerate(docs)}


def _official(docs: list[dict[str, str]], completions: dict[str, str]) -> tuple[float, float]:
    """The official EM and F1 of the answers the completions state (progexec's scorer, cross-checked against
    tatqa_eval.py by scripts/crosscheck_tatqa.py)."""
    questions = [json.loads(doc["gold"]) for doc in docs]
    predictions: dict[str, Any] = {}
    for question in questions:
        stated = final_answer(completions[question["uid"]], question["answer_type"] in ("arithmetic", "count"))
        if stated is not None:
            answer, scale = stated
            predictions[question["uid"]] = [[p.strip() for p in answer.split("|")] if "|" in answer else answer, scale]
    result = score_questions(questions, predictions)
    return result.em, result.f1


def test_lm_eval_task(tmp_path: Path) -> None:
    lm_eval = pytest.importorskip("lm_eval")
    from lm_eval.tasks import TaskManager

    import progexec.integrations.lm_eval as task_folder
    from tests.test_integration_lm_eval import CannedLM  # noqa: F401  (registers progexec-canned)

    docs = task_docs(TASK, limit=12)
    completions = _completions(docs)
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps(completions))
    manager = TaskManager(include_path=str(task_folder.TASK_DIR), include_defaults=False)
    out = lm_eval.simple_evaluate(model="progexec-canned", model_args={"answers": str(answers)}, tasks=[TASK],
                                  task_manager=manager, limit=12, bootstrap_iters=0)
    em, f1 = _official(docs, completions)
    assert out["results"][TASK]["tatqa_em,none"] == pytest.approx(em, abs=1e-12)
    assert out["results"][TASK]["tatqa_f1,none"] == pytest.approx(f1, abs=1e-12)
    assert 0 < em < 1


def test_inspect_task(tmp_path: Path) -> None:
    pytest.importorskip("inspect_ai")
    from tests.test_integration_inspect import metric, run, write_lines
    from progexec.integrations.inspect import tasks

    docs = task_docs(TASK, limit=8)
    completions = _completions(docs)
    saved = write_lines(tmp_path / "completions.jsonl", [{"id": key, "completion": text}
                                                         for key, text in completions.items()])
    log = run(tasks.progexec_tatqa_answer(limit=8, completions=str(saved)), {}, tmp_path)
    em, f1 = _official(docs, completions)
    assert metric(log, "tatqa_em", "accuracy") == pytest.approx(em, abs=1e-12)
    assert metric(log, "tatqa_f1", "mean") == pytest.approx(f1, abs=1e-12)
    assert 0 < em < 1


def test_two_dev_targets_miss_because_of_their_gold_text() -> None:
    missed = []
    for doc in task_docs(TASK, "tatqa:dev"):
        if judge(TASK, doc, doc["target"]).metrics["tatqa_em"] != 1.0:
            missed.append(doc["target"])
    assert missed == ["Answer: $(9.8) million", "Answer: `70.07"]
