"""``--check-gold``: every FinanceReasoning ``python_solution`` run in the sandbox, in its answer convention,
and judged against its own ``ground_truth`` by the official rule.

The golds follow four conventions, which the official repository never runs: ``def solution()``;
a variable ``answer`` (CodeTAT-QA programs index a pandas ``df`` built from the JSON ``context``,
``pandas.DataFrame(json.loads(context))``); the value of the last expression; the value of the
last assignment's target. :mod:`.sandbox_program` picks the first that applies. The verdict is
the official ``get_acc(value, ground_truth)``, so a gold that ignores the question's rounding
(40264 for 40.264) fails, as it would under the official rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..pysolution.pool import Pool
from ...readers import Record
from . import sandbox
from .rule import official_acc, plain_value
from .scoring import GoldQuestion, gold_questions
from .values import Value

CODETATQA = "CodeTAT-QA"


@dataclass(frozen=True, slots=True)
class GoldCheck:
    """One gold solution's run and verdict."""

    question: GoldQuestion
    status: str
    message: str
    value: Value | None
    acc: int

    def record(self) -> dict[str, Any]:
        value = self.value
        return {"question_id": self.question.id, "line": self.question.line, "source": self.question.source,
                "convention": value.convention if value is not None else None, "status": self.status,
                "value": value.record()["shown"] if value is not None else None,
                "ground_truth": self.question.ground_truth, "acc": self.acc, "message": self.message or None}


def _judged(value: Value) -> Value | None:
    if value.normalized is not None:
        return value.normalized
    if value.kind == "text" and value.text is not None:
        return plain_value(value.text)
    return value


def check_gold(records: Sequence[Record], *, jobs: int = 2, unsafe_no_isolation: bool = False,
               progress: Callable[[int], None] | None = None) -> tuple[list[GoldCheck], list[str], str]:
    """Every usable gold question checked, in file order; the problems of unusable records; the isolation."""
    questions, problems = gold_questions(records)
    ordered = list(questions.values())
    work = [("gold", question.code, question.context if question.source == CODETATQA else "")
            for question in ordered]
    with Pool(jobs, sandbox.budget(), unsafe_no_isolation=unsafe_no_isolation) as pool:
        outcomes = sandbox.run(pool, work, progress)
        isolation = pool.isolation
    checks = []
    for question, outcome in zip(ordered, outcomes):
        value = outcome.value
        if value is None:
            checks.append(GoldCheck(question, outcome.result.status.value, outcome.result.message, None, 0))
            continue
        judged = _judged(value)
        checks.append(GoldCheck(question, "ok", "", value, official_acc(judged, question.ground_truth)))
    return checks, problems, isolation


def counts_by_source(checks: Sequence[GoldCheck]) -> dict[str, dict[str, int]]:
    """Per source family: questions, official passes and failures, and how many did not run."""
    counts: dict[str, dict[str, int]] = {}
    for check in checks:
        row = counts.setdefault(check.question.source, {"n": 0, "acc": 0, "fail": 0, "not_run": 0})
        row["n"] += 1
        row["acc"] += check.acc
        row["fail"] += 1 - check.acc
        row["not_run"] += check.value is None
    return dict(sorted(counts.items()))


def counts_by_convention(checks: Sequence[GoldCheck]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for check in checks:
        name = check.value.convention if check.value is not None and check.value.convention else "(did not run)"
        counts[name] = counts.get(name, 0) + 1
    return dict(sorted(counts.items()))
