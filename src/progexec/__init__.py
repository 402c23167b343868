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

from collections.abc import Iterable, Sequence
from pathlib import Path

from .errors import ProgexecError
from .interp.official import OfficialVerdict
from .interp.run import Execution, MatchReason
from .interp.status import Status
from .items import Item
from .limits import DEFAULT_LIMITS, Limits
from .readers import InputError, read
from .runner import execute

__version__ = "0.3.0"

# The subpackages ``progexec.score`` and ``progexec.report`` are imported here, before the functions of
# the same names below, so that a later ``import progexec.score.x`` finds them loaded and never rebinds
# ``progexec.score`` / ``progexec.report`` to the module (the functions stay the public names).
from . import report as _report_package, score as _score_package  # noqa: E402,F401
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


def score(gold: str | Path, predictions: str | Path, scorers: Sequence[str] = ("official",),
          limits: Limits | None = None) -> ScoreReport:
    """Score a prediction file against gold (a file, ``-`` or an embedded set such as ``finqa:test``).

    Raises :class:`ProgexecError` (a ``ScoreInputError``) for inputs that cannot be scored: no usable
    prediction, no shared id, swapped files, answer-only predictions under a program scorer.
    """
    from .limits import using
    from .score import load_gold, load_predictions, score_predictions
    from .score.scoring import check_inputs, resolve_scorers

    try:
        names = resolve_scorers(list(scorers))
    except KeyError as error:
        raise ProgexecError(f"unknown scorer {error.args[0]!r}") from None
    with using(limits):
        gold_items = load_gold(str(gold))
        preds = load_predictions(str(predictions))
        check_inputs(gold_items, preds, names, str(gold), str(predictions))
        return score_predictions(gold_items, preds, names, str(gold), str(predictions))


def report(items: Iterable[Item], source: str = "items", limits: Limits | None = None) -> Report:
    """The divergence report model of ``items`` (every rounder, the exact oracle, the findings)."""
    from .report.model import build_report

    return build_report(items, source, limits=limits)


__all__ = [
    "__version__", "run", "read", "execute", "score", "report", "Item", "Execution", "MatchReason", "Status",
    "OfficialVerdict", "Limits", "DEFAULT_LIMITS", "Report", "ScoreReport", "ProgexecError", "InputError",
]
