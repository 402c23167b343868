"""Request bodies of ``progexec serve``: JSON decoded within counted bounds, and unusable values found per item.

:func:`decode_body` counts the body's JSON values before decoding it (so a 16 MiB body of
``[],[],...`` is refused, never built as millions of objects) and decodes numbers without ever
making a huge one: an integer or a number text longer than ``max_literal_chars``, an integer beyond
a double's range, and a non-finite number become :class:`Unusable` markers. :func:`problem` then
names what makes one item unusable (a marker, a lone surrogate), so the item — not the request —
gets a ``bad_input`` record.
"""

from __future__ import annotations

import json
import math
import re
import sys
from typing import Any

from ..core.errors import InputError
from ..core.limits import Limits
from ..core.plural import plural

_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
"""One JSON string from its opening quote (anchored; each position matches one way, so linear)."""
_SURROGATE = re.compile("[\ud800-\udfff]")
_STRUCTURAL = (b",", b":", b"[", b"{")
_MAX_DOUBLE_BITS = sys.float_info.max_exp
"""An integer of more bits has no double value (it would be ``inf`` and overflow ``float()``)."""


class Unusable:
    """A JSON number that stands in the decoded body for one that cannot be used; ``reason`` names it."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def __repr__(self) -> str:
        return f"Unusable({self.reason!r})"


def count_values(data: bytes | bytearray, bound: int) -> int:
    """An upper bound on the number of JSON values in ``data``: the commas, colons and opening
    brackets outside strings, plus one. Counting stops once it is past ``bound``."""
    count = 1 + sum(data.count(mark) for mark in _STRUCTURAL)
    if count <= bound:  # the marks inside strings only add: below the bound without looking at strings
        return count
    count, strings, position, end = 1, 0, 0, len(data)
    while count <= bound:
        quote = data.find(b'"', position)
        stop = end if quote < 0 else quote
        count += sum(data.count(mark, position, stop) for mark in _STRUCTURAL)
        strings += 1
        string = None if quote < 0 else _STRING.match(data, quote)
        if string is None or strings > count:
            # no more strings, an unterminated one, or more strings than places for a value: the decoder
            # refuses the text by here, having built no more than ``count`` values
            break
        position = string.end()
    return count


def _parse_int(limits: Limits) -> Any:
    def parse(text: str) -> int | Unusable:
        if len(text) > limits.max_literal_chars:
            return Unusable(f"an integer of {plural(len(text), 'digit')} (over max_literal_chars = "
                            f"{limits.max_literal_chars})")
        value = int(text)
        if value.bit_length() > _MAX_DOUBLE_BITS:
            return Unusable(f"an integer of {plural(len(text), 'digit')}, beyond the range of a double")
        return value
    return parse


def _parse_float(limits: Limits) -> Any:
    def parse(text: str) -> float | Unusable:
        if len(text) > limits.max_literal_chars:
            return Unusable(f"a number of {plural(len(text), 'character')} (over max_literal_chars = "
                            f"{limits.max_literal_chars})")
        value = float(text)
        return value if math.isfinite(value) else Unusable(f"the number {text} is beyond the range of a double")
    return parse


def _constant(name: str) -> Unusable:
    return Unusable(f"{name} is not a JSON number")


def decode_body(data: bytes | bytearray, limits: Limits) -> Any:
    """The decoded body (a leading UTF-8 BOM dropped), with :class:`Unusable` markers for numbers that cannot
    be used; raise :class:`InputError` when it is not UTF-8 JSON or holds more than ``max_request_values`` values."""
    values = count_values(data, limits.max_request_values)
    if values > limits.max_request_values:
        raise InputError(f"the body holds more than {limits.max_request_values} JSON values "
                        f"(max_request_values); it is not decoded")
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")  # a BOM, as the readers drop one
    except UnicodeDecodeError as error:
        raise InputError(f"the body is not UTF-8 (byte {error.start})") from None
    try:
        return json.loads(text, parse_int=_parse_int(limits), parse_float=_parse_float(limits),
                          parse_constant=_constant)
    except json.JSONDecodeError as error:
        raise InputError(f"the body is not JSON ({error})") from None
    except RecursionError:
        raise InputError("the body is not JSON that can be read (nested too deeply)") from None


def problem(value: object) -> str | None:
    """What makes a decoded value unusable (an :class:`Unusable` number, a lone surrogate in a string
    or key), or None. Walks the value without recursion; the body's value count bounds the walk."""
    pending = [value]
    while pending:
        current = pending.pop()
        if isinstance(current, str):
            surrogate = _SURROGATE.search(current)
            if surrogate is not None:
                return f"a lone surrogate (U+{ord(surrogate.group()):04X}) in a string; it is not Unicode text"
        elif isinstance(current, Unusable):
            return current.reason
        elif isinstance(current, dict):
            pending.extend(current.keys())
            pending.extend(current.values())
        elif isinstance(current, list):
            pending.extend(current)
    return None
