"""The official FinQA / ConvFinQA per-item scoring, without the official loop's crashes.

Execution accuracy for one item is the official ``eval_program`` verdict (taken from
:func:`progexec.interp.run.execute_tokens`, quirks included) compared with ``exe_ans``
by ``==``. Program accuracy is :func:`progexec.score.equivalence.equal_program`.

The two official loops differ (SPEC §1-2): FinQA counts program accuracy for every
item and then ``assert``s that an equal program executed equally; ConvFinQA counts it
only when the prediction executed validly. Where the assert would abort the run, this
module still counts the item as the per-item functions do (program correct, execution
as computed) and flags it ``would_abort``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.registry import get_dataset as get_dialect
from ..core.verdict import INVALID, OfficialVerdict
from ..core.item import Item
from ..runner import execute, stopped_by_clock
from .equivalence import Decider, ProgramMatch, Why, equal_program
from .results import GoldItem, Prediction, ExecutionWhy, Verdict

NAME = "official"


@dataclass(slots=True)
class ItemContext:
    """One (gold, prediction) pair with the expensive shared results computed once, on demand."""

    gold: GoldItem
    pred: Prediction
    _verdict: OfficialVerdict | None = None
    _match: ProgramMatch | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    clock: bool = False  # the wall clock stopped the prediction's execution

    @property
    def dialect(self) -> str:
        return self.gold.dialect

    @property
    def verdict(self) -> OfficialVerdict:
        """What the official ``eval_program`` returns for the predicted tokens on the gold table."""
        if self._verdict is None:
            if self.pred.tokens is None:
                self._verdict = INVALID
            else:
                item = Item(self.pred.id, list(self.pred.tokens), self.gold.table, dialect=get_dialect(self.dialect))
                execution = execute(item)
                self.clock = stopped_by_clock(execution)
                self._verdict = execution.official
        return self._verdict

    @property
    def match(self) -> ProgramMatch:
        """The official ``equal_program(gold, pred)``."""
        if self._match is None:
            if self.gold.tokens is None:
                self._match = ProgramMatch(False, Why.GOLD_ERROR, Decider.RULE, "the gold item has no program")
            elif self.pred.tokens is None:
                self._match = ProgramMatch(False, Why.STRUCTURE, Decider.RULE, "the prediction has no program")
            else:
                self._match = equal_program(self.gold.tokens, self.pred.tokens, self.dialect)
        return self._match

    @property
    def gold_value(self) -> float | str | None:
        return self.gold.exe_ans


def execution_why(ctx: ItemContext, correct: bool) -> ExecutionWhy:
    """Why an execution was (not) counted."""
    if correct:
        return ExecutionWhy.OK
    if ctx.pred.tokens is None:
        return ExecutionWhy.NO_PROGRAM
    if ctx.gold_value is None:
        return ExecutionWhy.NO_GOLD_ANSWER
    if not ctx.verdict.valid:
        return ExecutionWhy.EXECUTION_INVALID
    return ExecutionWhy.VALUE_DIFFERS


def official_exe_correct(ctx: ItemContext) -> bool:
    """Official execution accuracy for one item: valid and ``==`` to ``exe_ans``."""
    return ctx.gold_value is not None and ctx.pred.tokens is not None and ctx.verdict.equals_gold(ctx.gold_value)


def official_prog_correct(ctx: ItemContext) -> bool:
    """Official program accuracy for one item (ConvFinQA: only counted for a valid execution)."""
    if get_dialect(ctx.dialect).program_needs_valid_execution and not ctx.verdict.valid:
        return False
    return ctx.match.equal


def would_abort(ctx: ItemContext) -> bool:
    """True when the official loop's ``assert exe_res == gold_res`` would stop the whole run here.

    An invalid execution is taken as unequal to the gold (its partial value is not modelled).
    """
    if not ctx.match.equal:
        return False
    if get_dialect(ctx.dialect).program_needs_valid_execution and not ctx.verdict.valid:
        return False
    return not (ctx.verdict.valid and ctx.verdict.value == ctx.gold_value)


def score(ctx: ItemContext) -> Verdict:
    """The official scorer's verdict for one item."""
    exe = official_exe_correct(ctx)
    prog = official_prog_correct(ctx)
    if prog:
        prog_why = Why.OK
    elif ctx.match.equal:  # ConvFinQA: equal, but not counted because the execution was invalid
        prog_why = Why.EXECUTION_INVALID
    else:
        prog_why = ctx.match.why
    return Verdict(exe, prog, execution_why(ctx, exe), prog_why, ctx.match.detail)
