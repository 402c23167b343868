"""``score_completion``: one completion against one gold record, under one policy, to a typed result.

It never raises (a bad gold, policy or completion is a typed status), never hangs (every size is
checked before work: the completion's length here, program sizes in :mod:`.programs`, spans in
:mod:`.extract`), keeps no mutable state between calls, and evaluates nothing as Python.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping
from typing import Any

from ..core.registry import reward_rules
from ..core.limits import DEFAULT_LIMITS, current
from .gold import GoldRecord, parse_policy
from .goldvalue import ResolvedGold, resolve
from .model import DEFAULT_POLICY, Policy, RewardResult, RewardStatus, make_result
from .policies import helm, numeric, official
from ..core.errors import InputError

MAX_COMPLETION_CHARS = DEFAULT_LIMITS.max_completion_chars
"""The default (``max_completion_chars``): a longer completion is too_large and is not read at all."""

_POLICIES: dict[Policy, Callable[[str, GoldRecord, ResolvedGold], RewardResult]] = {
    Policy.OFFICIAL: official, Policy.NUMERIC: numeric, Policy.HELM: helm,
}


def score_completion(completion: str, gold: GoldRecord | Mapping[str, Any] | str, *,
                     policy: Policy | str | None = None) -> RewardResult:
    """Judge ``completion`` against ``gold`` (a GoldRecord, its dict, or its JSON text).

    ``policy`` (a Policy or its name) overrides the record's ``policy``; with neither, numeric.
    """
    chosen = DEFAULT_POLICY
    try:
        own = _own_rule(gold)
        if own is not None:  # a dataset that judges answers by its own rule (TAT-QA, FinanceMath, DocMath-Eval)
            rule, record_of_own = own
            return rule(completion, record_of_own, policy)
        if policy is not None:
            try:
                chosen = parse_policy(policy)
            except InputError:
                return make_result(RewardStatus.BAD_POLICY, chosen, name=str(policy)[:100])
        try:
            record = gold if isinstance(gold, GoldRecord) else GoldRecord.from_mapping(gold)
        except InputError as error:
            return make_result(RewardStatus.BAD_GOLD, chosen, detail=str(error))
        if policy is None and record.policy is not None:
            chosen = record.policy
        return _score(completion, record, chosen)
    except Exception as error:  # the backstop of the never-raises promise: a bug becomes a typed status
        return make_result(RewardStatus.INTERNAL_ERROR, chosen, detail=f"{type(error).__name__}: {error}"[:300])


def _score(completion: object, record: GoldRecord, policy: Policy) -> RewardResult:
    if not isinstance(completion, str):
        return make_result(RewardStatus.BAD_INPUT, policy,
                           detail=f"the completion must be a string, got {type(completion).__name__}")
    if len(completion) > (bound := current().max_completion_chars):
        return make_result(RewardStatus.TOO_LARGE, policy, what="the completion", size=len(completion),
                           limit=bound)
    resolved = resolve(record)
    if resolved.value is None:
        return make_result(RewardStatus.BAD_GOLD, policy, detail=resolved.error)
    rule = official if policy is Policy.OFFICIAL else numeric if policy is Policy.NUMERIC else _POLICIES[policy]
    return rule(completion, record, resolved)  # told by identity: an enum member's hash is a Python-level call


_OWN_RULES: dict[str, str] = {}


def own_rules() -> dict[str, str]:
    """Gold ``dialect`` -> ``module:function`` of the datasets with their own rule
    (:func:`progexec.core.registry.reward_rules`), read once."""
    if not _OWN_RULES:
        _OWN_RULES.update(reward_rules())
    return _OWN_RULES


def _own_rule(gold: object) -> tuple[Callable[..., RewardResult], dict[str, Any]] | None:
    """The own rule of the gold's dataset and the gold as a mapping, or None for a program-dialect gold. JSON
    text is decoded only when it names such a dataset, so the common case costs one dictionary look-up."""
    if isinstance(gold, GoldRecord):  # parsed already (a program dialect's): the common case, told first
        return None
    if isinstance(gold, Mapping):
        record: object = gold
    elif isinstance(gold, str) and any(f'"{name}"' in gold for name in own_rules()):
        try:
            record = json.loads(gold)
        except ValueError:
            return None
    else:
        return None
    name = record.get("dialect") if isinstance(record, Mapping) else None
    where = own_rules().get(name) if isinstance(name, str) else None
    if where is None:
        return None
    module, _, function = where.partition(":")
    rule: Callable[..., RewardResult] = getattr(importlib.import_module(module), function)
    return rule, dict(record)  # type: ignore[call-overload]
