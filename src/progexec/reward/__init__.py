"""progexec as a reward function: judge a model's completion against a FinQA, ConvFinQA or MathQA gold.

``score_completion(completion, gold, policy=...)`` returns a :class:`RewardResult` (score 1.0 or
0.0, the typed status and its reason); see docs/reward.md for the policies and the numeric rule.

``score_batch(lines_or_records, policy=...)`` scores a batch as ``progexec reward`` does (a picklable function
for Ray tasks and trainers' workers; docs/reward-integrations.md).

Layer (docs/architecture.md): beside ``score`` (neither imports the other), above ``readers``. May import the
layers below; a dataset's own rule or runner is reached through its record, never by importing ``datasets``.
"""

from __future__ import annotations

from typing import Any

from .core import MAX_COMPLETION_CHARS, score_completion
from .gold import GoldRecord, GoldRecordError
from .model import DEFAULT_POLICY, RECORD_KEYS, Policy, RewardResult, RewardStatus

__all__ = ["score_completion", "score_batch", "GoldRecord", "GoldRecordError", "Policy", "RewardResult", "RewardStatus",
           "DEFAULT_POLICY", "RECORD_KEYS", "MAX_COMPLETION_CHARS"]


def __getattr__(name: str) -> Any:
    """``score_batch`` is imported on first use (the batch module reads records; a single score needs none of it)."""
    if name == "score_batch":
        from .batch import score_batch

        return score_batch
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
