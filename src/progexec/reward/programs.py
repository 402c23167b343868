"""Running a predicted (or gold) program with the official semantics of the gold's dialect.

FinQA / ConvFinQA text is parsed by our grammar and handed to the official evaluator's model as
its canonical token list, so spacing the official tokenizer would trip on (``divide(3.8,35.1)``)
does not decide the reward; the verdict is the official ``eval_program`` answer. MathQA text
(linear or nested) runs under MathQA-Python's semantics with ``nK`` bound to the numbers of the
gold's problem text. Sizes are checked before parsing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..grammar.mathqa_parse import parse_mathqa
from ..grammar.parse import ProgramSyntaxError, parse_program
from ..interp.run import execute_tokens
from ..interp.table import Table
from ..mathqa.binding import number_texts
from ..mathqa.execute import run_program

MAX_REWARD_PROGRAM_CHARS = 4_000
# bound: MAX_REWARD_PROGRAM_CHARS = 4_000 — a predicted program longer than this is too_large, never parsed
MAX_REWARD_STEPS = 200
# bound: MAX_REWARD_STEPS = 200 — a predicted program with more '(' than this is too_large, never parsed


@dataclass(frozen=True, slots=True)
class ProgramRun:
    """One program's official answer: a float, ``"yes"``/``"no"``, or None with why.

    ``syntax_error`` tells a text that does not parse from a program that has no value;
    ``too_large`` names the size that was over its bound (``(what, size, limit)``).
    """

    value: float | str | None
    detail: str = ""
    syntax_error: bool = False
    too_large: tuple[str, int, int] | None = None

    @property
    def valid(self) -> bool:
        return self.value is not None


def oversize(text: str) -> tuple[str, int, int] | None:
    """The bound a program text exceeds, or None."""
    if len(text) > MAX_REWARD_PROGRAM_CHARS:
        return ("the program", len(text), MAX_REWARD_PROGRAM_CHARS)
    steps = text.count("(")
    if steps > MAX_REWARD_STEPS:
        return ("the program's step count", steps, MAX_REWARD_STEPS)
    return None


def run_official(text: str, table: Table | None, dialect: str, problem: str | None = None) -> ProgramRun:
    """Run ``text`` the way the dialect's official evaluator would; never raises."""
    too_large = oversize(text)
    if too_large is not None:
        return ProgramRun(None, "too large", too_large=too_large)
    if dialect == "mathqa":
        return _run_mathqa(text, problem)
    try:
        program = parse_program(text)
    except ProgramSyntaxError as error:
        return ProgramRun(None, error.message, syntax_error=True)
    execution = execute_tokens(program.to_tokens(), table, dialect)
    verdict = execution.official
    if not verdict.valid or verdict.value is None:
        if execution.outcome.present:
            return ProgramRun(None, f"the official {dialect} evaluator rejects this program form")
        return ProgramRun(None, execution.outcome.message or execution.outcome.status.label)
    if isinstance(verdict.value, float) and not math.isfinite(verdict.value):
        return ProgramRun(None, f"the official value is {verdict.value!r}, which equals no gold")
    return ProgramRun(verdict.value)


def _run_mathqa(text: str, problem: str | None) -> ProgramRun:
    try:
        program = parse_mathqa(text)
    except ProgramSyntaxError as error:
        return ProgramRun(None, error.message, syntax_error=True)
    outcome = run_program(program, number_texts(problem or ""))
    if not outcome.present or not isinstance(outcome.value, float):
        return ProgramRun(None, outcome.message or outcome.status.label)
    return ProgramRun(outcome.value)
