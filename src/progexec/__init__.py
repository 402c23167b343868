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
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .core.errors import ProgexecError
from .core.limits import DEFAULT_LIMITS, Limits
from .core.version import __version__

if TYPE_CHECKING:
    from . import report, score
    from .core.verdict import OfficialVerdict
    from .core.execution import Execution, MatchReason
    from .core.status import Status
    from .core.item import Item
    from .readers import read
    from .core.errors import InputError
    from .report.model import Report
    from .runner import execute
    from .score.results import ScoreReport


# ``progexec.score`` and ``progexec.report`` are the subpackages themselves, and both are callable:
# ``progexec.score(gold, predictions)`` is ``progexec.score.score_sources`` (paths, corpus names or records
# in memory) and ``progexec.report(items)`` is ``progexec.report.build_report`` — so
# ``progexec.report.score_report.write_score_report`` and ``progexec.score.load_gold`` work too.
# They and the other public names are imported on first use, so that ``progexec exec`` starts without them.
_LAZY = {"OfficialVerdict": ".core.verdict", "Execution": ".core.execution", "MatchReason": ".core.execution",
         "Status": ".core.status", "Item": ".core.item", "InputError": ".readers", "read": ".readers",
         "execute": ".runner", "Report": ".report.model", "ScoreReport": ".score.results"}


def __getattr__(name: str) -> Any:
    if name in ("report", "score", "limits"):  # limits: the deprecated path of progexec.core.limits
        return importlib.import_module(f".{name}", __name__)  # the import binds it here too
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
    from .core.registry import get_dataset as get_dialect
    from .core.item import program_item
    from .runner import execute

    body: str | list[str] = program if isinstance(program, str) else list(program)
    return execute(program_item(body, table, get_dialect(dialect), problem), limits)


__all__ = [
    "__version__", "run", "read", "execute", "score", "report", "Item", "Execution", "MatchReason", "Status",
    "OfficialVerdict", "Limits", "DEFAULT_LIMITS", "Report", "ScoreReport", "ProgexecError", "InputError",
]
