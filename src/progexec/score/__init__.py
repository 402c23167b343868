"""Official FinQA / ConvFinQA scoring (execution and program accuracy) and the peer scorers.

``score_predictions(load_gold("finqa:test"), load_predictions(path), ["all"])`` returns a
:class:`~progexec.score.results.ScoreReport`; ``progexec score`` is its command line.
"""

from .equivalence import ProgramMatch, Why, equal_program
from .loading import CORPUS_NAMES, ScoreInputError, load_gold, load_predictions
from ..records import FORMAT_VERSION
from .results import GoldItem, Prediction, ScoreReport, Verdict
from .scoring import SCORERS, disagreements, resolve_scorers, score_predictions

__all__ = [
    "CORPUS_NAMES", "FORMAT_VERSION", "GoldItem", "Prediction", "ProgramMatch", "SCORERS", "ScoreInputError",
    "ScoreReport", "Verdict", "Why", "disagreements", "equal_program", "load_gold", "load_predictions",
    "resolve_scorers", "score_predictions",
]
