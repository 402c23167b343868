"""``progexec check-rounder`` and ``check-evaluator``: prove a port bit for bit before it ships.

check-rounder: the suite (:mod:`.cases`) is deterministic for a seed; answers from a Python
callable or a child process are compared with the oracle and classified (:mod:`.classify`) into
one :class:`.check.CheckReport`, which :mod:`.output` renders as text, JSON or JUnit XML.
check-evaluator lives in :mod:`.evaluator`. Both talk to untrusted children through the one
leashed engine, :mod:`.engine` (``--python`` functions through :mod:`.pychild`).

Layer (docs/architecture.md): above ``datasets``. May import ``datasets`` and every layer below it; never
``cli``, ``integrations``, ``testing`` or ``parallel_check``.
"""

from .cases import DEFAULT_CASES, DigitsPlan, Family
from .check import CheckReport, Counterexample, python_answerer, run_check
from .divergence import Divergence, Failure, reference_round

__all__ = [
    "DEFAULT_CASES", "CheckReport", "Counterexample", "DigitsPlan", "Divergence", "Failure", "Family",
    "python_answerer", "reference_round", "run_check",
]
