"""MathQA (Amini et al. 2019): linear formulas over the numbers of a problem text, as MathQA-Python runs them.

An item is a problem (text, options, correct letter, formula), not a program over a table, so the entry
has a ``run`` hook: the runner hands MathQA items to :func:`run_problem`, which executes the formula on
the one interpreter with MathQA's op table and picks the option (``progexec.mathqa.execute``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from . import Dialect
from ..grammar.mathqa_parse import parse_mathqa
from ..interp.official import INVALID, OfficialVerdict
from ..interp.run import Execution, MatchReason
from ..interp.table import Table
from ..items import Item
from ..mathqa.arithmetic import MATHQA_LITERALS
from ..mathqa.ops import MATHQA_OPS


def _tokens(text: str) -> list[str]:
    """MathQA formulas have no official token form of their own: the text is one token."""
    return [text, "EOF"]


def _official(tokens: Sequence[str], table: Table | None) -> OfficialVerdict:
    """MathQA's answer is the executed value itself (MathQA-Python's generator); no separate model."""
    return INVALID


def run_problem(item: Item, semantics: Any) -> Execution:
    """Execute one MathQA item (its problem record) under ``semantics`` (progexec's or trax's numerics)."""
    from ..mathqa.execute import Semantics, execute_problem
    from ..runner import bad_input_execution

    if item.record is None:
        return bad_input_execution(item)
    index = int(item.id) if item.id.isdigit() else 0
    result = execute_problem(dict(item.record), index, semantics=semantics or Semantics.PROGEXEC)
    if result.id != item.id:
        result = replace(result, id=item.id)
    value = result.value
    official = OfficialVerdict(True, value) if value is not None else INVALID
    if result.match is None:
        reason = MatchReason.NO_CORRECT_OPTION if result.correct is not None else MatchReason.NO_GOLD
    else:
        reason = MatchReason.MATCH if result.match else MatchReason.NOT_WITHIN_OPTION
    return Execution(None, result.outcome, official, item=item, match=result.match, reason=reason, mathqa=result)


def score_problems(gold: Sequence[Any], predictions: Sequence[Any]) -> Any:
    """``progexec score`` on MathQA: execution, program, option and trax accuracy (:mod:`progexec.score.mathqa_score`)."""
    from ..score.mathqa_score import score_records

    return score_records(gold, predictions)


MATHQA = Dialect(
    name="mathqa", title="MathQA", ops=MATHQA_OPS, literals=MATHQA_LITERALS, tokenize=_tokens, parse=parse_mathqa,
    official=_official, round_digits=None, run=run_problem, scorer="option", reward_policy="numeric",
    option_letters=True, program_example="add(n0,n1)|divide(#0,const_2)|", score=score_problems,
    summary="MathQA (Amini et al. 2019): linear formulas over the problem's numbers; an option letter is the answer")

__all__ = ["MATHQA", "run_problem", "score_problems"]
