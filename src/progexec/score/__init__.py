"""Official FinQA / ConvFinQA scoring (execution and program accuracy) and the peer scorers.

``score_predictions(load_gold("finqa:test"), load_predictions(path), ["all"])`` returns a
:class:`~progexec.score.results.ScoreReport`; ``progexec score`` is its command line. The package is
callable: ``progexec.score(gold, predictions, scorers=...)`` is :func:`score_sources`, which takes
paths, corpus names or records in memory (``progexec/__init__.py`` makes ``progexec.score`` that callable
front for this package).

Layer (docs/architecture.md): beside ``reward`` (neither imports the other), above ``readers``. May import
the layers below; a dataset's own scorer is reached through its record, never by importing ``datasets``.
"""

from typing import TYPE_CHECKING, Any

from ..core.lazy import lazy_exports

if TYPE_CHECKING:
    from .equivalence import ProgramMatch, Why, equal_program
    from .loading import CORPUS_NAMES, load_gold, load_predictions
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


_NAMES = {"ProgramMatch": ".equivalence", "Why": ".equivalence", "equal_program": ".equivalence",
          "CORPUS_NAMES": ".loading", "load_gold": ".loading", "load_predictions": ".loading",
          "FORMAT_VERSION": "..records", "GoldItem": ".results", "Prediction": ".results", "ScoreReport": ".results",
          "Verdict": ".results", "SCORERS": ".scoring", "disagreements": ".scoring", "resolve_scorers": ".scoring",
          "score_predictions": ".scoring", "GoldSource": ".sources", "PredictionSource": ".sources",
          "score_sources": ".sources"}
"""Public name -> its module: loaded on first use, so that importing this package costs nothing."""

__getattr__ = lazy_exports(__name__, _NAMES, _SUBMODULES)

