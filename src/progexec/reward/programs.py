"""Running a predicted (or gold) program with the official semantics of the gold's dialect.

FinQA / ConvFinQA text is read one of two ways. ``strict`` (the ``official`` policy): the official
tokenizer reads the text (it splits only on ``", "``), exactly as ``progexec score``'s official
scorer does, so ``subtract(5829,5735)`` has no value under both. Lenient (the ``numeric``
policy's fallback, and a gold record's program): progexec's grammar parses the text and hands its
canonical token list to the official model, so spacing does not decide. Either way the value is
the official ``eval_program`` answer. MathQA text (linear or nested) runs under MathQA-Python's
semantics with ``nK`` bound to the numbers of the gold's problem text. Sizes are checked before
parsing.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from ..core.registry import get_dataset as get_dialect
from ..core.errors import ProgramSyntaxError
from ..grammar.parse import parse_program
from ..core.item import Item
from ..core.limits import DEFAULT_LIMITS, current
from ..runner import compiled_run, execute
from ..core.table import Table

MAX_REWARD_PROGRAM_CHARS = DEFAULT_LIMITS.max_reward_program_chars
"""The default (``max_reward_program_chars``): a longer predicted program is too_large, never parsed."""
MAX_REWARD_STEPS = DEFAULT_LIMITS.max_reward_steps
"""The default (``max_reward_steps``): a predicted program with more '(' is too_large, never parsed."""


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
    limits = current()
    if len(text) > limits.max_reward_program_chars:
        return ("the program", len(text), limits.max_reward_program_chars)
    steps = text.count("(")
    if steps > limits.max_reward_steps:
        return ("the program's step count", steps, limits.max_reward_steps)
    return None


Runner = Callable[[str, Table | None, str, str | None, bool], ProgramRun]
"""How a program text of one dialect runs: ``(text, table, dialect, problem, strict) -> ProgramRun``;
never raises."""


def run_official(text: str, table: Table | None, dialect: str, problem: str | None = None,
                 strict: bool = False) -> ProgramRun:
    """Run ``text`` the way the dialect's official evaluator would (``strict``: its text read by the
    official tokenizer, see the module docstring); never raises. The dataset's runner (:func:`runner_for`)
    does the work, after the size bounds."""
    too_large = oversize(text)
    if too_large is not None:
        return ProgramRun(None, "too large", too_large=too_large)
    return runner_for(dialect)(text, table, dialect, problem, strict)


def _run_finqa(text: str, table: Table | None, dialect: str, problem: str | None, strict: bool) -> ProgramRun:
    """FinQA / ConvFinQA: strict by the official tokenizer, else by the grammar (the module docstring)."""
    if strict:
        return _run_tokens(text, table, dialect)
    try:
        program = parse_program(text)
    except ProgramSyntaxError as error:
        return ProgramRun(None, error.message, syntax_error=True)
    execution = execute(Item("completion", list(program.to_tokens()), table, dialect=get_dialect(dialect)))
    verdict = execution.official
    if not verdict.valid or verdict.value is None:
        if execution.outcome.present:
            return ProgramRun(None, f"the official {dialect} evaluator rejects this program form")
        return ProgramRun(None, execution.outcome.message or execution.outcome.status.label)
    if isinstance(verdict.value, float) and not math.isfinite(verdict.value):
        return ProgramRun(None, f"the official value is {verdict.value!r}, which equals no gold")
    return ProgramRun(verdict.value)


def _run_tokens(text: str, table: Table | None, dialect: str) -> ProgramRun:
    """The official reading of program text: ``official_tokenize`` then ``eval_program``."""
    dataset = get_dialect(dialect)
    tokens = dataset.tokenize(text)
    run = compiled_run(tokens, table, dataset)
    verdict = run.verdict if run is not None else execute(Item("completion", tokens, table, dialect=dataset)).official
    if verdict.valid and verdict.value is not None:
        if isinstance(verdict.value, float) and not math.isfinite(verdict.value):
            return ProgramRun(None, f"the official value is {verdict.value!r}, which equals no gold")
        return ProgramRun(verdict.value)
    try:
        program = parse_program(text)
    except ProgramSyntaxError as error:
        return ProgramRun(None, error.message, syntax_error=True)
    canonical = program.to_text()
    return ProgramRun(None, f"the official {dialect} evaluator reads this text as no valid program (its "
                            f"tokenizer splits only on ', '; the grammar reads it as {canonical[:200]!r})")


def runner_for(dialect: str) -> Runner:
    """How a dataset's program text runs: its own ``reward_run`` hook, else as a FinQA-family program."""
    hook = get_dialect(dialect).reward_run
    return hook if hook is not None else _run_finqa

