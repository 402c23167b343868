"""progexec as a reward function: judge a model's completion against a FinQA, ConvFinQA or MathQA gold.

``score_completion(completion, gold, policy=...)`` returns a :class:`RewardResult` (score 1.0 or
0.0, the typed status and its reason); see docs/reward.md for the policies and the numeric rule.

Layer (docs/architecture.md): beside ``score`` (neither imports the other), above ``readers``. May import the
layers below; a dataset's own rule or runner is reached through its record, never by importing ``datasets``.
"""

from __future__ import annotations

from .core import MAX_COMPLETION_CHARS, score_completion
from .gold import GoldRecord, GoldRecordError
from .model import DEFAULT_POLICY, RECORD_KEYS, Policy, RewardResult, RewardStatus

__all__ = ["score_completion", "GoldRecord", "GoldRecordError", "Policy", "RewardResult", "RewardStatus",
           "DEFAULT_POLICY", "RECORD_KEYS", "MAX_COMPLETION_CHARS"]
