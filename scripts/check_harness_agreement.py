"""Run every shipped task through lm-eval and inspect_ai with fixed completions, and print their metrics
beside progexec's own commands on the same completions (the figures in docs/harnesses.md).

    python scripts/check_harness_agreement.py [--limit 200] [--mathqa-limit 40]

Needs ``pip install -e '.[lm-eval,inspect]'`` (and bubblewrap for MathQA-Python). The completions are
deterministic variants of the gold (the gold program, arguments swapped, a number changed, a wrong
program, a cut-off program; the gold answer, a scaled answer, two numbers, prose), so every verdict occurs.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from pathlib import Path
from typing import Any

import lm_eval
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from lm_eval.api.model import LM
from lm_eval.api.registry import register_model
from lm_eval.tasks import TaskManager

import progexec
import progexec.integrations.lm_eval as task_folder
from progexec.integrations.docs import TASKS, TaskKind, task_docs
from progexec.integrations.inspect import tasks as inspect_tasks
from progexec.datasets.mathqa import score_python
from progexec.reward.batch import score_lines

GOLD = {"finqa": "finqa:test", "convfinqa": "convfinqa:dev"}


@register_model("progexec-agreement")
class Canned(LM):  # type: ignore[misc]
    """Answers each request with the completion a JSON file gives its document's id."""

    def __init__(self, answers: str = "", **_: Any) -> None:
        super().__init__()
        self.answers: dict[str, str] = json.loads(Path(answers).read_text())

    def generate_until(self, requests: list[Any], disable_tqdm: bool = False) -> list[str]:
        return [self.answers[request.doc["id"]] for request in requests]

    def loglikelihood(self, requests: list[Any], disable_tqdm: bool = False) -> list[Any]:
        raise NotImplementedError

    def loglikelihood_rolling(self, requests: list[Any], disable_tqdm: bool = False) -> list[Any]:
        raise NotImplementedError


