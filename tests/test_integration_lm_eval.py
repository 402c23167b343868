"""lm-evaluation-harness runs the shipped progexec tasks offline and reports what progexec's own commands report.

A canned-answer model (registered with lm-eval's model registry) answers each prompt with a fixed
completion; lm-eval's aggregated metrics must equal ``progexec score`` (program tasks),
``progexec reward --policy numeric`` (answer tasks) and ``progexec score-python`` (MathQA-Python) on
the same completions against the dataset's gold, and the dataset's own gold programs must score 1.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

lm_eval = pytest.importorskip("lm_eval")

from lm_eval.api.model import LM  # noqa: E402
from lm_eval.api.registry import register_model  # noqa: E402
from lm_eval.tasks import TaskManager  # noqa: E402

import progexec  # noqa: E402
import progexec.integrations.lm_eval as task_folder  # noqa: E402
from progexec.integrations.docs import task_docs  # noqa: E402
from progexec.datasets.mathqa import score_python  # noqa: E402
from progexec.isolation import bwrap as bubblewrap  # noqa: E402
from progexec.reward.batch import score_lines  # noqa: E402


@register_model("progexec-canned")
class CannedLM(LM):  # type: ignore[misc]
    """Answers each request with the completion a JSON file maps its document's id to (``wrong`` for others).

    Keyed by document, not prompt: the embedded corpora hold no question text, so the turns of one
    ConvFinQA conversation share a prompt."""

    def __init__(self, answers: str = "", **_: Any) -> None:
        super().__init__()
        self.answers: dict[str, str] = json.loads(Path(answers).read_text()) if answers else {}

    def generate_until(self, requests: list[Any], disable_tqdm: bool = False) -> list[str]:
        return [self.answers.get(request.doc["id"], "wrong") for request in requests]

    def loglikelihood(self, requests: list[Any], disable_tqdm: bool = False) -> list[Any]:
        raise NotImplementedError("generation tasks only")

    def loglikelihood_rolling(self, requests: list[Any], disable_tqdm: bool = False) -> list[Any]:
        raise NotImplementedError("generation tasks only")


@pytest.fixture(scope="module")
def manager() -> Any:
    """The shipped task folder alone (indexing lm-eval's own thousands of tasks would take most of the time)."""
    return TaskManager(include_path=str(task_folder.TASK_DIR), include_defaults=False)


def _answers(tmp_path: Path, completions: dict[str, str]) -> Path:
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(completions))
    return path


def evaluate(tmp_path: Path, manager: Any, task: str, completions: dict[str, str],
             limit: int) -> tuple[dict[str, Any], dict[str, str]]:
    """Run lm-eval on the first ``limit`` documents with completions by document id; (results, completion by id)."""
    docs = task_docs(task, limit=limit)
    path = _answers(tmp_path, {doc["id"]: completions[doc["id"]] for doc in docs})
    out = lm_eval.simple_evaluate(model="progexec-canned", model_args={"answers": str(path)}, tasks=[task],
                                  task_manager=manager, limit=limit, bootstrap_iters=0)
    assert out is not None
    samples = out["samples"][task]
    assert [sample["doc"]["id"] for sample in samples] == [doc["id"] for doc in docs]
    return out["results"][task], {doc["id"]: completions[doc["id"]] for doc in docs}


def program_variants(items: list[progexec.Item]) -> dict[str, str]:
    """Completions that cover every verdict: the gold program as a model writes it, an unrelated
    program, a broken one, and (ConvFinQA) the gold value as a bare number."""
    kinds: list[Callable[[progexec.Item], str]] = [
        lambda item: f" {item.program_text}\n",
        lambda item: "add(1, 2)",
        lambda item: f"{item.program_text.split(',')[0]}",
        lambda item: f" {item.gold}",
    ]
    return {item.id: kinds[index % len(kinds)](item) for index, item in enumerate(items)}


@pytest.mark.parametrize(("task", "gold"), [("progexec_finqa_program", "finqa:test"),
                                            ("progexec_convfinqa_program", "convfinqa:dev")])
