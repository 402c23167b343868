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
from collections.abc import Callable, Iterable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .core.errors import ProgexecError
from .core.limits import DEFAULT_LIMITS, Limits
from .core.version import __version__

if TYPE_CHECKING:
    from . import report, score
    from .core.item import Item as _Item
    from .report.model import Report as _Report
    from .score.results import ScoreReport as _ScoreReport
    from .score.sources import GoldSource, PredictionSource
    from .core.verdict import OfficialVerdict
    from .core.execution import Execution, MatchReason
    from .core.status import Status
    from .core.item import Item
    from .core.errors import InputError
    from .readers import read
    from .report.model import Report
    from .runner import execute
    from .score.results import ScoreReport

# ``progexec.score`` and ``progexec.report`` are callable fronts for the subpackages of those names:
# ``progexec.score(gold, predictions)`` is ``progexec.score.score_sources`` (paths, corpus names or records
# in memory) and ``progexec.report(items)`` is ``progexec.report.build_report``, and every other attribute is
# the subpackage's — so ``progexec.report.score_report.write_score_report`` and ``progexec.score.load_gold``
# work too. Their contents and the other public names are loaded on first use, so that ``progexec exec``
# starts without them.
_LAZY = {"OfficialVerdict": ".core.verdict", "Execution": ".core.execution", "MatchReason": ".core.execution",
         "Status": ".core.status", "Item": ".core.item", "InputError": ".core.errors", "read": ".readers",
         "execute": ".runner", "Report": ".report.model", "ScoreReport": ".score.results"}


def __getattr__(name: str) -> Any:
    if name == "limits":  # the deprecated path of progexec.core.limits (``progexec.limits.using``)
        return importlib.import_module(".limits", __name__)  # the import binds it here too
    if name not in _LAZY:
        raise AttributeError(f"module 'progexec' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value


def run(program: str | Sequence[str], table: list[list[str]] | None = None, *, dialect: str = "finqa",
        problem: str = "", limits: Limits | None = None) -> Execution:
    """Execute one program (text, or the official token list) over ``table``; never raises for a bad program.

    ``dialect`` names a registered dialect (:func:`progexec.datasets.dataset_names`: ``finqa``, ``convfinqa``,
    ``mathqa``, ``multihiertt``, ...); for ``mathqa`` ``program`` is a linear formula whose ``nK`` are the
    numbers of ``problem``, and ``table`` is unused. An unknown dialect raises ``OptionError``.
    """
    from .core.item import program_item
    from .core.registry import get_dataset
    from .runner import execute

    body: str | list[str] = program if isinstance(program, str) else list(program)
    return execute(program_item(body, table, get_dataset(dialect), problem), limits)


class _Front:
    """A subpackage that can be called: calling it runs the package's one documented call, any other
    attribute is the package's own (``progexec.score.load_gold``, ``progexec.report.score_report``)."""

    __slots__ = ("_package", "_call")

    def __init__(self, package: ModuleType, call: Callable[..., Any]) -> None:
        object.__setattr__(self, "_package", package)
        object.__setattr__(self, "_call", call)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._call(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._package, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._package, name, value)  # a test's monkeypatch reaches the package itself

    def __delattr__(self, name: str) -> None:
        delattr(self._package, name)

    def __dir__(self) -> list[str]:
        return dir(self._package)

    def __repr__(self) -> str:
        return f"<callable front of {self._package.__name__}>"


def _score(gold: GoldSource, predictions: PredictionSource, scorers: Sequence[str] = ("official",),
           limits: Limits | None = None) -> _ScoreReport:
    """``progexec.score(gold, predictions, scorers=...)``: :func:`progexec.score.score_sources`."""
    from .score import score_sources

    return score_sources(gold, predictions, scorers, limits)


def _report(items: Iterable[_Item], source: str = "items", limits: Limits | None = None) -> _Report:
    """``progexec.report(items)``: :func:`progexec.report.build_report`."""
    from .report import build_report

    return build_report(items, source, limits=limits)


if not TYPE_CHECKING:  # imported now (both packages load their names on first use, so this costs nothing):
    # a later import of them or of their modules never rebinds these names
    score = _Front(importlib.import_module(".score", __name__), _score)
    report = _Front(importlib.import_module(".report", __name__), _report)


__all__ = [
    "__version__", "run", "read", "execute", "score", "report", "Item", "Execution", "MatchReason", "Status",
    "OfficialVerdict", "Limits", "DEFAULT_LIMITS", "Report", "ScoreReport", "ProgexecError", "InputError",
]
