"""An OpenRLHF reward function file: ``--remote_rm_url /path/to/progexec/integrations/openrlhf.py``.

OpenRLHF loads ``reward_func(queries, prompts, labels)`` from the file and calls it from a worker
thread; ``queries`` are prompt plus response decoded with special tokens kept, ``labels`` the
dataset's label column. Each label is the gold record as a JSON object string (a label that is
not a JSON object is taken as the gold answer itself). The response is the query after its prompt,
with trailing special tokens (``<|im_end|>``, ``</s>``, ``<eos>``...) removed. The return is
OpenRLHF's shape: ``rewards`` and ``scores`` (one float per query) and ``extra_logs`` (batch means).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

# Absolute imports: OpenRLHF loads this file by path as a top-level module, not as part of a package.
from progexec.integrations._gold import AdapterInputError
from progexec.reward import RewardResult, score_completion

MAX_TRAILING_TOKENS = 16
# bound: MAX_TRAILING_TOKENS = 16 — special tokens stripped from the end of a response, at most
_SPECIAL_TOKEN = re.compile(r"(?:<\|[A-Za-z0-9_.:-]{1,40}\|>|</s>|<eos>|<end_of_turn>|<pad>)\Z")
_TAIL = 48  # longest special token the pattern above can match, with room


def response_text(query: str, prompt: Any) -> str:
    """The model's response inside ``query``: after ``prompt`` when the query starts with it,
    without trailing special tokens."""
    text = query[len(prompt):] if isinstance(prompt, str) and prompt and query.startswith(prompt) else query
    for _ in range(MAX_TRAILING_TOKENS):
        text = text.rstrip()
        tail = text[-_TAIL:]
        match = _SPECIAL_TOKEN.search(tail)
        if match is None:
            break
        text = text[:len(text) - len(tail) + match.start()]
    return text


def label_gold(label: Any) -> Any:
    """The gold a label stands for: its JSON object text as is, any other label as the answer."""
    if isinstance(label, str) and not label.lstrip().startswith("{"):
        return {"answer": label}
    return label


def results(queries: Sequence[Any], prompts: Sequence[Any], labels: Sequence[Any],
            policy: str | None = None) -> list[RewardResult]:
    """The typed result of every query, in order."""
    if not len(queries) == len(prompts) == len(labels):
        raise AdapterInputError(f"reward_func: {len(queries)} queries, {len(prompts)} prompts, "
                                f"{len(labels)} labels")
    return [score_completion(response_text(query, prompt) if isinstance(query, str) else query,
                             label_gold(label), policy=policy)
            for query, prompt, label in zip(queries, prompts, labels)]


def reward_func(queries: Sequence[Any], prompts: Sequence[Any], labels: Sequence[Any],
                **kwargs: Any) -> dict[str, Any]:
    """OpenRLHF's reward function; a ``policy`` keyword overrides each label's policy."""
    judged = results(queries, prompts, labels, kwargs.get("policy"))
    scores = [result.score for result in judged]
    count = max(len(judged), 1)
    return {
        "rewards": scores,
        "scores": scores,
        "extra_logs": {
            "progexec_correct": sum(result.correct for result in judged) / count,
            "progexec_format_ok": sum(result.format_ok for result in judged) / count,
        },
    }
