"""What running one item gave: :class:`Execution`, its :class:`MatchReason` and the one :func:`gold_match`.

``Execution.detail`` is a dataset's own per-item result (MathQA's chosen option, TAT-QA's derivation): a
:class:`Detail` whose ``record_fields()`` extend the item's record, so no field here belongs to one dataset.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .nodes import Program
from .outcome import Outcome
from .status import Status
from .errors import ProgramSyntaxError
from .verdict import OfficialVerdict

if TYPE_CHECKING:
    from .item import Item


class Detail(Protocol):
    """A dataset's own result for one item, carried by :attr:`Execution.detail`."""

    def record_fields(self) -> dict[str, Any]:
        """The fields this dataset adds to the item's JSON record."""
        ...


@runtime_checkable
class OptionDetail(Detail, Protocol):
    """A detail for an item answered by choosing an option (MathQA): it writes the whole record, and the gold
    value is the correct option's value."""

    def record(self) -> dict[str, Any]:
        """The item's whole JSON record."""
        ...

    def gold_value(self) -> float | None:
        """The correct option's value (None when it has no number)."""
        ...


class MatchReason(enum.Enum):
    """Why an item's answer does (not) match its gold answer, under the one, official, definition."""

    MATCH = ("match", "the official answer equals the gold answer")
    NO_GOLD = ("no_gold", "the item has no gold answer")
    GOLD_NOT_FINITE = ("gold_not_finite", "the gold answer is NaN or infinite, which no answer equals")
    OFFICIAL_INVALID = ("official_invalid", "the official evaluator calls the program invalid")
    VALUE_DIFFERS = ("value_differs", "the official answer differs from the gold answer")
    NO_CORRECT_OPTION = ("no_correct_option", "the correct MathQA option has no number to compare with")
    NOT_WITHIN_OPTION = ("not_within_option", "the value is not within 1% of the correct MathQA option")

    def __init__(self, label: str, text: str) -> None:
        self.label = label
        self.text = text


@dataclass(frozen=True, slots=True)
class Execution:
    """What running one program gave: the float64 outcome under the contract, the official evaluator's
    verdict and, for a batch item, whether it matches the gold answer (``match`` None: no gold).

    ``progexec.run`` fills the program fields; ``progexec.runner.execute`` also the item and the match.
    """

    program: Program | None
    outcome: Outcome[float]
    official: OfficialVerdict
    error: ProgramSyntaxError | None = None
    item: Item | None = None
    match: bool | None = None
    reason: MatchReason = MatchReason.NO_GOLD
    detail: Detail | None = None
    """A dataset's own per-item result (MathQA's option, TAT-QA's derivation); its ``record_fields()`` extend the record."""

    @property
    def status(self) -> Status:
        return self.outcome.status


def gold_match(official: OfficialVerdict, item: Item) -> tuple[bool | None, MatchReason]:
    """The one definition of an item's gold match: the official verdict is valid and ``==`` the gold."""
    if not item.has_gold:
        return None, MatchReason.NO_GOLD
    if not item.gold_is_finite:
        return False, MatchReason.GOLD_NOT_FINITE
    if not official.valid:
        return False, MatchReason.OFFICIAL_INVALID
    if official.equals_gold(item.gold):
        return True, MatchReason.MATCH
    return False, MatchReason.VALUE_DIFFERS


__all__ = ["Execution", "MatchReason", "Detail", "OptionDetail", "gold_match"]
