"""What running one item gave: :class:`Execution`, its :class:`MatchReason` and the one :func:`gold_match`.

``Execution.detail`` is a dataset's own per-item result (MathQA's chosen option, TAT-QA's derivation): a
:class:`Detail` whose ``record_fields()`` extend the item's record, so no field here belongs to one dataset.
"""

from __future__ import annotations

import enum
from dataclasses import FrozenInstanceError
from collections.abc import Callable
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


class ProgramSource(Protocol):
    """Where an Execution's program comes from when it is built only on first read (a compiled program)."""

    @property
    def program(self) -> Program: ...


class Execution:
    """What running one program gave: the float64 outcome under the contract, the official evaluator's
    verdict and, for a batch item, whether it matches the gold answer (``match`` None: no gold).

    ``progexec.run`` fills the program fields; ``progexec.runner.execute`` also the item and the match.
    ``detail`` is a dataset's own per-item result (MathQA's option, TAT-QA's derivation); its
    ``record_fields()`` extend the record.

    Immutable, compared, hashed and printed field by field, as a frozen dataclass of these eight fields.
    ``program`` is built on first read when the Execution was made by :meth:`lazy` (the compiled fast path,
    whose outcome needs no syntax tree: most callers never read it); the Program is the parser's either way.
    """

    __slots__ = ("_program", "_source", "outcome", "official", "error", "item", "match", "reason", "detail")
    __match_args__ = ("program", "outcome", "official", "error", "item", "match", "reason", "detail")

    _program: Program | None
    _source: ProgramSource | None
    outcome: Outcome[float]
    official: OfficialVerdict
    error: ProgramSyntaxError | None
    item: Item | None
    match: bool | None
    reason: MatchReason
    detail: Detail | None

    def __init__(self, program: Program | None, outcome: Outcome[float], official: OfficialVerdict,
                 error: ProgramSyntaxError | None = None, item: Item | None = None, match: bool | None = None,
                 reason: MatchReason = MatchReason.NO_GOLD, detail: Detail | None = None) -> None:
        _set_program(self, program)
        _set_source(self, None)
        _set_outcome(self, outcome)
        _set_official(self, official)
        _set_error(self, error)
        _set_item(self, item)
        _set_match(self, match)
        _set_reason(self, reason)
        _set_detail(self, detail)

    @classmethod
    def lazy(cls, source: ProgramSource, outcome: Outcome[float], official: OfficialVerdict,
             item: Item | None = None, match: bool | None = None,
             reason: MatchReason = MatchReason.NO_GOLD) -> Execution:
        """An Execution whose ``program`` is ``source.program``, read on first use."""
        made = cls.__new__(cls)
        _set_program(made, None)
        _set_source(made, source)
        _set_outcome(made, outcome)
        _set_official(made, official)
        _set_error(made, None)
        _set_item(made, item)
        _set_match(made, match)
        _set_reason(made, reason)
        _set_detail(made, None)
        return made

    @property
    def program(self) -> Program | None:
        """The parsed program (None: the text did not parse, or the item had none)."""
        source = self._source
        return self._program if source is None else source.program

    @property
    def status(self) -> Status:
        return self.outcome.status

    def _values(self) -> tuple[Any, ...]:
        return (self.program, self.outcome, self.official, self.error, self.item, self.match, self.reason,
                self.detail)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Execution)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(self.__match_args__, self._values()))
        return f"{self.__class__.__qualname__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[Execution], tuple[Any, ...]]:
        return (self.__class__, self._values())


def _setter(name: str) -> Callable[[Execution, Any], None]:
    """The slot's own setter: what a frozen dataclass's ``__init__`` reaches through ``object.__setattr__``."""
    slot: Any = vars(Execution)[name]
    setter: Callable[[Execution, Any], None] = slot.__set__
    return setter


_set_program, _set_source, _set_outcome, _set_official, _set_error, _set_item, _set_match, _set_reason, \
    _set_detail = map(_setter, Execution.__slots__)


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


__all__ = ["Execution", "MatchReason", "Detail", "OptionDetail", "ProgramSource", "gold_match"]
