"""Status codes of the progexec contract: 1400 ok, 1401-1419 one per refusal.

The codes are stable: never renumber one, only add. ``status_name(code)`` turns a
code back into its readable name.
"""

from __future__ import annotations

from enum import IntEnum


class Status(IntEnum):
    """Why a program has (or lacks) a value. A refusal is an absent value, never a made-up number."""

    OK = 1400
    NO_STEPS = 1401
    LENGTH_MISMATCH = 1402
    FORWARD_REFERENCE = 1403
    REFERENCE_TO_BOOLEAN = 1404
    TABLE_SLICE_OUT_OF_BOUNDS = 1405
    EMPTY_ROW = 1406
    DIVIDE_BY_ZERO = 1407
    UNKNOWN_OP = 1408
    BAD_ARG_KIND = 1409
    OVERFLOW = 1410
    NON_REAL_RESULT = 1411
    BAD_LITERAL = 1412
    MISSING_ROW = 1413
    BAD_CELL = 1414
    SYNTAX_ERROR = 1415
    UNSUPPORTED_OP = 1416
    NOT_A_NUMBER = 1417
    LIMIT_EXCEEDED = 1418
    BAD_INPUT = 1419

    @property
    def label(self) -> str:
        """The lower-case name used in JSON output (``"ok"``, ``"divide_by_zero"``)."""
        return _LABELS[self]

    def __str__(self) -> str:
        """A status prints as its label (``print(Status.OK)`` shows ``ok``); ``int(status)`` is the code."""
        return self.label

    def __format__(self, spec: str) -> str:
        """``f"{status}"`` is the label; a numeric spec (``f"{status:d}"``) formats the code."""
        return self.label if not spec else format(int(self), spec)


_LABELS: dict[Status, str] = {status: status.name.lower() for status in Status}
"""Each status's label, computed once (it is written on every record)."""

STATUS_DESCRIPTIONS: dict[Status, str] = {
    Status.OK: "the program has a value",
    Status.NO_STEPS: "the program has no steps",
    Status.LENGTH_MISMATCH: "the declared step count runs past the real argument lists",
    Status.FORWARD_REFERENCE: "a reference points at the same or a later step, or at no step",
    Status.REFERENCE_TO_BOOLEAN: "a reference to a greater (yes/no) result is used as a number",
    Status.TABLE_SLICE_OUT_OF_BOUNDS: "a table row slice reaches past the table buffer",
    Status.EMPTY_ROW: "a table row has no numeric cells",
    Status.DIVIDE_BY_ZERO: "division (or a zero base to a negative power) by zero",
    Status.UNKNOWN_OP: "the op is not one of the ten FinQA ops",
    Status.BAD_ARG_KIND: "an argument has a kind the op does not accept",
    Status.OVERFLOW: "the result is infinite or too large for float64",
    Status.NON_REAL_RESULT: "the result is not a real number (negative base, fractional exponent)",
    Status.BAD_LITERAL: "a literal argument is not a number, percentage or constant",
    Status.MISSING_ROW: "the named row is not in the table, or the item has no table",
    Status.BAD_CELL: "a cell of the row is not numeric",
    Status.SYNTAX_ERROR: "the program text or token list is malformed",
    Status.UNSUPPORTED_OP: "the op belongs to the dialect but the chosen semantics does not define it",
    Status.NOT_A_NUMBER: "a literal or result is NaN",
    Status.LIMIT_EXCEEDED: "a configured bound (program length, literal length, exponent) was exceeded",
    Status.BAD_INPUT: "the input item itself is unusable (not JSON, no program, wrong types)",
}


def status_name(code: int) -> str:
    """The readable name of a status code; ``unknown_status_`` and the number for a code not in the contract."""
    try:
        return Status(code).label
    except ValueError:
        return f"unknown_status_{code}"
