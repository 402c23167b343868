"""MathQA (Amini et al. 2019): linear formulas over the numbers of a problem text, as MathQA-Python runs them.

An item is a problem (text, options, correct letter, formula), not a program over a table, so the entry
has a ``run`` hook: the runner hands MathQA items to :func:`run_problem`, which executes the formula on
the one interpreter with MathQA's op table and picks the option (``progexec.datasets.mathqa.execute``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ...core.dataset import Dialect
from ...grammar.mathqa_parse import parse_mathqa
from ...core.verdict import INVALID, OfficialVerdict
from ...core.execution import Execution, MatchReason
from ...core.table import Table
from ...core.item import Item, bad_item
from ...jsonrecords import Record
from .corpus import mathqa_records
from .arithmetic import MATHQA_LITERALS
from .ops import MATHQA_OPS


def _tokens(text: str) -> list[str]:
    """MathQA formulas have no official token form of their own: the text is one token."""
    return [text, "EOF"]


def _official(tokens: Sequence[str], table: Table | None) -> OfficialVerdict:
    """MathQA's answer is the executed value itself (MathQA-Python's generator); no separate model."""
    return INVALID


def run_problem(item: Item, semantics: Any) -> Execution:
    """Execute one MathQA item (its problem record) under ``semantics`` (progexec's or trax's numerics)."""
    from .execute import Semantics, execute_problem
    from ...runner import bad_input_execution

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
    return Execution(None, result.outcome, official, item=item, match=result.match, reason=reason, detail=result)


def _mathqa(record: Record, stem: str) -> Iterator[Item]:
    item = record.value
    index = record.number - 1
    if not isinstance(item, dict):
        yield bad_item(str(index), f"{record.where} is not an object", record.where, MATHQA)
        return
    raw_id = item.get("id")
    item_id = str(raw_id) if isinstance(raw_id, (str, int)) and not isinstance(raw_id, bool) else str(index)
    formula = item.get("linear_formula")
    yield Item(item_id, formula if isinstance(formula, str) else None, dialect=MATHQA, source=record.where,
               record=item)


def mathqa_items(split: str = "test") -> Iterator[Item]:
    """The official MathQA problems of one split as Items (dialect ``mathqa``), in the official order."""
    for index, record in enumerate(mathqa_records(split)):
        formula = record.get("linear_formula")
        yield Item(str(index), formula if isinstance(formula, str) else None, dialect=MATHQA,
                   source=f"mathqa {split} {index}", record=record)


def _reward_run(text: str, table: Table | None, dialect: str, problem: str | None, strict: bool) -> Any:
    from .reward import run_for_reward

    return run_for_reward(text, table, dialect, problem, strict)


def _reward_equal(value: Any, want: Any, resolved: Any) -> bool:
    from .reward import official_equal

    return official_equal(value, want, resolved)


def _read_options(text: str) -> Mapping[str, Any]:
    from .options import parse_options

    return parse_options(text)


def score_problems(gold: Sequence[Any], predictions: Sequence[Any]) -> Any:
    """``progexec score`` on MathQA: execution, program, option and trax accuracy (:mod:`.score`)."""
    from .score import score_records

    return score_records(gold, predictions)


def _corpus(name: str) -> Iterator[Item]:
    return mathqa_items(name.partition(":")[2] or "test")


MATHQA = Dialect(
    name="mathqa", title="MathQA", ops=MATHQA_OPS, literals=MATHQA_LITERALS, tokenize=_tokens, parse=parse_mathqa,
    official=_official, round_digits=None, run=run_problem, scorer="option", reward_policy="numeric",
    option_letters=True, reader=_mathqa, corpus=_corpus,
    reward_run=_reward_run, reward_equal=_reward_equal, read_options=_read_options, program_example="add(n0,n1)|divide(#0,const_2)|",
    score=score_problems, gold_records=lambda name: mathqa_records(name.partition(":")[2] or "test"),
    summary="MathQA (Amini et al. 2019): linear formulas over the problem's numbers; an option letter is the answer")

__all__ = ["MATHQA", "run_problem", "mathqa_items", "score_problems"]
