"""Judge one model completion against one task document, the way ``progexec score`` / ``reward`` /
``score-python`` judge the same prediction; every harness adapter calls these.

* program tasks: the completion with its surrounding whitespace removed is the predicted program
  text (``{"id", "predicted": completion.strip()}`` for ``progexec score``; the official tokenizer
  keeps a leading space in the first token, so a model's natural `` subtract(...)`` would never
  count), judged by the official scorer: execution accuracy and program accuracy;
* answer tasks: the reward core's ``numeric`` policy (``progexec reward --policy numeric``);
* MathQA-Python: the completion is a snippet run in the score-python sandbox, its ``answer``
  compared with the gold as ``progexec score-python`` compares it.
"""

from __future__ import annotations

import json
from ..core.registry import get_dataset
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..grammar.tokens import official_tokenize
from ..core.item import Item
from ..datasets.mathqa.sandbox import run_snippets
from ..datasets.mathqa.score_python import DEFAULT_REL_TOL, judge as judge_snippet
from ..reward import RewardResult, score_completion
from ..score.equivalence import prepare_symbolic
from ..runner import prepare
from ..score import official_scorer as official
from ..score.loading import gold_item
from ..score.results import Prediction
from .docs import TASKS, TaskKind

EXECUTION_ACCURACY = "exe_acc"
PROGRAM_ACCURACY = "prog_acc"
NUMERIC_ACCURACY = "numeric_acc"
PYTHON_ACCURACY = "exec_acc"

METRICS: dict[TaskKind, tuple[str, ...]] = {
    TaskKind.PROGRAM: (EXECUTION_ACCURACY, PROGRAM_ACCURACY),
    TaskKind.ANSWER: (NUMERIC_ACCURACY,),
    TaskKind.MATHQA_PYTHON: (PYTHON_ACCURACY,),
    TaskKind.TATQA_ANSWER: ("tatqa_em", "tatqa_f1"),
}
"""The metric names each task kind reports (each a per-item 0/1 averaged by the harness)."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """One completion's metrics (0.0 or 1.0 each) and the reason, for the harness's per-sample log."""

    metrics: dict[str, float]
    status: str
    reason: str


def _gold(doc: Mapping[str, Any]) -> dict[str, Any]:
    gold = json.loads(doc["gold"])
    if not isinstance(gold, dict):
        raise ValueError(f"document {doc.get('id')!r}: its gold is not a JSON object")
    return gold


def judge_program(doc: Mapping[str, Any], completion: str) -> Judgement:
    """The official FinQA / ConvFinQA verdict on a predicted program (official tokenization of the text)."""
    prepare()  # as progexec score does: sympy is loaded before the item's clock starts
    prepare_symbolic()
    gold = _gold(doc)
    item = Item(gold["id"], gold["program"], gold["table"], gold["exe_ans"], True, dialect=get_dataset(gold["dialect"]),
                answer=gold.get("answer"))
    program = completion.strip()
    prediction = Prediction(gold["id"], tuple(official_tokenize(program)), program_text=program)
    verdict = official.score(official.ItemContext(gold_item(item), prediction))
    metrics = {EXECUTION_ACCURACY: float(verdict.execution), PROGRAM_ACCURACY: float(bool(verdict.program))}
    program_why = verdict.program_why.value if verdict.program_why is not None else "none"
    return Judgement(metrics, verdict.execution_why.value,
                     f"execution {verdict.execution_why.value}; program {program_why}")


def judge_answer(doc: Mapping[str, Any], completion: str) -> Judgement:
    """The reward core's numeric verdict on a completion's final answer."""
    gold = _gold(doc)
    result: RewardResult = score_completion(completion, {"answer": gold["exe_ans"], "program": gold["program"],
                                                         "table": gold["table"], "dialect": gold["dialect"]},
                                            policy="numeric")
    return Judgement({NUMERIC_ACCURACY: result.score}, result.status.label, result.reason)


def judge_python(doc: Mapping[str, Any], completion: str) -> Judgement:
    """Run a MathQA-Python snippet in the sandbox (SetupError when the machine cannot isolate it)."""
    gold = _gold(doc)
    (result,) = run_snippets([completion], jobs=1)
    correct, kind, reason = judge_snippet(float(gold["answer"]), result, DEFAULT_REL_TOL)
    return Judgement({PYTHON_ACCURACY: float(correct)}, kind, reason or kind)


def judge_tatqa(doc: Mapping[str, Any], completion: str) -> Judgement:
    """TAT-QA's official EM and F1 of the completion's stated answer and scale."""
    from ..datasets.tatqa.harness import judge_tatqa as official_tatqa

    return Judgement(*official_tatqa(doc, completion))


JUDGES = {TaskKind.PROGRAM: judge_program, TaskKind.ANSWER: judge_answer, TaskKind.MATHQA_PYTHON: judge_python,
          TaskKind.TATQA_ANSWER: judge_tatqa}


def judge(task: str, doc: Mapping[str, Any], completion: str) -> Judgement:
    """Judge ``completion`` for ``doc`` of the shipped task named ``task``."""
    return JUDGES[TASKS[task].kind](doc, completion)


__all__ = ["Judgement", "METRICS", "judge", "judge_program", "judge_answer", "judge_python",
           "EXECUTION_ACCURACY", "PROGRAM_ACCURACY", "NUMERIC_ACCURACY", "PYTHON_ACCURACY"]
