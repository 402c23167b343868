"""MathQA's part of ``progexec reward``: how a completion's formula runs, and how its value meets the gold option.

Registered on the MathQA record (``reward_run``, ``reward_equal``, ``read_options``); the reward core in
:mod:`progexec.reward` calls them through the record and never names MathQA.
"""

from __future__ import annotations

from ...core.errors import ProgramSyntaxError
from ...core.table import Table
from ...grammar.mathqa_parse import parse_mathqa
from ...reward.goldvalue import GoldValue, ResolvedGold
from ...reward.programs import ProgramRun
from .binding import number_texts
from .execute import run_program
from .options import select_option, within_one_percent


def run_for_reward(text: str, table: Table | None, dialect: str, problem: str | None, strict: bool) -> ProgramRun:
    """MathQA: linear or nested text under MathQA-Python's semantics, ``nK`` bound to the problem's numbers."""
    try:
        program = parse_mathqa(text)
    except ProgramSyntaxError as error:
        return ProgramRun(None, error.message, syntax_error=True)
    outcome = run_program(program, number_texts(problem or ""))
    if not outcome.present or not isinstance(outcome.value, float):
        return ProgramRun(None, outcome.message or outcome.status.label)
    return ProgramRun(outcome.value)


def official_equal(value: float | str, want: GoldValue, resolved: ResolvedGold) -> bool:
    """MathQA: the option the value selects (MathQA's 1 % rule) is the gold letter, or within 1 % of a number."""
    if not isinstance(value, float):
        return False
    if isinstance(want, str):
        return select_option(value, dict(resolved.options)) == want
    if isinstance(want, float):
        return within_one_percent(value, want)
    return False


__all__ = ["run_for_reward", "official_equal"]
