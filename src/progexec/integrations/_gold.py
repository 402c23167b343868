"""The gold record an adapter hands to the reward core, from the pieces a framework passes around."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.errors import InputError
from ..reward import Policy, RewardResult
from ..reward.gold import parse_policy
from ..reward.remote import UNJUDGEABLE, check_columns

GOLD_KEYS = ("answer", "program", "table", "dialect", "options", "policy", "problem", "unit", "scale", "answer_type",
             "python_solution")
"""The keys of a gold record (see :class:`progexec.reward.GoldRecord`); others are not gold."""


def gold_mapping(answer: Any, extra: Mapping[str, Any] | None) -> dict[str, Any]:
    """The gold keys of ``extra`` (absent or None ones left out), with ``answer`` taking precedence
    over an ``answer`` in ``extra`` when it is not None."""
    gold = {key: extra[key] for key in GOLD_KEYS if extra is not None and extra.get(key) is not None}
    if "table" in gold:
        gold["table"] = _plain_table(gold["table"])
    if answer is not None:
        gold["answer"] = answer
    return gold


def _plain_table(table: Any) -> Any:
    """A table that came through numpy or Arrow (arrays of arrays) as lists of lists; others as given."""
    if isinstance(table, list) and all(isinstance(row, list) for row in table):
        return table
    if hasattr(table, "tolist"):
        table = table.tolist()
    if isinstance(table, (list, tuple)):
        return [row.tolist() if hasattr(row, "tolist") else list(row) if isinstance(row, tuple) else row
                for row in table]
    return table


AdapterInputError = InputError
"""The documented name of an adapter's refusal (an :class:`~progexec.errors.InputError`; the message says what and where)."""


UNUSABLE = UNJUDGEABLE
"""Statuses an adapter raises on (AdapterInputError) instead of handing the trainer a silent 0: the ones
``progexec serve``'s ``/get_reward`` refuses (:data:`progexec.reward.remote.UNJUDGEABLE`)."""


def checked_policy(policy: Policy | str | None, where: str) -> Policy | None:
    """The adapter's policy setting, or InputError naming it and the known ones."""
    if policy is None:
        return None
    try:
        return parse_policy(policy)
    except InputError as error:
        raise InputError(f"{where}: {error}") from None


def usable(result: RewardResult, where: str) -> RewardResult:
    """``result``, or InputError when the item could not be judged at all (see :data:`UNUSABLE`)."""
    if result.status in UNUSABLE:
        raise InputError(f"{where}: {result.reason}")
    return result


def column(columns: Mapping[str, Any], key: str, count: int, where: str) -> Sequence[Any]:
    """Dataset column ``key`` with one entry per completion (all None when absent); AdapterInputError
    naming ``where`` and the column otherwise."""
    values = columns.get(key)
    if values is None:
        return [None] * count
    if isinstance(values, (str, bytes, Mapping)) or not hasattr(values, "__getitem__") \
            or not hasattr(values, "__len__") or len(values) != count:
        size = len(values) if hasattr(values, "__len__") else type(values).__name__
        raise AdapterInputError(f"{where}: {key}: column {key!r} must hold one entry per completion ({count}), got {size}")
    return values  # type: ignore[no-any-return]


def batch_columns(where: str, named: Sequence[tuple[str, Any]], unit: tuple[str, str]) -> list[list[Any]]:
    """A batch call's columns as lists (see :func:`progexec.reward.remote.check_columns`, the check
    ``progexec serve`` makes too), or AdapterInputError naming the field: missing, not a list, empty,
    or not one entry per item of the first."""
    try:
        return check_columns(list(named), unit)
    except InputError as error:
        raise AdapterInputError(f"{where}: {error}") from None
