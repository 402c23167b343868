"""The result of one program under one arithmetic: :class:`Outcome` (a data type; :mod:`progexec.interp` fills it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from .arithmetic import RefusalCause
from .status import Status

V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Outcome(Generic[V]):
    """The result of one program under one arithmetic.

    ``value`` is the finished answer (rounded for float64) or a bool for a final
    ``greater``; ``raw`` is the unrounded final value; ``results`` every step's value.
    On a refusal, ``value`` is None and ``step``/``arg`` locate the cause (0-based step, arg 1 or 2).
    """

    status: Status
    value: V | bool | None = None
    raw: V | bool | None = None
    results: tuple[V | bool, ...] = ()
    step: int | None = None
    arg: int | None = None
    message: str = ""
    cause: RefusalCause | None = None

    @property
    def present(self) -> bool:
        return self.status is Status.OK

    @property
    def is_bool(self) -> bool:
        return self.present and isinstance(self.value, bool)

    @property
    def bool_value(self) -> bool | None:
        return self.value if isinstance(self.value, bool) else None

    def answer(self) -> V | str | None:
        """The answer as the dataset writes it: a number, ``"yes"``/``"no"``, or None."""
        if isinstance(self.value, bool):
            return "yes" if self.value else "no"
        return self.value

    def where(self) -> str:
        """``step 2, argument 1`` style location of a refusal, or ``""``."""
        if self.step is None:
            return ""
        return f"step {self.step}" + (f", argument {self.arg}" if self.arg else "")


__all__ = ["Outcome"]
