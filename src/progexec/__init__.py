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

import importlib
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .errors import ProgexecError
from .limits import DEFAULT_LIMITS, Limits

if TYPE_CHECKING:
    from .interp.official import OfficialVerdict
    from .interp.run import Execution, MatchReason
    from .interp.status import Status
    from .items import Item
    from .readers import InputError, read
    from .report.model import Report
    from .runner import execute
    from .score.results import ScoreReport

__version__ = "0.3.0"

_LAZY = {"OfficialVerdict": ".interp.official", "Execution": ".interp.run", "MatchReason": ".interp.run",
         "Status": ".interp.status", "Item": ".items", "InputError": ".readers", "read": ".readers",
         "execute": ".runner", "Report": ".report.model", "ScoreReport": ".score.results"}
"""Public names imported on first use, so that ``progexec exec`` starts without the scorer and the report."""


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'progexec' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value


class _Package(ModuleType):
    """Keeps the functions ``progexec.score`` and ``progexec.report`` when their subpackages are imported
    later (an import binds a subpackage on its parent; here the functions stay the public names)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("score", "report") and isinstance(value, ModuleType) and name in self.__dict__:
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def run(program: str | Sequence[str], table: list[list[str]] | None = None, *, dialect: str = "finqa",
        problem: str = "", limits: Limits | None = None) -> Execution:
    """Execute one program (text, or the official token list) over ``table``; never raises for a bad program.

    ``dialect`` names a registered dialect (:func:`progexec.dialects.dialect_names`: ``finqa``, ``convfinqa``,
    ``mathqa``, ``multihiertt``, ...); for ``mathqa`` ``program`` is a linear formula whose ``nK`` are the
    numbers of ``problem``, and ``table`` is unused. An unknown dialect raises ``UnknownDialectError``.
    """
    from .dialects import get_dialect
    from .items import program_item
    from .runner import execute

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
