"""TAT-QA: its official scorer reproduced item for item, and its arithmetic derivations executed.

``score(gold, predictions)`` gives the official exact match, F1 and scale score (as floats equal to
``tatqa_eval.py``'s) with per-question records; ``read_questions`` reads the official dataset
files (and the embedded ``tatqa:dev`` / ``tatqa:test``). See docs/tatqa.md.

Part of :mod:`progexec.datasets`: may import every layer below ``datasets``, never ``checker``,
``integrations`` or ``cli``.
"""

from __future__ import annotations

from .data import CORPORA, Question, read_predictions, read_questions
from .metric import QuestionScore, Reason, score_question
from .scoring import TatqaScore, score, score_questions
from ...core.errors import OfficialAbort

__all__ = ["CORPORA", "Question", "read_predictions", "read_questions", "QuestionScore", "Reason",
           "score_question", "OfficialAbort", "TatqaScore", "score", "score_questions"]
