"""An OpenRLHF reward function file: ``--remote_rm_url /path/to/progexec/integrations/openrlhf.py``.

OpenRLHF loads ``reward_func(queries, prompts, labels)`` from the file and calls it from a worker
thread; ``queries`` are prompt plus response decoded with special tokens kept, ``labels`` the
dataset's label column. Each label is the gold record as a JSON object string (a label that is
not a JSON object is taken as the gold answer itself). The rules — the response is the query after
its prompt, without trailing special tokens; rewards and scores one float per query; extra_logs
the batch means — are :mod:`progexec.reward.remote`'s, shared with ``progexec serve``, so the
file and the server give the same rewards. Where the server answers an unusable item with its
typed status, this function raises :class:`~progexec.integrations._gold.AdapterInputError` naming
the sample (an unknown ``policy``, a label that is no usable gold record, a query that is not
text): OpenRLHF's contract has no "does not apply", and a silent 0 would be learnt from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

# Absolute imports: OpenRLHF loads this file by path as a top-level module, not as part of a package.
from progexec.integrations._gold import AdapterInputError, checked_policy, usable
from progexec.reward.remote import label_gold, response_text, rewards_record, score_query
from progexec.plural import plural

__all__ = ["reward_func", "response_text", "label_gold"]


def _check(queries: Sequence[Any], prompts: Sequence[Any], labels: Sequence[Any]) -> None:
    if not len(queries) == len(prompts) == len(labels):
        raise AdapterInputError(f"reward_func: {plural(len(queries), 'query')}, {plural(len(prompts), 'prompt')}, "
                                f"{plural(len(labels), 'label')}")


def reward_func(queries: Sequence[Any], prompts: Sequence[Any], labels: Sequence[Any],
                **kwargs: Any) -> dict[str, Any]:
    """OpenRLHF's reward function; a ``policy`` keyword overrides each label's policy."""
    _check(queries, prompts, labels)
    policy = checked_policy(kwargs.get("policy"), "reward_func: the policy keyword")
    results = [usable(score_query(query, prompt, label, policy), f"reward_func: sample {index} (label {label!r:.80})")
               for index, (query, prompt, label) in enumerate(zip(queries, prompts, labels))]
    return rewards_record(results)
