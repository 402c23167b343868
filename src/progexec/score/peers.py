"""Peer scorers: how other public evaluators would score the same predictions.

Each scorer is a pure function of an :class:`~progexec.score.official_scorer.ItemContext`
returning a :class:`~progexec.score.results.Verdict`. They are written from their
published behaviour (see ``docs/scoring.md`` for one paragraph and the source of
each); no code is copied.

* ``helm-fin-qa`` — HELM ``fin_qa``: official execution and ``equal_program``, but a
  numeric gold is compared with ``math.isclose`` (default tolerances), yes/no by string.
* ``helm-float-equiv`` — HELM ``conv_fin_qa_calc``: the first number in the completion
  and in ``str(exe_ans)``, equal when they differ by < 1e-6; 0 when either has none.
* ``pot`` — Program-of-Thoughts ``finqa_equal``: both rounded to the smaller number of
  printed decimals, strings compared exactly.
* ``unitxt`` / ``unitxt-2024`` — IBM unitxt ``FinQAEval`` under its current and its previous
  ``cards.fin_qa`` card, in :mod:`progexec.score.unitxt` (re-exported here).
"""

from __future__ import annotations

import math
import re

from ..core.registry import get_dataset
from ..grammar.tokens import official_tokenize
from ..core.item import Item
from ..runner import execute
from .equivalence import Why, equal_program
from .results import ExecutionWhy, Verdict
from .official_scorer import ItemContext, execution_why
from .unitxt import nested_program, safe_arithmetic, tokens_to_text, unitxt, unitxt_2024

__all__ = [
    "float_equiv", "helm_fin_qa", "helm_float_equiv", "nested_program", "pot", "pot_equal", "pot_precision",
    "safe_arithmetic", "tokens_to_text", "unitxt", "unitxt_2024",
]

FLOAT_PATTERN = re.compile(r"[-+]?(?:(?:\d*\.\d+)|(?:\d+\.?))(?:[Ee][+-]?\d+)?")
"""HELM's number pattern (SPEC §3): the first match is the value."""


def _first_number(text: str) -> float | None:
    match = FLOAT_PATTERN.search(text)
    if match is None:
        return None
    try:
        return float(match.group(0))
    except ValueError:
        return None


def float_equiv(completion: str, gold: str, eps: float = 1e-6) -> bool:
    """HELM ``float_equiv``: first numbers of both strings differ by strictly less than ``eps``."""
    first, second = _first_number(completion), _first_number(gold)
    if first is None or second is None:
        return False
    try:
        return abs(first - second) < eps
    except (OverflowError, ValueError):
        return completion == gold


def _completion(ctx: ItemContext) -> str | None:
    """The text an answer scorer reads: the model's answer, else the official execution result as text."""
    if ctx.pred.text is not None:
        return ctx.pred.text
    if ctx.pred.tokens is not None and ctx.verdict.valid and ctx.verdict.value is not None:
        return str(ctx.verdict.value)
    return None


def helm_fin_qa(ctx: ItemContext) -> Verdict:
    """HELM ``fin_qa``: official execution, ``math.isclose`` for numbers, yes/no by string; official program accuracy."""
    gold = ctx.gold_value
    verdict, match = ctx.verdict, ctx.match
    if ctx.pred.program_text is not None and ctx.pred.program_text != ctx.pred.program_text.strip():
        # HELM tokenizes the stripped completion; only surrounding whitespace can make this differ
        tokens = official_tokenize(ctx.pred.program_text.strip())
        verdict = execute(Item(ctx.pred.id, tokens, ctx.gold.table, dialect=get_dataset(ctx.dialect))).official  # the one runner
        if ctx.gold.tokens is not None:
            match = equal_program(ctx.gold.tokens, tokens, ctx.dialect)
    value = verdict.value
    correct = False
    if ctx.pred.tokens is not None and verdict.valid and gold is not None:
        reference = str(gold)
        if reference in ("yes", "no"):
            correct = reference == value
        elif isinstance(value, float):
            try:
                correct = math.isclose(float(reference), value)
            except ValueError:
                correct = False
    prog = match.equal
    return Verdict(correct, prog, execution_why(ctx, correct), Why.OK if prog else match.why)


def helm_float_equiv(ctx: ItemContext) -> Verdict:
    """HELM ``conv_fin_qa_calc`` ``float_equiv`` on the completion and ``str(exe_ans)``."""
    completion = _completion(ctx)
    gold = ctx.gold_value
    if completion is None or gold is None:
        return Verdict(False, None, ExecutionWhy.NO_ANSWER if completion is None else ExecutionWhy.NO_GOLD_ANSWER)
    correct = float_equiv(completion, str(gold))
    why = ExecutionWhy.OK if correct else (
        ExecutionWhy.NO_NUMBER if _first_number(completion) is None or _first_number(str(gold)) is None
        else ExecutionWhy.VALUE_DIFFERS)
    return Verdict(correct, None, why)


def pot_precision(value: object) -> int:
    """Program-of-Thoughts ``get_precision``: digits after the last ``.`` of ``str(value)``, else 5."""
    text = str(value)
    return len(text.split(".")[-1]) if "." in text else 5


def pot_equal(prediction: float | str | bool | None, reference: float | str) -> bool:
    """Program-of-Thoughts ``finqa_equal`` (``include_percentage=False``, ``is_close=False``, as its FinQA run)."""
    if prediction is None:
        return False
    if isinstance(prediction, bool):
        return reference == ("yes" if prediction else "no")
    if isinstance(reference, str) or isinstance(prediction, str):
        return prediction == reference
    try:
        digits = min(pot_precision(prediction), pot_precision(reference))
        return round(prediction, digits) == round(reference, digits)
    except (OverflowError, ValueError, TypeError):
        return False


def _pot_value(ctx: ItemContext) -> float | str | None:
    if ctx.pred.text is not None:
        try:
            return float(ctx.pred.text)
        except ValueError:
            return ctx.pred.text
    if ctx.pred.tokens is None or not ctx.verdict.valid:
        return None
    return ctx.verdict.value


def pot(ctx: ItemContext) -> Verdict:
    """Program-of-Thoughts answer equality against ``exe_ans``."""
    gold = ctx.gold_value
    value = _pot_value(ctx)
    correct = gold is not None and pot_equal(value, gold)
    why = ExecutionWhy.OK if correct else (ExecutionWhy.NO_ANSWER if value is None else
                                           ExecutionWhy.NO_GOLD_ANSWER if gold is None else ExecutionWhy.VALUE_DIFFERS)
    return Verdict(correct, None, why)
