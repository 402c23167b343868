"""OpenRLHF's remote-reward shape: ``(queries, prompts, labels)`` in, ``{"rewards", "scores", "extra_logs"}`` out.

OpenRLHF sends each query as the decoded prompt *and* response (special tokens kept), the prompt,
and the label — here the gold record as a JSON object string (any other label text is the gold
answer itself). The response is the query after its prompt, with trailing special tokens removed.
``extra_logs`` holds the batch means ``progexec_correct`` and ``progexec_format_ok`` (OpenRLHF
turns each value into a one-element tensor, as it does a reward). The same rules as
:mod:`progexec.integrations.openrlhf`, so the server and the reward file give the same rewards.
Read from OpenRLHF/OpenRLHF (openrlhf/utils/agent.py, openrlhf/cli/serve_rm.py, commit 3c3be62).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.limits import current
from ..core.errors import InputError
from .core import score_completion
from .model import Policy, RewardResult

_SPECIAL_TOKEN = re.compile(r"(?:<\|[A-Za-z0-9_.:-]{1,40}\|>|</s>|<eos>|<end_of_turn>|<pad>)\Z")
_TAIL = 48
"""Only this many final characters are searched for a special token, so stripping is bounded."""


class PayloadError(InputError):
    """A request body that is not OpenRLHF's shape; the message names the field."""


def response_text(query: str, prompt: object) -> str:
    """The model's response inside an OpenRLHF query: after the prompt when the query starts with
    it, without trailing special tokens (at most ``max_trailing_tokens`` (:class:`~progexec.limits.Limits`))."""
    text = query[len(prompt):] if isinstance(prompt, str) and prompt and query.startswith(prompt) else query
    for _ in range(current().max_trailing_tokens):
        text = text.rstrip()
        tail = text[-_TAIL:]
        match = _SPECIAL_TOKEN.search(tail)
        if match is None:
            break
        text = text[:len(text) - len(tail) + match.start()]
    return text


def label_gold(label: object) -> object:
    """The gold a label stands for: a JSON object text (or a mapping) as is, any other text as the answer."""
    if isinstance(label, str) and not label.lstrip().startswith("{"):
        return {"answer": label}
    return label


def score_query(query: object, prompt: object, label: object, policy: Policy | str | None = None) -> RewardResult:
    """One OpenRLHF sample judged; never raises."""
    completion = response_text(query, prompt) if isinstance(query, str) else query
    # a non-string query or label reaches score_completion, whose run-time checks make it bad_input / bad_gold
    return score_completion(completion, label_gold(label), policy=policy)  # type: ignore[arg-type]


def openrlhf_rewards(queries: Sequence[object], prompts: Sequence[object] | None, labels: Sequence[object] | None,
                     policy: Policy | str | None = None) -> dict[str, Any]:
    """The OpenRLHF response for one request (plain lists; OpenRLHF's own reward files return tensors)."""
    results = [score_query(query, _at(prompts, index), _at(labels, index), policy)
               for index, query in enumerate(queries)]
    return rewards_record(results)


def rewards_record(results: Sequence[RewardResult]) -> dict[str, Any]:
    """OpenRLHF's ``{"rewards", "scores", "extra_logs"}`` for judged samples, in order."""
    scores = [result.score for result in results]
    count = max(len(results), 1)
    return {
        "rewards": scores,
        "scores": list(scores),
        "extra_logs": {
            "progexec_correct": sum(result.correct for result in results) / count,
            "progexec_format_ok": sum(result.format_ok for result in results) / count,
        },
    }


def check_payload(body: object) -> tuple[list[object], list[object] | None, list[object] | None]:
    """Validate a ``/get_reward`` body: ``query`` a list, ``prompts``/``labels`` lists of the same length or absent."""
    if not isinstance(body, Mapping):
        raise PayloadError("the body must be a JSON object with query, prompts and labels")
    queries = body.get("query")
    if not isinstance(queries, list):
        raise PayloadError("query must be a list of strings")
    lists: list[list[object] | None] = []
    for key in ("prompts", "labels"):
        value = body.get(key)
        if value is not None and (not isinstance(value, list) or len(value) != len(queries)):
            raise PayloadError(f"{key} must be a list as long as query ({len(queries)})")
        lists.append(value)
    return queries, lists[0], lists[1]


def _at(values: Sequence[object] | None, index: int) -> object:
    return None if values is None else values[index]
