"""OpenRLHF's remote-reward shape: ``(queries, prompts, labels)`` in, ``{"rewards", "scores", "extra_logs"}`` out.

OpenRLHF sends each query as the decoded prompt *and* response (special tokens kept), the prompt,
and the label — here the gold record as a JSON string. The response is the query after its
prompt, with trailing end-of-sequence tokens removed. ``extra_logs`` holds only numbers per item
(OpenRLHF turns every value into a tensor): ``correct`` and ``format_ok`` as 1.0/0.0.
Read from OpenRLHF/OpenRLHF (openrlhf/utils/agent.py, openrlhf/cli/serve_rm.py, commit 3c3be62).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ProgexecError
from .core import score_completion
from .model import Policy, RewardResult

_TRAILING_SPECIAL = re.compile(r"(?:\s*(?:<\|[A-Za-z0-9_]{1,40}\|>|</s>|<eos>|<end_of_turn>))+\s*$")


class PayloadError(ProgexecError, ValueError):
    """A request body that is not OpenRLHF's shape; the message names the field."""


def response_text(query: str, prompt: object) -> str:
    """The model's response inside an OpenRLHF query: after the prompt, end-of-sequence tokens removed."""
    if isinstance(prompt, str) and prompt and prompt in query:
        query = query[query.index(prompt) + len(prompt):]
    return _TRAILING_SPECIAL.sub("", query)


def label_gold(label: object) -> Mapping[str, Any] | str:
    """A label as a gold record: its JSON object, or a bare JSON scalar / plain text taken as the answer."""
    if isinstance(label, Mapping):
        return label
    if not isinstance(label, str):
        return {"answer": label} if isinstance(label, (int, float, bool)) else json.dumps(label)
    stripped = label.strip()
    if stripped.startswith("{"):
        return label
    try:
        value = json.loads(stripped)
    except (json.JSONDecodeError, RecursionError):
        return {"answer": label}
    return {"answer": value} if isinstance(value, (str, int, float, bool)) else label


def score_query(query: object, prompt: object, label: object, policy: Policy | str | None = None) -> RewardResult:
    """One OpenRLHF sample judged; never raises."""
    completion = response_text(query, prompt) if isinstance(query, str) else query
    # a non-string query reaches score_completion, whose run-time check makes it bad_input
    return score_completion(completion, label_gold(label), policy=policy)  # type: ignore[arg-type]


def openrlhf_rewards(queries: Sequence[object], prompts: Sequence[object] | None, labels: Sequence[object] | None,
                     policy: Policy | str | None = None) -> dict[str, Any]:
    """The OpenRLHF response for one request (plain lists; OpenRLHF's own reward files return tensors)."""
    results = [score_query(query, _at(prompts, index), _at(labels, index), policy)
               for index, query in enumerate(queries)]
    scores = [result.score for result in results]
    return {
        "rewards": scores,
        "scores": list(scores),
        "extra_logs": {
            "correct": [1.0 if result.correct else 0.0 for result in results],
            "format_ok": [1.0 if result.format_ok else 0.0 for result in results],
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
