"""One call from program text or tokens to an answer: parse, run under float64, and
say what the official evaluator would have answered.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core.execution import Execution
from ..core.nodes import Program
from ..core.errors import ProgramSyntaxError
from ..grammar.parse import parse_token_list
from ..core.arithmetic import Float64
from .compiled import fast_outcome, fast_verdict
from ..core.outcome import Outcome
from .evaluate import evaluate
from ..core.verdict import OfficialVerdict
from ..core.dataset import Dialect
from ..core.status import Status
from ..core.table import Table




def float64(dialect: Dialect) -> Float64:
    """The official float64 arithmetic of a dataset."""
    return dialect.float64


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


def execute_program(program: Program, table: Table | None, dialect: Dialect) -> Execution:
    """Run an already parsed program."""
    spec = dialect
    outcome = evaluate(program, spec.float64, table, ops=spec.ops)
    return _finish(program, outcome, program.to_tokens, table, spec, None)


def execute_text(text: str, table: Table | None, dialect: Dialect) -> Execution:
    """Parse program text by the dialect's reader and run it; a syntax error becomes a SYNTAX_ERROR outcome
    (LIMIT_EXCEEDED, naming the bound, for text over ``max_program_chars``)."""
    found = fast_outcome(text, table, dialect)  # the compiled fast path; None: the general path decides
    if found is not None and (verdict := fast_verdict(*found)) is not None:
        return Execution.lazy(found[0], found[1], verdict)
    spec = dialect
    try:
        program = spec.parse(text)
    except ProgramSyntaxError as error:
        status = Status.LIMIT_EXCEEDED if error.bound is not None else Status.SYNTAX_ERROR
        outcome: Outcome[float] = Outcome(status, message=error.message)
        return _finish(None, outcome, lambda: spec.tokenize(text), table, spec, error)
    outcome = evaluate(program, spec.float64, table, ops=spec.ops)
    tokens = (lambda: spec.tokenize(text)) if program.official_invalid else program.to_tokens
    return _finish(program, outcome, tokens, table, spec, None)


def execute_tokens(tokens: Sequence[str], table: Table | None, dialect: Dialect) -> Execution:
    """Run the official token-list form (``[..., "EOF"]``)."""
    found = fast_outcome(tokens, table, dialect)  # the compiled fast path; None: the general path decides
    if found is not None and (verdict := fast_verdict(*found)) is not None:
        return Execution.lazy(found[0], found[1], verdict)
    spec = dialect
    try:
        program = parse_token_list(tokens)
    except ProgramSyntaxError as error:
        outcome: Outcome[float] = Outcome(Status.SYNTAX_ERROR, message=error.message)
        return _finish(None, outcome, lambda: tokens, table, spec, error)
    outcome = evaluate(program, spec.float64, table, ops=spec.ops)
    return _finish(program, outcome, lambda: tokens, table, spec, None)
