"""Official FinQA / ConvFinQA scoring (execution and program accuracy) and the peer scorers.

``score_predictions(load_gold("finqa:test"), load_predictions(path), ["all"])`` returns a
:class:`~progexec.score.results.ScoreReport`; ``progexec score`` is its command line. The package is
callable: ``progexec.score(gold, predictions, scorers=...)`` is :func:`score_sources`, which takes
paths, corpus names or records in memory.

Layer (docs/architecture.md): beside ``reward`` (neither imports the other), above ``readers``. May import
the layers below; a dataset's own scorer is reached through its record, never by importing ``datasets``.
"""

import importlib
import sys
import types
from collections.abc import Sequence
from typing import Any

from .equivalence import ProgramMatch, Why, equal_program
from .loading import CORPUS_NAMES, load_gold, load_predictions
from ..core.errors import InputError
from ..core.limits import Limits
from ..records import FORMAT_VERSION
from .results import GoldItem, Prediction, ScoreReport, Verdict
from .scoring import SCORERS, disagreements, resolve_scorers, score_predictions
from .sources import GoldSource, PredictionSource, score_sources

__all__ = [
    "CORPUS_NAMES", "FORMAT_VERSION", "GoldItem", "GoldSource", "Prediction", "PredictionSource", "ProgramMatch",
    "SCORERS", "ScoreReport", "Verdict", "Why", "disagreements", "equal_program", "load_gold",
    "load_predictions", "resolve_scorers", "score_predictions", "score_sources",
]

_SUBMODULES = frozenset({"equivalence", "loading", "official_scorer", "peers", "results", "scoring", "shortcuts",
                         "sources", "unitxt"})


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _ScorePackage(types.ModuleType):
    """This package, callable: ``progexec.score(gold, predictions)`` is :func:`score_sources`."""

    def __call__(self, gold: GoldSource, predictions: PredictionSource, scorers: Sequence[str] = ("official",),
                 limits: Limits | None = None) -> ScoreReport:
        return score_sources(gold, predictions, scorers, limits)


sys.modules[__name__].__class__ = _ScorePackage
