"""OpenRLHF's remote-reward shape: ``(queries, prompts, labels)`` in, ``{"rewards", "scores", "extra_logs"}`` out.

OpenRLHF sends each query as the decoded prompt *and* response (special tokens kept), the prompt,
and the label — here the gold record as a JSON object string (any other label text is the gold
answer itself). The response is the query after its prompt, with trailing special tokens removed.
``extra_logs`` holds the batch means ``progexec_correct`` and ``progexec_format_ok`` (OpenRLHF
turns each value into a one-element tensor, as it does a reward). The same rules as
:mod:`progexec.integrations.openrlhf`, so the server and the reward file give the same rewards,
and one check (:func:`judge_samples`) refuses the same samples in both, naming the field and
position (``labels[2]: ...``): a sample that cannot be judged is never a silent 0.
Read from OpenRLHF/OpenRLHF (openrlhf/utils/agent.py, openrlhf/cli/serve_rm.py, commit 3c3be62).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core.limits import current, DEFAULT_LIMITS
from ..core.errors import InputError
from .core import score_completion
from .model import Policy, RewardResult, RewardStatus

_SPECIAL_TOKEN = re.compile(r"(?:<\|[A-Za-z0-9_.:-]{1,40}\|>|</s>|<eos>|<end_of_turn>|<pad>)\Z")
_TAIL = DEFAULT_LIMITS.trailing_token_search_chars
"""Only this many final characters are searched for a special token, so stripping is bounded."""


def response_text(query: str, prompt: object) -> str:
    """The model's response inside an OpenRLHF query: after the prompt when the query starts with
    it, without trailing special tokens (at most ``max_trailing_tokens`` (:class:`~progexec.limits.Limits`))."""
    text = query[len(prompt):] if isinstance(prompt, str) and prompt and query.startswith(prompt) else query
    for _ in range(current().max_trailing_tokens):
        text = text.rstrip()
        tail = text[-current().trailing_token_search_chars:]
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


def openrlhf_rewards(queries: object, prompts: object, labels: object, policy: Policy | str | None = None,
                     problem: Callable[[object], str | None] | None = None) -> dict[str, Any]:
    """The OpenRLHF response for one request (plain lists; OpenRLHF's own reward files return tensors);
    :class:`InputError` when a sample cannot be judged (see :func:`judge_samples`)."""
    return rewards_record(judge_samples(queries, prompts, labels, policy, problem))


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


FIELDS = ("query", "prompts", "labels")
"""The three lists of an OpenRLHF sample batch, named as in the ``/get_reward`` body."""

UNJUDGEABLE = frozenset({RewardStatus.BAD_GOLD, RewardStatus.BAD_POLICY, RewardStatus.BAD_INPUT})
"""Statuses that mean a sample could not be judged at all: refused, never a silent 0."""


def check_payload(body: object) -> tuple[list[object], list[object], list[object]]:
    """The ``query``, ``prompts`` and ``labels`` of a ``/get_reward`` body, shape-checked by :func:`check_lists`."""
    if not isinstance(body, Mapping):
        raise InputError("the body must be a JSON object with query, prompts and labels")
    return check_lists(body.get("query"), body.get("prompts"), body.get("labels"))


def check_lists(queries: object, prompts: object, labels: object) -> tuple[list[object], list[object], list[object]]:
    """The three lists of an OpenRLHF batch, or :class:`InputError` naming the field (see
    :func:`check_columns`). The entries are checked by :func:`check_sample`."""
    query_list, prompt_list, label_list = check_columns(list(zip(FIELDS, (queries, prompts, labels))), ("query", "queries"))
    return query_list, prompt_list, label_list


def check_columns(named: list[tuple[str, object]], unit: tuple[str, str]) -> list[list[object]]:
    """The named batch columns as lists, or :class:`InputError` naming the field: each present, a list
    (or a sequence such as a numpy array; not text or an object), not empty, and as long as the first
    (``unit``, singular and plural, names what the first one counts in the error). The one shape check of every reward entry point."""
    lists: list[list[object]] = []
    for name, value in named:
        if value is None:
            raise InputError(f"{name}: missing (one entry per sample is required)")
        if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__len__") \
                or not hasattr(value, "__getitem__"):
            raise InputError(f"{name}: must be a list, got {_kind(value)}")
        sequence: Any = value.tolist() if hasattr(value, "tolist") else value  # numpy: plain Python values
        values = list(sequence)
        if not values:
            raise InputError(f"{name}: empty (no samples to judge)")
        if lists and len(values) != len(lists[0]):
            raise InputError(f"{name}: {_count(len(values), 'entry', 'entries')} for "
                               f"{_count(len(lists[0]), *unit)} "
                               "(one per sample)")
        lists.append(values)
    return lists


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def check_sample(index: int, query: object, prompt: object, label: object) -> None:
    """Raise :class:`InputError` naming ``field[index]`` when a sample's entries are of the wrong kind:
    the query and the prompt text (an empty response is judged: no answer), the label non-empty text or a JSON object."""
    if not isinstance(query, str):
        raise InputError(f"query[{index}]: must be text (the prompt and the response), got {_kind(query)}")
    if not isinstance(prompt, str):
        raise InputError(f"prompts[{index}]: must be text, got {_kind(prompt)}")
    if not (isinstance(label, Mapping) or isinstance(label, str) and label.strip()):
        raise InputError(f"labels[{index}]: must be a gold record (a JSON object or its text) or the gold "
                           f"answer as text, got {_kind(label)}")


def judge_samples(queries: object, prompts: object, labels: object, policy: Policy | str | None = None,
                  problem: Callable[[object], str | None] | None = None) -> list[RewardResult]:
    """Every sample of an OpenRLHF batch judged, in order, or :class:`InputError` naming the first
    one that cannot be judged (``labels[2]: the gold record is unusable: ...``). The one check of
    ``progexec serve``'s ``/get_reward`` and the OpenRLHF reward file, so both refuse alike; ``problem``
    (the server's) names what makes a decoded value unusable (a lone surrogate, a huge number)."""
    query_list, prompt_list, label_list = check_lists(queries, prompts, labels)
    results = []
    for index, (query, prompt, label) in enumerate(zip(query_list, prompt_list, label_list)):
        for name, part in zip(FIELDS, (query, prompt, label)):
            if problem is not None and (reason := problem(part)) is not None:
                raise InputError(f"{name}[{index}]: {reason}")
        check_sample(index, query, prompt, label)
        result = score_query(query, prompt, label, policy)
        if result.status in UNJUDGEABLE:
            field = "query" if result.status is RewardStatus.BAD_INPUT else "labels"
            raise InputError(f"{field}[{index}]: {result.reason}")
        results.append(result)
    return results


def _kind(value: object) -> str:
    """How an unusable entry is named in an error: its JSON kind, and the text when it is short."""
    if value is None:
        return "null"
    if isinstance(value, str):
        return f"the text {value[:40]!r}"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "a list"
    return type(value).__name__
