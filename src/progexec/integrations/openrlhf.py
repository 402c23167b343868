"""An OpenRLHF reward function file: ``--remote_rm_url /path/to/progexec/integrations/openrlhf.py``.

OpenRLHF loads ``reward_func(queries, prompts, labels)`` from the file and calls it from a worker
thread; ``queries`` are prompt plus response decoded with special tokens kept, ``labels`` the
dataset's label column. Each label is the gold record as a JSON object string (a label that is
not a JSON object is taken as the gold answer itself). The rules — the response is the query after
its prompt, without trailing special tokens; rewards and scores one float per query; extra_logs
the batch means — are :mod:`progexec.reward.remote`'s, shared with ``progexec serve``, so the
file and the server give the same rewards. Where the server answers 400, this function raises
:class:`~progexec.integrations._gold.AdapterInputError` with the same message, naming the field
and the position (``labels[2]: ...``): missing, empty or non-list ``queries``/``prompts``/``labels``,
lists of different lengths, a query that is not text, a label that is no usable gold record, an
unknown ``policy``. OpenRLHF's contract has no "does not apply", and a silent 0 would be learnt from.
"""

from __future__ import annotations

from typing import Any

# Absolute imports: OpenRLHF loads this file by path as a top-level module, not as part of a package.
from progexec.integrations._gold import AdapterInputError, checked_policy
from progexec.reward.remote import judge_samples, label_gold, response_text, rewards_record
from progexec.core.errors import InputError
from progexec.reward.request_json import problem

__all__ = ["reward_func", "response_text", "label_gold"]


def reward_func(queries: Any = None, prompts: Any = None, labels: Any = None, **kwargs: Any) -> dict[str, Any]:
    """OpenRLHF's reward function; a ``policy`` keyword overrides each label's policy."""
    policy = checked_policy(kwargs.get("policy"), "reward_func: policy")
    try:
        results = judge_samples(queries, prompts, labels, policy, problem)
    except InputError as error:
        raise AdapterInputError(f"reward_func: {error}") from None
    return rewards_record(results)
