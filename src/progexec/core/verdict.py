"""What an official evaluator answered for one program: :class:`OfficialVerdict` (a data type, no work)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class OfficialVerdict:
    """``valid`` is the official ``invalid_flag == 0``; ``value`` its ``this_res`` (None for ``"n/a"``).

    ``leftover`` is what the official function returned beside a set invalid flag (the last step's value,
    rounded when the loop broke, as it stood when an exception ended it): MultiHiertt's ``evaluate.py``
    compares it regardless of the flag. ``returned`` is the value the function returned either way.
    """

    valid: bool
    value: float | str | None
    leftover: float | str | None = None

    @property
    def returned(self) -> float | str | None:
        return self.value if self.valid else self.leftover

    def equals_gold(self, gold: object) -> bool:
        """Official execution accuracy for one item: valid and ``==`` to the gold answer."""
        return self.valid and self.value is not None and self.value == gold


INVALID = OfficialVerdict(False, None, "n/a")
"""``(1, "n/a")``: invalid, with nothing computed."""


__all__ = ["OfficialVerdict", "INVALID"]
