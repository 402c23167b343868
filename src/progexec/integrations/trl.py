"""TRL reward functions: ``ProgexecReward(policy=...)`` for ``GRPOTrainer(reward_funcs=[...])``, and
``AsyncProgexecReward`` whose ``__call__`` is ``async`` (TRL gathers such rewards on its event loop; the
work runs on the process's scoring thread, :mod:`progexec.integrations.offload`, so the loop stays free).

TRL calls it with ``prompts=``, ``completions=`` and ``completion_ids=`` (one entry per
completion) and every other dataset column as a keyword list; the gold columns read here are
``answer``, ``program``, ``table``, ``dialect``, ``options``, ``problem`` and ``policy``. A
completion is a string or a conversation (``[{"role": "assistant", "content": ...}]``: the last
assistant message is judged). The result is one float per completion, 1.0 or 0.0, or None for a
row whose answer and program are both empty (TRL's contract for a reward that does not apply to a row,
as in a dataset mixing tasks). Everything else that cannot be judged raises InputError
naming it: an unknown policy (at construction), a batch without an ``answer`` or ``program``
column (on the first call; the error lists the columns the batch has), a row whose gold is
unusable or whose ``policy`` is unknown, a completion that is not text, ``completions`` missing,
empty or not a list, ``prompts`` not one per completion; the message names the column and the row
(``answer[2]: ...``), as ``progexec serve`` and the other adapters do. ``answer_column`` names
the dataset's answer column when it is not ``answer``. An instance holds only its settings, so
it pickles (async GRPO).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..reward import Policy, RewardResult, RewardStatus, score_completion
from ._gold import GOLD_KEYS, AdapterInputError, batch_columns, checked_policy, column, gold_mapping, usable
from .offload import offloaded
from ..core.errors import InputError

TRL_COLUMNS = frozenset({"prompts", "completions", "completion_ids", "trainer_state", "log_extra", "log_metric"})
"""Keywords TRL passes that are not dataset columns (left out of the error that lists the columns)."""


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


class _ColumnsReward:
    """Judge each completion against its row's gold columns; the constructor's ``policy`` overrides
    the ``policy`` column, and with neither the reward core's default (numeric) applies."""

    def __init__(self, policy: Policy | str | None = None, name: str = "progexec_reward",
                 answer_column: str = "answer") -> None:
        chosen = checked_policy(policy, type(self).__name__)
        self.policy = None if chosen is None else chosen.value
        self.answer_column = answer_column
        self.__name__ = name  # TRL labels the reward's logged columns with it

    def results(self, completions: Sequence[Any], columns: Mapping[str, Any]) -> list[RewardResult | None]:
        """The typed result of every completion, in order (None: the row has no gold at all)."""
        count = len(completions)
        if self.answer_column not in columns and "program" not in columns:
            seen = sorted(key for key in columns if key not in TRL_COLUMNS)
            raise InputError(f"{self.__name__}: the batch has no gold column {self.answer_column!r} (nor "
                                    f"'program'); its columns are {seen}. Name the answer column with "
                                    "ProgexecReward(answer_column=...) or rename it")
        gold_columns = {key: column(columns, self.answer_column if key == "answer" else key, count,
                                    self.__name__)
                        for key in GOLD_KEYS}
        out: list[RewardResult | None] = []
        for index, completion in enumerate(completions):
            row = {key: values[index] for key, values in gold_columns.items()}
            gold = gold_mapping(None, row)
            if "answer" not in gold and "program" not in gold:
                out.append(None)  # no answer and no program in this row: the reward does not apply
                continue
            text = completion_text(completion)
            if text is None:
                raise AdapterInputError(f"{self.__name__}: completions[{index}]: neither text nor a conversation "
                                        f"with an assistant message ({type(completion).__name__})")
            if "policy" in gold:
                checked_policy(gold["policy"], f"{self.__name__}: policy[{index}]")
            result = score_completion(text, gold, policy=self.policy)
            field = "completions" if result.status is RewardStatus.BAD_INPUT \
                else self.answer_column if "answer" in gold else "program"
            out.append(usable(result, f"{self.__name__}: {field}[{index}]"))
        return out

    def checked(self, prompts: Sequence[Any] | None, completions: Sequence[Any] | None) -> Sequence[Any]:
        """The completions, once the batch's shape is checked (AdapterInputError naming the column and row)."""
        named = [("completions", completions)] + ([("prompts", prompts)] if prompts is not None else [])
        return batch_columns(self.__name__, named, ("completion", "completions"))[0]

    def scores(self, results: list[RewardResult | None], columns: Mapping[str, Any]) -> list[float | None]:
        """The rewards TRL wants, one per completion; each status is logged when TRL passes ``log_extra``."""
        log_extra: Callable[[str, list[Any]], None] | None = columns.get("log_extra")
        if callable(log_extra):
            log_extra(f"{self.__name__}_status", ["no_gold" if result is None else result.status.label
                                                  for result in results])
        return [None if result is None else result.score for result in results]


class ProgexecReward(_ColumnsReward):
    """The reward TRL calls inline on its training thread (see :class:`AsyncProgexecReward` for its event loop)."""

    def __call__(self, prompts: Sequence[Any] | None = None, completions: Sequence[Any] | None = None,
                 completion_ids: Sequence[Any] | None = None, **columns: Any) -> list[float | None]:
        return self.scores(self.results(self.checked(prompts, completions), columns), columns)


class AsyncProgexecReward(_ColumnsReward):
    """The same reward as :class:`ProgexecReward`, awaited: TRL runs ``async`` rewards concurrently on its event
    loop, and the batch is judged on the process's scoring thread meanwhile (the same results, the same errors)."""

    async def __call__(self, prompts: Sequence[Any] | None = None, completions: Sequence[Any] | None = None,
                       completion_ids: Sequence[Any] | None = None, **columns: Any) -> list[float | None]:
        results = await offloaded(self.results, self.checked(prompts, completions), columns)
        return self.scores(results, columns)
