"""Program-of-thought Python solutions scored safely: FinanceMath, DocMath-Eval and MathQA-Python.

One dataset registry (:data:`DATASETS`), FinanceMath's code extraction (:func:`extract_code`), the
official and strict answer rules (:func:`official_verdict`, :func:`verdicts`), a warm pool of sandboxed
workers (:class:`Pool`), the leaderboard (:func:`score_runs`) and the reward (:func:`python_solution_rewards`).
See docs/financemath.md.

Part of :mod:`progexec.datasets`: may import every layer below ``datasets``, never ``checker``,
``integrations`` or ``cli``.
"""

from __future__ import annotations

from .datasets import DATASETS, Dataset, detect
from .extract import extract_code
from .official import Gold, official_verdict
from .pool import Budget, Pool, Request, offered_libraries
from .results import SolutionResult, Status
from .reward import python_solution_reward, python_solution_rewards
from .scoring import Leaderboard, ModelScore, load_records, score_runs
from .strict import DIVERGENCE_CLASSES, verdicts
from ...core.errors import InputError

__all__ = ["DATASETS", "DIVERGENCE_CLASSES", "Budget", "Dataset", "Gold", "Leaderboard", "ModelScore", "Pool",
           "Request", "SolutionResult", "Status", "detect", "extract_code", "load_records",
           "offered_libraries", "official_verdict", "python_solution_reward", "python_solution_rewards",
           "score_runs", "verdicts"]