def test_program_task_equals_progexec_score(tmp_path: Path, manager: Any, task: str, gold: str) -> None:
    items = list(progexec.read(gold))[:8]
    completions = program_variants(items)
    results, used = evaluate(tmp_path, manager, task, completions, len(items))
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text("".join(json.dumps({"id": key, "predicted": text.strip()}) + "\n"
                                   for key, text in used.items()))
    report = progexec.score(gold, predictions, scorers=("official",))
    official = report.scorers["official"]
    assert official.n == len(items)
    assert results["exe_acc,none"] == official.execution_accuracy
    assert results["prog_acc,none"] == official.program_accuracy
    # the dataset's own gold programs (every fourth item) execute to its exe_ans: both metrics count them
    by_id = {result.id: result.verdicts["official"] for result in report.items}
    assert all(by_id[item.id].execution and by_id[item.id].program for item in items[::4])
    assert 0 < official.execution_correct < len(items)


@pytest.mark.parametrize(("task", "gold"), [("progexec_finqa_answer", "finqa:test"),
                                            ("progexec_convfinqa_answer", "convfinqa:dev")])
def test_answer_task_equals_progexec_reward(tmp_path: Path, manager: Any, task: str, gold: str) -> None:
    items = list(progexec.read(gold))[:8]
    styles: list[Callable[[progexec.Item], str]] = [
        lambda item: f"Let me compute.\nAnswer: {item.gold}",
        lambda item: "Answer: 12 or 15",
        lambda item: f"\\boxed{{{item.gold}}}",
        lambda item: "I cannot tell from the table.",
    ]
    completions = {item.id: styles[index % len(styles)](item) for index, item in enumerate(items)}
    results, used = evaluate(tmp_path, manager, task, completions, len(items))
    lines = [json.dumps({"id": item.id, "completion": used[item.id], "policy": "numeric",
                         "gold": {"answer": item.gold, "program": item.program, "table": item.table,
                                  "dialect": item.dialect.name}}) for item in items]
    rewards = [json.loads(line)["score"] for line in score_lines(lines)]
    assert results["numeric_acc,none"] == sum(rewards) / len(rewards)
    # the dataset's exe_ans written as the final answer is correct (items 0 and 2 of every four)
    assert rewards[0] == rewards[2] == 1.0 and rewards[1] == 0.0


def test_mathqa_python_task_equals_score_python(tmp_path: Path, manager: Any) -> None:
    if not bubblewrap.status().available:
        pytest.skip("no sandbox isolation on this machine (CI installs bubblewrap)")
    docs = task_docs("progexec_mathqa_python", limit=4)
    completions = {doc["id"]: doc["target"] if index % 2 == 0 else "answer = 1.0 / 0"
                   for index, doc in enumerate(docs)}
    results, used = evaluate(tmp_path, manager, "progexec_mathqa_python", completions, len(docs))
    gold_path, pred_path = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold_path.write_text("".join(json.dumps({"id": doc["id"], "answer": json.loads(doc["gold"])["answer"]}) + "\n"
                                 for doc in docs))
    pred_path.write_text("".join(json.dumps({"id": key, "code": code}) + "\n" for key, code in used.items()))
    scored = score_python.score(score_python.gold_items(score_python.read_records(gold_path)),
                                score_python.predictions(score_python.read_records(pred_path)))
    assert results["exec_acc,none"] == scored.accuracy == 0.5


def test_dataset_file_through_metadata(tmp_path: Path) -> None:
    """``--metadata '{"finqa_source": FILE}'`` (lm-eval hands it to the TaskManager) reads a FinQA-format file: its questions reach the prompts."""
    items = list(progexec.read("finqa:test"))[:3]
    dataset = tmp_path / "test.json"
    dataset.write_text(json.dumps([{"id": item.id, "table": item.table,
                                    "qa": {"question": f"question {index}?", "program": item.program,
                                           "exe_ans": item.gold}} for index, item in enumerate(items)]))
    completions = {item.id: item.program_text if index else "add(1, 2)" for index, item in enumerate(items)}
    out = lm_eval.simple_evaluate(model="progexec-canned",
                                  model_args={"answers": str(_answers(tmp_path, completions))},
                                  tasks=["progexec_finqa_program"], bootstrap_iters=0,
                                  task_manager=TaskManager(include_path=str(task_folder.TASK_DIR),
                                                           include_defaults=False,
                                                           metadata={"finqa_source": str(dataset)}))
    assert out is not None
    samples = out["samples"]["progexec_finqa_program"]
    assert [sample["arguments"][0][0].count(f"Q: question {index}?") for index, sample in enumerate(samples)] == [1] * 3
    assert out["results"]["progexec_finqa_program"]["exe_acc,none"] == 2 / 3
