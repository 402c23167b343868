"""A TRL reward function: ``ProgexecReward(policy=...)`` for ``GRPOTrainer(reward_funcs=[...])``.

TRL calls it with ``prompts=``, ``completions=`` and ``completion_ids=`` (one entry per
completion) and every other dataset column as a keyword list; the gold columns read here are
``answer``, ``program``, ``table``, ``dialect``, ``options``, ``problem`` and ``policy``. A
completion is a string or a conversation (``[{"role": "assistant", "content": ...}]``: the last
assistant message is judged). The result is one float per completion, 1.0 or 0.0, or None where
the reward does not apply (the row's gold is unusable or its policy unknown), which TRL treats as
"no reward from this function". The instance holds only its policy, so it pickles (async GRPO).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..reward import Policy, RewardResult, RewardStatus, score_completion
from ._gold import GOLD_KEYS, column, gold_mapping

NOT_APPLICABLE = frozenset({RewardStatus.BAD_GOLD, RewardStatus.BAD_POLICY})
"""Statuses that give None (the row is not this reward's to judge) rather than 0.0."""


def completion_text(completion: Any) -> str | None:
    """The text to judge: a string as is; in a conversation, the last assistant message's text."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Mapping):
        completion = [completion]
    if not isinstance(completion, Sequence):
        return None
    for message in reversed(completion):
        if isinstance(message, Mapping) and message.get("role", "assistant") == "assistant":
            return _content_text(message.get("content"))
    return None


def _content_text(content: Any) -> str | None:
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):  # multimodal parts: [{"type": "text", "text": ...}, ...]
        parts = [part.get("text") for part in content if isinstance(part, Mapping) and part.get("type") == "text"]
        texts = [part for part in parts if isinstance(part, str)]
        if texts and len(texts) == len(parts):
            return "".join(texts)
    return None


class ProgexecReward:
    """Judge each completion against its row's gold columns; the constructor's ``policy`` overrides
    the ``policy`` column, and with neither the reward core's default (numeric) applies."""

    def __init__(self, policy: Policy | str | None = None, name: str = "progexec_reward") -> None:
        self.policy = policy.value if isinstance(policy, Policy) else policy
        self.__name__ = name  # TRL labels the reward's logged columns with it

    def results(self, completions: Sequence[Any], columns: Mapping[str, Any]) -> list[RewardResult]:
        """The typed result of every completion, in order."""
        count = len(completions)
        gold_columns = {key: column(columns, key, count) for key in GOLD_KEYS}
        out = []
        for index, completion in enumerate(completions):
            row = {key: values[index] for key, values in gold_columns.items()}
            text = completion_text(completion)
            out.append(score_completion(completion if text is None else text, gold_mapping(None, row),
                                        policy=self.policy))
        return out

    def __call__(self, prompts: Sequence[Any] | None = None, completions: Sequence[Any] | None = None,
                 completion_ids: Sequence[Any] | None = None, **columns: Any) -> list[float | None]:
        results = self.results(completions or [], columns)
        log_extra: Callable[[str, list[Any]], None] | None = columns.get("log_extra")
        if callable(log_extra):
            log_extra(f"{self.__name__}_status", [result.status.label for result in results])
        return [None if result.status in NOT_APPLICABLE else result.score for result in results]
