"""inspect_ai runs the shipped progexec tasks offline and its scores equal progexec's own commands'.

The model is inspect's ``mockllm`` with a custom output function (a fixed completion per prompt);
every sample's score and the aggregated accuracy must equal ``progexec score`` (program tasks),
``progexec reward --policy numeric`` (answer tasks) and ``progexec score-python`` (MathQA-Python) on
the completions the log records, against the dataset's gold. The ``completions`` task argument
(replaying saved completions, as ``inspect eval ... -T completions=FILE`` does) is checked the same way.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

inspect_ai = pytest.importorskip("inspect_ai")

from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402

import progexec  # noqa: E402
from progexec.integrations.docs import task_docs
from progexec.integrations.inspect import tasks  # noqa: E402
from progexec.datasets.mathqa import score_python  # noqa: E402
from progexec.isolation import bwrap as bubblewrap  # noqa: E402
from progexec.reward.batch import score_lines  # noqa: E402
from progexec.core.errors import InputError


def run(task: Any, by_prompt: dict[str, str], log_dir: Path) -> Any:
    """Evaluate ``task`` with mockllm answering each prompt from ``by_prompt`` (``wrong`` otherwise)."""
    def respond(messages: list[Any], tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        output = ModelOutput.from_content(model="mockllm/model", content=by_prompt.get(messages[-1].text, "wrong"))
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tokenizer download
        return output
    (log,) = inspect_ai.eval(task, model=get_model("mockllm/model", custom_outputs=respond), display="none",
                             log_dir=str(log_dir))
    assert log.status == "success", log.error
    return log


def metric(log: Any, scorer: str, name: str = "accuracy") -> float:
    return float(next(score for score in log.results.scores if score.name == scorer).metrics[name].value)


def write_lines(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


def program_completions(task: str, limit: int) -> dict[str, str]:
    docs = task_docs(task, limit=limit)
    styles: list[Callable[[dict[str, str]], str]] = [lambda doc: f" {doc['target']}", lambda doc: "add(1, 2)",
                                                     lambda doc: doc["target"].split(",")[0]]
    by_prompt: dict[str, str] = {}
    for index, doc in enumerate(docs):  # the turns of a ConvFinQA conversation share a prompt: the first turn's wins
        by_prompt.setdefault(doc["prompt"], styles[index % len(styles)](doc))
    return by_prompt


@pytest.mark.parametrize(("name", "gold"), [("progexec_finqa_program", "finqa:test"),
                                            ("progexec_convfinqa_program", "convfinqa:dev")])
def test_program_scorer_equals_progexec_score(tmp_path: Path, name: str, gold: str) -> None:
    log = run(getattr(tasks, name)(limit=6), program_completions(name, 6), tmp_path)
    completions = {str(sample.id): sample.output.completion for sample in log.samples}
    predictions = write_lines(tmp_path / "pred.jsonl", [{"id": key, "predicted": text.strip()}
                                                         for key, text in completions.items()])
    report = progexec.score(gold, predictions, scorers=("official",))
    official = report.scorers["official"]
    assert official.n == 6
    assert metric(log, "exe_acc") == official.execution_accuracy
    assert metric(log, "prog_acc") == official.program_accuracy
    verdicts = {result.id: result.verdicts["official"] for result in report.items}
    for sample in log.samples:
        value = sample.scores["program_scorer"].value
        verdict = verdicts[str(sample.id)]
        assert value == {"exe_acc": float(verdict.execution), "prog_acc": float(bool(verdict.program))}
    assert 0 < official.execution_correct < 6


@pytest.mark.parametrize(("name", "gold"), [("progexec_finqa_answer", "finqa:test"),
                                            ("progexec_convfinqa_answer", "convfinqa:dev")])
def test_answer_scorer_equals_progexec_reward(tmp_path: Path, name: str, gold: str) -> None:
    items = {item.id: item for item in list(progexec.read(gold))[:6]}
    docs = task_docs(name, limit=6)
    by_prompt: dict[str, str] = {}
    for index, doc in enumerate(docs):  # shared ConvFinQA prompts: the first turn's completion wins
        by_prompt.setdefault(doc["prompt"], f"Answer: {items[doc['id']].gold}" if index % 2 == 0 else "Answer: 12")
    log = run(getattr(tasks, name)(limit=6), by_prompt, tmp_path)
    lines = [json.dumps({"id": str(sample.id), "completion": sample.output.completion, "policy": "numeric",
                         "gold": {"answer": items[str(sample.id)].gold, "program": items[str(sample.id)].program,
                                  "table": items[str(sample.id)].table, "dialect": items[str(sample.id)].dialect.name}})
             for sample in log.samples]
    rewards = {record["id"]: record["score"] for record in map(json.loads, score_lines(lines))}
    assert {str(sample.id): sample.scores["numeric_acc"].value for sample in log.samples} == rewards
    assert metric(log, "numeric_acc") == sum(rewards.values()) / len(rewards)
    assert 0 < sum(rewards.values()) < 6


def test_mathqa_python_scorer_equals_score_python(tmp_path: Path) -> None:
    if not bubblewrap.status().available:
        pytest.skip("no sandbox isolation on this machine (CI installs bubblewrap)")
    docs = task_docs("progexec_mathqa_python", limit=4)
    by_prompt = {doc["prompt"]: doc["target"] if index % 2 == 0 else "answer = -1.0" for index, doc in enumerate(docs)}
    log = run(tasks.progexec_mathqa_python(limit=4), by_prompt, tmp_path)
    gold = write_lines(tmp_path / "gold.jsonl", [{"id": doc["id"], "answer": json.loads(doc["gold"])["answer"]}
                                                 for doc in docs])
    pred = write_lines(tmp_path / "pred.jsonl", [{"id": str(sample.id), "code": sample.output.completion}
                                                 for sample in log.samples])
    scored = score_python.score(score_python.gold_items(score_python.read_records(gold)),
                                score_python.predictions(score_python.read_records(pred)))
    assert metric(log, "exec_acc") == scored.accuracy == 0.5
    assert {str(sample.id): sample.scores["exec_acc"].value for sample in log.samples} == \
        {item.id: float(item.correct) for item in scored.items}


def test_saved_completions_replay(tmp_path: Path) -> None:
    docs = task_docs("progexec_finqa_program", limit=4)
    saved = write_lines(tmp_path / "completions.jsonl",
                        [{"id": doc["id"], "completion": doc["target"] if index < 3 else "add(1, 2)"}
                         for index, doc in enumerate(docs)])
    log = run(tasks.progexec_finqa_program(limit=4, completions=str(saved)), {}, tmp_path)
    assert metric(log, "exe_acc") == metric(log, "prog_acc") == 0.75
    with pytest.raises(InputError, match="no completion for 1 of 5 samples"):
        tasks.progexec_finqa_program(limit=5, completions=str(saved))


def test_inspect_eval_command_runs_offline(tmp_path: Path) -> None:
    """``inspect eval FILE@task -T completions=...`` end to end in a fresh process, no network."""
    docs = task_docs("progexec_finqa_program", limit=3)
    saved = write_lines(tmp_path / "completions.jsonl",
                        [{"id": doc["id"], "completion": doc["target"] if index else "add(1, 2)"}
                         for index, doc in enumerate(docs)])
    command = [sys.executable, "-m", "inspect_ai", "eval", f"{tasks.__file__}@progexec_finqa_program",
               "--model", "mockllm/model", "-T", "limit=3", "-T", f"completions={saved}",
               "--log-dir", str(tmp_path / "logs"), "--log-format", "json", "--display", "none"]
    subprocess.run(command, check=True, capture_output=True, text=True, timeout=300)
    (path,) = (tmp_path / "logs").glob("*.json")
    log = json.loads(path.read_text())
    scores = {score["name"]: score["metrics"]["accuracy"]["value"] for score in log["results"]["scores"]}
    assert scores == {"exe_acc": 2 / 3, "prog_acc": 2 / 3}
