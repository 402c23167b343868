"""One call from program text or tokens to an answer: parse, run under float64, and
say what the official evaluator would have answered.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..grammar.nodes import Program
from ..grammar.parse import ProgramSyntaxError, ProgramTooLongError, parse_token_list
from .arithmetic import Float64
from .compiled import fast_outcome, fast_verdict
from .evaluate import Outcome, evaluate
from .official import OfficialVerdict
from ..dialects import Dialect, get_dialect
from .status import Status
from .table import Table

if TYPE_CHECKING:
    from ..items import Item
    from ..mathqa.execute import MathQAResult



class MatchReason(enum.Enum):
    """Why an item's answer does (not) match its gold answer, under the one, official, definition."""

    MATCH = ("match", "the official answer equals the gold answer")
    NO_GOLD = ("no_gold", "the item has no gold answer")
    GOLD_NOT_FINITE = ("gold_not_finite", "the gold answer is NaN or infinite, which no answer equals")
    OFFICIAL_INVALID = ("official_invalid", "the official evaluator calls the program invalid")
    VALUE_DIFFERS = ("value_differs", "the official answer differs from the gold answer")
    NO_CORRECT_OPTION = ("no_correct_option", "the correct MathQA option has no number to compare with")
    NOT_WITHIN_OPTION = ("not_within_option", "the value is not within 1% of the correct MathQA option")

    def __init__(self, label: str, text: str) -> None:
        self.label = label
        self.text = text


@dataclass(frozen=True, slots=True)
class Execution:
    """What running one program gave: the float64 outcome under the contract, the official evaluator's
    verdict and, for a batch item, whether it matches the gold answer (``match`` None: no gold).

    ``progexec.run`` fills the program fields; ``progexec.runner.execute`` also the item and the match.
    """

    program: Program | None
    outcome: Outcome[float]
    official: OfficialVerdict
    error: ProgramSyntaxError | None = None
    item: Item | None = None
    match: bool | None = None
    reason: MatchReason = MatchReason.NO_GOLD
    mathqa: MathQAResult | None = None
    detail: object | None = None
    """A dialect's own per-item result (TAT-QA's derivation result); its ``record_fields()`` extend the record."""

    @property
    def status(self) -> Status:
        return self.outcome.status


def float64(dialect: str | Dialect = "finqa") -> Float64:
    """The official float64 arithmetic of a dialect."""
    return get_dialect(dialect).float64


def _finish(program: Program | None, outcome: Outcome[float], tokens: Callable[[], Sequence[str]],
            table: Table | None, dialect: Dialect, error: ProgramSyntaxError | None) -> Execution:
    """Attach the official verdict: the contract's answer when it has one, else the official model's."""
    official_ok = (program is not None and outcome.present and not program.official_invalid
                   and (program.bare is None or dialect.bare_numbers))
    if official_ok:
        verdict = OfficialVerdict(True, outcome.answer())
    else:
        verdict = dialect.official(tokens(), table)
    return Execution(program, outcome, verdict, error)


def execute_program(program: Program, table: Table | None = None, dialect: str | Dialect = "finqa") -> Execution:
    """Run an already parsed program."""
    spec = get_dialect(dialect)
    outcome = evaluate(program, spec.float64, table, ops=spec.ops)
    return _finish(program, outcome, program.to_tokens, table, spec, None)


def execute_text(text: str, table: Table | None = None, dialect: str | Dialect = "finqa") -> Execution:
    """Parse program text by the dialect's reader and run it; a syntax error becomes a SYNTAX_ERROR outcome
    (LIMIT_EXCEEDED, naming the bound, for text over ``max_program_chars``)."""
    found = fast_outcome(text, table, dialect)  # the compiled fast path; None: the general path decides
    if found is not None and (verdict := fast_verdict(*found)) is not None:
        return Execution(found[0].program, found[1], verdict)
    spec = get_dialect(dialect)
    try:
        program = spec.parse(text)
    except ProgramSyntaxError as error:
        status = Status.LIMIT_EXCEEDED if isinstance(error, ProgramTooLongError) else Status.SYNTAX_ERROR
        outcome: Outcome[float] = Outcome(status, message=error.message)
        return _finish(None, outcome, lambda: spec.tokenize(text), table, spec, error)
    outcome = evaluate(program, spec.float64, table, ops=spec.ops)
    tokens = (lambda: spec.tokenize(text)) if program.official_invalid else program.to_tokens
    return _finish(program, outcome, tokens, table, spec, None)


def execute_tokens(tokens: Sequence[str], table: Table | None = None, dialect: str | Dialect = "finqa") -> Execution:
    """Run the official token-list form (``[..., "EOF"]``)."""
    found = fast_outcome(tokens, table, dialect)  # the compiled fast path; None: the general path decides
    if found is not None and (verdict := fast_verdict(*found)) is not None:
        return Execution(found[0].program, found[1], verdict)
    spec = get_dialect(dialect)
    try:
        program = parse_token_list(tokens)
    except ProgramSyntaxError as error:
        outcome: Outcome[float] = Outcome(Status.SYNTAX_ERROR, message=error.message)
        return _finish(None, outcome, lambda: tokens, table, spec, error)
    outcome = evaluate(program, spec.float64, table, ops=spec.ops)
    return _finish(program, outcome, lambda: tokens, table, spec, None)