def program_variant(index: int, program: str) -> str:
    """The gold program, its first step's arguments swapped, its first number changed, a wrong one, a cut one."""
    kind = index % 5
    if kind == 0:
        return f" {program}"
    if kind == 1:
        return re.sub(r"^(\w+)\(([^,()]+), ([^,()]+)\)", r"\1(\3, \2)", program)
    if kind == 2:
        return re.sub(r"\d+(\.\d+)?", lambda match: str(float(match.group()) + 1), program, count=1)
    if kind == 3:
        return "add(1, 2)"
    return program[: max(1, len(program) // 2)]


def answer_variant(index: int, gold: Any) -> str:
    """The gold answer, as a percentage, scaled by 100, two numbers, and prose."""
    kind = index % 5
    if isinstance(gold, str):
        return [f"Answer: {gold}", "Answer: maybe", f"\\boxed{{{gold}}}", "Answer: 1 or 2", "I do not know."][kind]
    return [f"So the answer is {gold}.", f"Answer: {gold * 100:.4f}%", f"Answer: {gold * 100}",
            f"Answer: {gold} or {gold + 1}", "The table does not say."][kind]


def completions(task: str, limit: int) -> tuple[list[dict[str, str]], dict[str, str]]:
    docs = task_docs(task, limit=limit)
    out: dict[str, str] = {}
    for index, doc in enumerate(docs):
        gold = json.loads(doc["gold"])
        kind = TASKS[task].kind
        if kind is TaskKind.PROGRAM:
            program = gold["program"] if isinstance(gold["program"], str) else " ".join(gold["program"])
            out[doc["id"]] = program_variant(index, program)
        elif kind is TaskKind.ANSWER:
            out[doc["id"]] = answer_variant(index, gold["exe_ans"])
        else:
            out[doc["id"]] = doc["target"] if index % 3 else "answer = n0 + 1"
    return docs, out


def by_lm_eval(task: str, answers: dict[str, str], limit: int, workdir: Path) -> dict[str, float]:
    path = workdir / f"{task}.answers.json"
    path.write_text(json.dumps(answers))
    out = lm_eval.simple_evaluate(model="progexec-agreement", model_args={"answers": str(path)}, tasks=[task],
                                  limit=limit, bootstrap_iters=0,
                                  task_manager=TaskManager(include_path=str(task_folder.TASK_DIR),
                                                           include_defaults=False))
    assert out is not None
    return {key.split(",")[0]: value for key, value in out["results"][task].items()
            if key.endswith(",none") and "stderr" not in key}


def by_inspect(task: str, answers: dict[str, str], limit: int, workdir: Path) -> dict[str, float]:
    saved = workdir / f"{task}.completions.jsonl"
    saved.write_text("".join(json.dumps({"id": key, "completion": text}) + "\n" for key, text in answers.items()))

    def unused(*_: Any) -> ModelOutput:  # the replay solver answers; the model is never called
        output = ModelOutput.from_content(model="mockllm/model", content="")
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output
    (log,) = inspect_eval(getattr(inspect_tasks, task)(limit=limit, completions=str(saved)),
                          model=get_model("mockllm/model", custom_outputs=unused), display="none",
                          log_dir=str(workdir / "logs"))
    assert log.results is not None, log.error
    return {score.name: score.metrics["accuracy"].value for score in log.results.scores}


def by_progexec(task: str, docs: list[dict[str, str]], answers: dict[str, str], workdir: Path) -> dict[str, float]:
    spec = TASKS[task]
    if spec.kind is TaskKind.PROGRAM:
        pred = workdir / f"{task}.pred.jsonl"
        pred.write_text("".join(json.dumps({"id": key, "predicted": text.strip()}) + "\n"
                                for key, text in answers.items()))
        figures = progexec.score(GOLD[spec.dialect], pred).scorers["official"]
        return {"exe_acc": figures.execution_accuracy, "prog_acc": float(figures.program_accuracy or 0.0)}
    if spec.kind is TaskKind.ANSWER:
        items = {item.id: item for item in progexec.read(GOLD[spec.dialect])}
        lines = [json.dumps({"id": key, "completion": text, "policy": "numeric",
                             "gold": {"answer": items[key].gold, "program": items[key].program,
                                      "table": items[key].table, "dialect": items[key].dialect.name}})
                 for key, text in answers.items()]
        scores = [json.loads(line)["score"] for line in score_lines(lines)]
        return {"numeric_acc": sum(scores) / len(scores)}
    gold, pred = workdir / "mathqa.gold.jsonl", workdir / "mathqa.pred.jsonl"
    gold.write_text("".join(json.dumps({"id": doc["id"], "answer": json.loads(doc["gold"])["answer"]}) + "\n"
                            for doc in docs))
    pred.write_text("".join(json.dumps({"id": key, "code": code}) + "\n" for key, code in answers.items()))
    scored = score_python.score(score_python.gold_items(score_python.read_records(gold)),
                                score_python.predictions(score_python.read_records(pred)))
    return {"exec_acc": scored.accuracy}


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--mathqa-limit", type=int, default=40)
    args = parser.parse_args()
    print("| task | n | metric | lm-eval | inspect_ai | progexec |")
    print("|---|---:|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for task, spec in TASKS.items():
            limit = args.mathqa_limit if spec.kind is TaskKind.MATHQA_PYTHON else args.limit
            docs, answers = completions(task, limit)
            harness = by_lm_eval(task, answers, len(docs), workdir)
            inspected = by_inspect(task, answers, len(docs), workdir)
            own = by_progexec(task, docs, answers, workdir)
            for name, value in own.items():
                same = harness[name] == inspected[name] == value
                print(f"| {task} | {len(docs)} | {name} | {harness[name]:.6f} | {inspected[name]:.6f} | "
                      f"{value:.6f}{'' if same else ' DIFFERS'} |")


if __name__ == "__main__":
    main()
