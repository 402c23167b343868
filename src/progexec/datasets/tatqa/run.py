"""The TAT-QA item runner: an Item (a question) to the spine's Execution.

An arithmetic question's derivation is executed (:func:`progexec.datasets.tatqa.execute.run_derivation`); its
Execution carries the float64 outcome, the official verdict (the value the scorer would normalise),
``match`` (the value as written matches the gold answer under the official normalisation) and, as
``detail``, the :class:`~progexec.datasets.tatqa.execute.DerivationResult`. A question of another type is
not executed: its ``detail`` is :class:`NotExecuted` and ``exec`` counts it without a line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.errors import ProgramSyntaxError
from ...core.outcome import Outcome
from ...interp.evaluate import evaluate
from ...core.verdict import INVALID, OfficialVerdict
from ...core.execution import Execution, MatchReason
from ...core.status import Status
from ...core.item import Item
from .derivation import parse_and_lower
from .execute import FLOAT64, run_derivation
from .items import question_of


@dataclass(frozen=True, slots=True)
class NotExecuted:
    """A question that is not arithmetic: counted, not executed."""

    answer_type: str
    executed: bool = False

    def record_fields(self) -> dict[str, Any]:
        return {"answer_type": self.answer_type, "executed": False}


def run_program(item: Item) -> Execution:
    """Run an item's program text as a derivation, without a TAT-QA question (``progexec run --dialect tatqa``)."""
    text = item.program if isinstance(item.program, str) else " ".join(item.program or [])
    try:
        program = parse_and_lower(text)
    except ProgramSyntaxError as error:
        status = Status.LIMIT_EXCEEDED if error.bound is not None else Status.SYNTAX_ERROR
        failed: Outcome[float] = Outcome(status, message=error.message)
        return Execution(None, failed, INVALID, error, item, None)
    outcome = evaluate(program, FLOAT64)
    official = OfficialVerdict(True, outcome.value) if isinstance(outcome.value, float) else INVALID
    return Execution(program, outcome, official, None, item, None)


def run_item(item: Item) -> Execution:
    """Run one TAT-QA Item; never raises for a bad item."""
    if item.error is None and item.program is not None and "answer_type" not in (item.record or {}):
        return run_program(item)
    if item.error is not None or item.record is None:
        outcome: Outcome[float] = Outcome(Status.BAD_INPUT, message=item.error or "the item has no TAT-QA question")
        return Execution(None, outcome, INVALID, item=item, match=False if item.has_gold else None,
                         reason=MatchReason.OFFICIAL_INVALID if item.has_gold else MatchReason.NO_GOLD)
    question = question_of(item)
    if question.get("answer_type") != "arithmetic":
        kind = str(question.get("answer_type"))
        skipped: Outcome[float] = Outcome(Status.NO_STEPS, message=f"a {kind} question: only arithmetic "
                                          "derivations are executed")
        return Execution(None, skipped, INVALID, item=item, match=None, detail=NotExecuted(kind))
    result = run_derivation(item.id, question)
    try:
        program = parse_and_lower(result.derivation)
    except ProgramSyntaxError as error:
        failed: Outcome[float] = Outcome(result.status, message=result.message)
        return Execution(None, failed, INVALID, error, item, False, MatchReason.OFFICIAL_INVALID, detail=result)
    if result.value is None:
        refused: Outcome[float] = Outcome(result.status, message=result.message)
        return Execution(program, refused, INVALID, None, item, False, MatchReason.OFFICIAL_INVALID, detail=result)
    done: Outcome[float] = Outcome(Status.OK, result.value, result.value)
    return Execution(program, done, OfficialVerdict(True, result.value), None, item, result.match,
                     MatchReason.MATCH if result.match else MatchReason.VALUE_DIFFERS, detail=result)


__all__ = ["NotExecuted", "run_program", "run_item"]
