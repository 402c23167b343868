"""MathQA answer options: ``a ) 38 , b ) 27.675 , ...`` -> the numeric value of each letter.

Reading of one option's text (the issue's rule, applied in this order):
a mixed number ``2 1 / 2`` is 2.5; a fraction ``3 / 5`` is 0.6; anything else is its
first number (``rs . 400`` -> 400, ``50 km / hr`` -> 50, ``1,200`` -> 1200); an
option without a number (``none of these``) has no value. A sign that opens the
option counts even when MathQA's tokenisation put a space after it (``- 6`` is -6). A value *selects* an option
when ``|value - option| <= 0.01 * |option|`` — MathQA-Python's 1 % filter — and
neither is zero (that filter never keeps a zero answer).

Two spellings of the field occur: the plain string, and a Python-list string
``"['a ) 240 square units', 'b ) 180 square units', ...]"``.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from .binding import NUMBER_PATTERN

LETTERS = ("a", "b", "c", "d", "e")
TOLERANCE = 0.01
"""Relative tolerance of an option match (1 %, relative to the option)."""

_MARKER = re.compile(r"(?:^|,)\s*([a-e])\s*\)")
_NUM = NUMBER_PATTERN.pattern
_LEADING_SIGN = re.compile(r"\s*([-+])\s+(?=[\d.])")
_MIXED = re.compile(rf"^[^\d]*?({_NUM})\s+({_NUM})\s*/\s*({_NUM})")
_FRACTION = re.compile(rf"^[^\d]*?({_NUM})\s*/\s*({_NUM})")


@dataclass(frozen=True, slots=True)
class Option:
    """One answer option: its letter, its text and its numeric value (None when it has none)."""

    letter: str
    text: str
    value: float | None


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def option_value(text: str) -> float | None:
    """The numeric value of one option's text (see the module docstring for the rule)."""
    sign_match = _LEADING_SIGN.match(text)
    sign = -1.0 if sign_match and sign_match.group(1) == "-" else 1.0
    body = text[sign_match.end():] if sign_match else text
    value = _unsigned_value(body)
    return None if value is None else sign * value


def _unsigned_value(text: str) -> float | None:
    mixed = _MIXED.match(text)
    if mixed:
        whole, numerator, denominator = (_number(group) for group in mixed.groups())
        if denominator != 0 and "." not in mixed.group(1):
            sign = -1.0 if whole < 0 else 1.0
            return whole + sign * numerator / denominator
    fraction = _FRACTION.match(text)
    if fraction:
        numerator, denominator = (_number(group) for group in fraction.groups())
        if denominator != 0:
            return numerator / denominator
    first = NUMBER_PATTERN.search(text)
    return _number(first.group(0)) if first else None


def _pieces(options: str) -> list[tuple[str, str]]:
    text = options.strip()
    if text.startswith("["):
        try:
            parts = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            parts = None
        if isinstance(parts, list) and all(isinstance(part, str) for part in parts):
            text = " , ".join(parts)
    markers = list(_MARKER.finditer(text))
    pieces: list[tuple[str, str]] = []
    for index, marker in enumerate(markers):
        end = markers[index + 1].start() if index + 1 < len(markers) else len(text)
        pieces.append((marker.group(1), text[marker.end():end].strip().rstrip(",").strip()))
    return pieces


def parse_options(options: str) -> dict[str, Option]:
    """Letter -> Option for a MathQA ``options`` field; the first text of a repeated letter wins."""
    parsed: dict[str, Option] = {}
    for letter, text in _pieces(options):
        if letter not in parsed:
            parsed[letter] = Option(letter, text, option_value(text))
    return parsed


def within_one_percent(value: float, option: float, tolerance: float = TOLERANCE) -> bool:
    """``|value - option| <= tolerance * |option|``, and never for a zero option or value.

    MathQA-Python's generator drops every problem whose declared answer or computed
    result is 0 (it tests them for truth), so a zero never counts.
    """
    if value == 0 or option == 0:
        return False
    return abs(value - option) <= tolerance * abs(option)


def kept_by_filter(value: float, option: float, tolerance: float = TOLERANCE) -> bool:
    """MathQA-Python's keep rule with the sign read right: the option is positive and the value within 1 %.

    The generator reads an option's number without a sign MathQA's tokenisation
    separated (``- 49`` reads 49), so a problem whose answer is negative is never
    kept — and a value of 6 against ``- 6`` would be kept by mistake. Requiring a
    positive option keeps exactly the problems it keeps rightly.
    """
    return option > 0 and within_one_percent(value, option, tolerance)


def select_option(value: float | None, options: dict[str, Option], tolerance: float = TOLERANCE) -> str | None:
    """The letter whose option the value lands on (the nearest when several do), or None."""
    if value is None:
        return None
    best: tuple[float, str] | None = None
    for letter in LETTERS:
        option = options.get(letter)
        if option is None or option.value is None or not within_one_percent(value, option.value, tolerance):
            continue
        distance = abs(value - option.value)
        if best is None or distance < best[0]:
            best = (distance, letter)
    return best[1] if best else None
