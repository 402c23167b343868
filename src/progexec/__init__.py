"""progexec: execute, check and score FinQA-family programs exactly as the official evaluators do.

The front door for library users (reward functions, metrics, evaluator ports)::

    import progexec
    progexec.run("subtract(34.8, 1.2), divide(#0, 34.8)").official.value   # 0.96552
    for execution in map(progexec.execute, progexec.read("finqa:test")): ...
    progexec.score("finqa:test", "predictions.json", scorers=("official", "pot"))
    progexec.report(progexec.read("finqa:dev"))

Every call is thread-safe and signal-free off the main thread; every error progexec raises on
purpose derives from :class:`ProgexecError`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import ProgexecError
from .interp.official import OfficialVerdict
from .interp.run import Execution, MatchReason
from .interp.status import Status
from .items import Item
from .limits import DEFAULT_LIMITS, Limits
from .readers import InputError, read
from .runner import execute

__version__ = "0.3.0"

# ``progexec.score`` and ``progexec.report`` are the subpackages themselves, and both are callable:
# ``progexec.score(gold, predictions)`` is ``progexec.score.score_sources`` (paths, corpus names or records
# in memory) and ``progexec.report(items)`` is ``progexec.report.build_report`` — so
# ``progexec.report.score_report.write_score_report`` and ``progexec.score.load_gold`` work too.
from . import report, score  # noqa: E402
from .report.model import Report  # noqa: E402
from .score.results import ScoreReport  # noqa: E402


def run(program: str | Sequence[str], table: list[list[str]] | None = None, *, dialect: str = "finqa",
        problem: str = "", limits: Limits | None = None) -> Execution:
    """Execute one program (text, or the official token list) over ``table``; never raises for a bad program.

    ``dialect`` names a registered dialect (:func:`progexec.dialects.dialect_names`: ``finqa``, ``convfinqa``,
    ``mathqa``, ``multihiertt``, ...); for ``mathqa`` ``program`` is a linear formula whose ``nK`` are the
    numbers of ``problem``, and ``table`` is unused. An unknown dialect raises ``UnknownDialectError``.
    """
    from .dialects import get_dialect
    from .items import program_item

    body: str | list[str] = program if isinstance(program, str) else list(program)
    return execute(program_item(body, table, get_dialect(dialect).name, problem), limits)


__all__ = [
    "__version__", "run", "read", "execute", "score", "report", "Item", "Execution", "MatchReason", "Status",
    "OfficialVerdict", "Limits", "DEFAULT_LIMITS", "Report", "ScoreReport", "ProgexecError", "InputError",
]
