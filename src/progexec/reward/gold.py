"""The gold record a completion is judged against, read from a dict or a JSON string.

Shape: ``{"answer", "program", "table", "dialect", "options", "policy", "problem", "unit"}``, every
key optional but at least one of ``answer`` / ``program``; other keys (an id, a question) are
ignored. A plain text that is not a JSON object is the answer alone. ``problem`` (MathQA only) is
the problem text whose numbers the ``nK`` inputs of a MathQA program name. ``unit`` (opt-in) is the
unit the table states its amounts in (``thousand``, ``million``, ``billion``): an answer written
with a scale word is then read in that unit (``$94 million`` is 94).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core.limits import current
from ..core.registry import get_dataset as get_dialect, reward_dataset_names
from ..core.errors import InputError
from ..core.table import validate_table
from .model import Policy
from .numbers import read_gold
from ..core.plural import plural

DIALECTS = reward_dataset_names()
"""The dialects a gold record may name: those with a program runner (:func:`progexec.core.registry.reward_dataset_names`)."""
UNITS = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
"""The table units a gold record may state (``unit``), by their factor; a plural is accepted."""



GoldRecordError = InputError
"""The documented name of an unusable gold record (an :class:`~progexec.errors.InputError`; the message says what and where)."""


_POLICY_NAMES = {policy.value: policy for policy in Policy}


def parse_policy(value: object) -> Policy:
    """A Policy from its name (or a Policy); raise InputError for anything else."""
    if isinstance(value, Policy):
        return value
    if isinstance(value, str):
        found = _POLICY_NAMES.get(value.strip().lower())  # Policy(name), without the enum's call machinery
        if found is not None:
            return found
    raise InputError(f"unknown policy {value!r}; known: official, numeric, helm")


@dataclass(frozen=True, slots=True)
class GoldRecord:
    """One item's gold: its answer (``exe_ans``) and/or program, table, dialect, MathQA options."""

    answer: str | float | bool | None = None
    program: str | None = None
    table: list[list[str]] | None = None
    dialect: str = "finqa"
    options: str | None = None
    policy: Policy | None = None
    problem: str | None = None
    unit: str | None = None

    def __post_init__(self) -> None:
        """Check every field, so a record built directly is as sound as one read from JSON."""
        if self.answer is None and self.program is None:
            raise InputError("the gold record has neither an answer nor a program")
        answer = _answer(self.answer)
        if answer is not self.answer:
            object.__setattr__(self, "answer", answer)  # an int answer is kept as its float
        for key in ("program", "options", "problem"):
            value = getattr(self, key)
            if value is not None and not isinstance(value, str):
                raise InputError(f"{key} must be a string or null, got {type(value).__name__}")
        if self.table is not None:
            _table(self.table)
        if self.dialect not in DIALECTS:
            raise GoldRecordError(f"dialect must be one of {', '.join(DIALECTS)}, got {self.dialect!r}")
        if isinstance(self.answer, str) and read_gold(self.answer, get_dialect(self.dialect).option_letters and bool(self.options)) \
                is None:
            raise InputError(f"the answer {self.answer[:100]!r} is not one number, yes/no or option letter")
        if self.unit is not None:
            object.__setattr__(self, "unit", _unit(self.unit))
        if self.policy is not None and not isinstance(self.policy, Policy):
            object.__setattr__(self, "policy", parse_policy(self.policy))  # its name, or InputError

    @classmethod
    def from_mapping(cls, obj: Mapping[str, Any] | str) -> GoldRecord:
        """Read a gold record from a mapping, its JSON object text, or a plain answer text such as
        ``"0.10826"`` or ``"yes"`` (verl's ``ground_truth``); raise InputError."""
        if isinstance(obj, str):
            obj = _loads(obj) if obj.lstrip().startswith("{") else {"answer": obj}
        if not isinstance(obj, Mapping):
            raise InputError(f"a gold record is a JSON object, got {type(obj).__name__}")
        return cls(
            answer=_answer(obj.get("answer")),
            program=_optional_str(obj, "program"),
            table=_table(obj.get("table")),
            dialect=_dialect(obj.get("dialect")),
            options=_optional_str(obj, "options"),
            policy=None if obj.get("policy") is None else parse_policy(obj.get("policy")),
            problem=_optional_str(obj, "problem"),
            unit=None if obj.get("unit") is None else _unit(obj.get("unit")),
        )


def _loads(text: str) -> Any:
    if len(text) > current().max_gold_json_chars:
        raise GoldRecordError(f"the gold JSON is {plural(len(text), 'character')} long, over "
                              f"{current().max_gold_json_chars}")
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        raise InputError(f"the gold record is not JSON ({error})") from None
    except ValueError as error:  # an integer over the interpreter's digit limit (4,300 digits)
        raise InputError(f"the gold record holds an unusable number ({str(error)[:120]})") from None


def _answer(value: Any) -> str | float | bool | None:
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, (int, float)):
        try:
            number = float(value)
        except OverflowError:
            raise GoldRecordError(f"answer is an integer of {plural(int(value).bit_length(), 'bit')}, too large for "
                                  f"a float") \
                from None
        if not math.isfinite(number):
            raise InputError(f"answer must be finite, got {value!r}")
        return value if isinstance(value, float) else number
    raise InputError(f"answer must be a string, number, boolean or null, got {type(value).__name__}")


def _optional_str(obj: Mapping[str, Any], key: str) -> str | None:
    value = obj.get(key)
    if value is None or isinstance(value, str):
        return value
    raise InputError(f"{key} must be a string or null, got {type(value).__name__}")


def _table(value: Any) -> list[list[str]] | None:
    if value is None:
        return None
    return validate_table(value)


def _unit(value: Any) -> str:
    if isinstance(value, str) and value.strip().lower().removesuffix("s") in UNITS:
        return value.strip().lower().removesuffix("s")
    raise InputError(f"unit must be one of {', '.join(UNITS)} (or a plural), got {value!r:.60}")


def _dialect(value: Any) -> str:
    if value is None:
        return "finqa"
    if isinstance(value, str) and value.strip().lower() in DIALECTS:
        return value.strip().lower()
    raise GoldRecordError(f"dialect must be one of {', '.join(DIALECTS)}, got {value!r}")
