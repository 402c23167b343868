"""``progexec check-rounder``: prove a rounder bit for bit against CPython ``round`` before it ships.

The suite (:mod:`.cases`) is deterministic for a seed; answers from a Python callable or an
external program are compared with the oracle and classified (:mod:`.classify`) into one
:class:`.check.CheckReport`, which :mod:`.output` renders as text, JSON or JUnit XML.
"""

from .cases import DEFAULT_CASES, DigitsPlan, Family
from .check import CheckReport, Counterexample, python_answerer, run_check
from .classify import Divergence, Failure, reference_round

__all__ = [
    "DEFAULT_CASES", "CheckReport", "Counterexample", "DigitsPlan", "Divergence", "Failure", "Family",
    "python_answerer", "reference_round", "run_check",
]
