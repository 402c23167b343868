"""The reward's value types: the policy, the typed status with its message template, the result.

A result always has the same fields, and :meth:`RewardResult.record` always the same keys in the
same order, so a batch of results is a table (verl requires every item of a batch to return the
same keys).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from ..core.limits import current


class Policy(enum.Enum):
    """How a completion is judged (see docs/reward.md)."""

    OFFICIAL = "official"
    NUMERIC = "numeric"
    HELM = "helm"


DEFAULT_POLICY = Policy.NUMERIC
"""The policy used when neither the call nor the gold record names one."""


class RewardStatus(enum.Enum):
    """Why a completion scored what it scored; ``template`` is the human reason's pattern."""

    OK = ("ok", "the answer {extracted} matches the gold {gold}")
    WRONG = ("wrong", "the answer {value} differs from the gold {gold}")
    SCALE_MISMATCH = ("scale_mismatch",
                      "the answer {value} matches the gold {gold} only when scaled by {factor}; "
                      "a scale guess is not accepted")
    TYPE_MISMATCH = ("type_mismatch", "the answer is {got} but the gold is {want}")
    NO_ANSWER = ("no_answer", "no program and no final answer found")
    NO_PROGRAM = ("no_program", "the official policy needs a {dialect} program and the completion has none")
    MULTIPLE_ANSWERS = ("multiple_answers", "the completion gives {count} different final answers")
    MANY_CANDIDATES = ("many_candidates", "the final answer {extracted!r} holds {count} numbers, not one")
    PROSE = ("prose", "the final answer {extracted!r} is a sentence about a number (a negation, more than six "
                      "other words, or over 2,000 characters), not a plain answer")
    UNREADABLE = ("unreadable", "the final answer {extracted!r} is neither a number nor yes/no")
    SYNTAX_ERROR = ("syntax_error", "the program does not parse: {detail}")
    PROGRAM_INVALID = ("program_invalid", "the program has no value under the official semantics: {detail}")
    TOO_LARGE = ("too_large", "{what} is {size} characters long, over the limit of {limit}")
    BAD_GOLD = ("bad_gold", "the gold record is unusable: {detail}")
    BAD_POLICY = ("bad_policy", "unknown policy {name!r}; known: official, numeric, helm")
    BAD_INPUT = ("bad_input", "{detail}")
    INTERNAL_ERROR = ("internal_error", "progexec could not judge this completion ({detail}); please report it")

    def __init__(self, label: str, template: str) -> None:
        self.label = label
        self.template = template

    def reason(self, **fields: Any) -> str:
        """The human reason: the template filled with ``fields``."""
        return self.template.format(**fields)

    @classmethod
    def from_label(cls, label: str) -> RewardStatus:
        """The status whose label is ``label``; raise KeyError for an unknown one."""
        return _BY_LABEL[label]


_BY_LABEL = {status.label: status for status in RewardStatus}

FORMAT_OK = frozenset({RewardStatus.OK, RewardStatus.WRONG, RewardStatus.SCALE_MISMATCH,
                       RewardStatus.TYPE_MISMATCH, RewardStatus.PROGRAM_INVALID})
"""Statuses where the completion held one readable answer or one parseable program."""

_FORMAT_OK = tuple(FORMAT_OK)
"""FORMAT_OK for a membership test by identity (an enum member's hash is a Python-level call)."""

RECORD_KEYS = ("score", "correct", "format_ok", "extracted", "value", "status", "reason", "policy")
"""The keys of :meth:`RewardResult.record`, in order."""


@dataclass(frozen=True, slots=True)
class RewardResult:
    """One judged completion. ``score`` is 1.0 exactly when ``correct``."""

    score: float
    correct: bool
    format_ok: bool
    extracted: str | None
    value: float | bool | None
    status: RewardStatus
    reason: str
    policy: Policy

    def record(self) -> dict[str, Any]:
        """A JSON-able dict with the keys of :data:`RECORD_KEYS`, in that order."""
        return {
            "score": self.score,
            "correct": self.correct,
            "format_ok": self.format_ok,
            "extracted": self.extracted,
            "value": self.value,
            "status": self.status.label,
            "reason": self.reason,
            "policy": self.policy.value,
        }




def make_result(status: RewardStatus, policy: Policy, *, extracted: str | None = None,
                value: float | bool | None = None, **fields: Any) -> RewardResult:
    """Build a result whose score, correctness and format flag follow from ``status``."""
    if extracted is not None and len(extracted) > current().max_extracted_chars:
        extracted = extracted[:current().max_extracted_chars] + "..."
    correct = status is RewardStatus.OK
    text = status.reason(extracted=extracted, value=value, **fields)
    return RewardResult(1.0 if correct else 0.0, correct, status in _FORMAT_OK, extracted, value, status,
                        text, policy)
