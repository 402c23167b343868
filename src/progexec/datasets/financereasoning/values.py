"""A value as the sandbox described it (:mod:`.sandbox_program`), read back with every field checked.

The description is what the official ``get_acc`` can tell apart: a kind, the exact rational of a
number (or its special value), the bool, the category the strict rule needs, whether it was a
list's first element, and what the official loop would do with it (``pickle`` through its result
queue, ``str()`` of the executed result). A solution can write anything here, so a field of the
wrong shape makes the description ``bad_result`` for that item only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...core.errors import InputError

KINDS = frozenset({"none", "bool", "num", "complex", "text", "empty", "other", "raises"})
SPECIALS = frozenset({"nan", "dnan", "inf", "-inf", "huge", "tiny"})
TINY = Fraction(1, 10 ** 401)
"""Stands for a non-zero number under 1e-400 in magnitude: it compares with every float as the real one does."""


BAD_DESCRIPTION = "bad_description"
"""The ``kind`` of the InputError raised when the sandbox's description is not in the expected shape."""


@dataclass(frozen=True, slots=True)
class Value:
    """One described value (see the module docstring)."""

    kind: str
    category: str = ""
    type_name: str = ""
    boolean: bool | None = None
    exact: Fraction | None = None
    special: str | None = None
    text: str | None = None
    first: str | None = None
    complex_parts: tuple[float, float] | None = None
    stage: str | None = None
    unpicklable: str | None = None
    str_fails: str | None = None
    aborts: bool = False
    convention: str | None = None
    normalized: Value | None = None

    def comparable(self) -> Fraction | float | None:
        """The number ``get_acc`` compares: exact, or a float standing for a special value (None: no number)."""
        if self.exact is not None:
            return self.exact
        if self.special in ("nan", "dnan"):
            return float("nan")
        if self.special == "inf":
            return float("inf")
        if self.special == "-inf":
            return float("-inf")
        if self.special == "huge":
            return float("-inf") if self.text == "-" else float("inf")
        if self.special == "tiny":
            return -TINY if self.text == "-" else TINY
        return None

    def shown(self) -> str:
        """A short text of the value for reports."""
        if self.kind == "bool":
            return str(self.boolean)
        if self.kind == "num":
            if self.exact is not None:
                number = self.exact
                return str(number.numerator) if number.denominator == 1 else repr(float(number))
            return self.special or ""
        if self.kind == "text":
            return repr(self.text)[:120]
        if self.kind == "complex" and self.complex_parts is not None:
            return repr(complex(*self.complex_parts))
        return f"<{self.type_name or self.kind}>"

    def record(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "category": self.category or None, "type": self.type_name or None,
                               "shown": self.shown()}
        if self.first:
            out["first_of"] = self.first
        if self.stage:
            out["normalize_stage"] = self.stage
        return out


def _text(raw: Any, limit: int = 2000) -> str | None:
    return raw[:limit] if isinstance(raw, str) else None


def _digits(raw: Any) -> int:
    if not isinstance(raw, str) or not 0 < len(raw) <= 500:
        raise InputError("a number's digits", kind=BAD_DESCRIPTION)
    body = raw[1:] if raw.startswith("-") else raw
    if not (body.isascii() and body.isdigit()):
        raise InputError("a number's digits", kind=BAD_DESCRIPTION)
    return int(raw)


def from_mapping(raw: Any, depth: int = 0) -> Value:
    """A Value from the decoded JSON description; raises an InputError of kind ``bad_description`` for any other shape."""
    if not isinstance(raw, dict) or depth > 1:
        raise InputError("not an object", kind=BAD_DESCRIPTION)
    kind = raw.get("k")
    if kind not in KINDS:
        raise InputError("no valid kind", kind=BAD_DESCRIPTION)
    boolean = raw.get("v") if kind == "bool" else None
    if kind == "bool" and not isinstance(boolean, bool):
        raise InputError("a bool without its value", kind=BAD_DESCRIPTION)
    numpy_bool = raw.get("b")
    if isinstance(numpy_bool, bool):
        boolean = numpy_bool
    exact = special = None
    sign = None
    if kind == "num":
        special = raw.get("x")
        if special is None:
            numerator, denominator = _digits(raw.get("p")), _digits(raw.get("q"))
            if denominator <= 0:
                raise InputError("a zero denominator", kind=BAD_DESCRIPTION)
            exact = Fraction(numerator, denominator)
        elif special not in SPECIALS:
            raise InputError("an unknown special number", kind=BAD_DESCRIPTION)
        elif raw.get("neg") is True:
            sign = "-"
    parts = None
    if kind == "complex":
        try:
            parts = (float.fromhex(str(raw.get("re"))), float.fromhex(str(raw.get("im"))))
        except (ValueError, OverflowError):
            raise InputError("a complex without its parts", kind=BAD_DESCRIPTION) from None
    text = _text(raw.get("v")) if kind == "text" else _text(raw.get("numeral"), 200) if kind == "other" else sign
    if kind == "text" and text is None:
        raise InputError("a text without its characters", kind=BAD_DESCRIPTION)
    normalized = from_mapping(raw["normalized"], depth + 1) if "normalized" in raw else None
    return Value(kind, _text(raw.get("c"), 40) or "", _text(raw.get("t"), 60) or "", boolean, exact, special, text,
                 _text(raw.get("first"), 60), parts, _text(raw.get("stage"), 20), _text(raw.get("unpicklable"), 60),
                 _text(raw.get("str_fails"), 200), raw.get("aborts") is True, _text(raw.get("convention"), 40),
                 normalized)


def decode_payload(number: int) -> Value:
    """The Value a sandbox run returned as its payload integer (see :mod:`.sandbox_program`)."""
    if number <= 0:
        raise InputError("no payload", kind=BAD_DESCRIPTION)
    data = number.to_bytes((number.bit_length() + 7) // 8, "big")
    if not data.startswith(b"\x01"):
        raise InputError("no payload marker", kind=BAD_DESCRIPTION)
    try:
        raw = json.loads(data[1:].decode("ascii"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise InputError("the payload is not JSON", kind=BAD_DESCRIPTION) from None
    return from_mapping(raw)
