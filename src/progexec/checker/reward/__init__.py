"""``check-reward``: prove an RL reward function on a generated suite before a training run depends on it.

:func:`~.suite.build_suite` writes the cases (correct answers in the forms models use, wrong
answers that look right, from the embedded gold records); :class:`~.caller.RewardCaller` calls the
function in a leashed child; :func:`~.check.run_reward_check` classifies every outcome and runs the
thread, process-pool and determinism probes. See docs/check-reward.md.
"""

from __future__ import annotations

from .caller import SIGNATURES, RewardCaller
from .check import Finding, RewardReport, run_reward_check
from .classes import DEFAULT_FAIL_ON, RewardClass
from .forms import FORMS
from .suite import RewardCase, build_suite, export
from ...core.errors import OptionError

__all__ = ["SIGNATURES", "RewardCaller", "Finding", "RewardReport", "run_reward_check",
           "DEFAULT_FAIL_ON", "RewardClass", "FORMS", "RewardCase", "build_suite", "export"]
