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

Hostile fields are refused, not parsed: a field over ``MAX_OPTIONS_CHARS`` gives no
options and :func:`read_options` says why (``too_long``). Parsing is one left-to-right
pass (numbers are read by a scanner with the regex's greedy semantics, never by a
backtracking pattern), the list spelling is read by a scanner of string literals
(no ``ast.literal_eval`` of the whole field), and an option whose value is not
finite (``1e999``) or whose number ``float`` cannot read (``.0.``) has no value, so it
never matches.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass, field
from enum import Enum

from ...core.limits import DEFAULT_LIMITS, current
from ...core.plural import plural

LETTERS = ("a", "b", "c", "d", "e")
TOLERANCE = 0.01
"""Relative tolerance of an option match (1 %, relative to the option)."""

MAX_OPTIONS_CHARS = DEFAULT_LIMITS.max_options_chars
"""The default longest options field (the real ones are under 160); the bound in force: max_options_chars."""

_MARKER = re.compile(r"(?:^|,)\s*([a-e])\s*\)")
_LEADING_SIGN = re.compile(r"\s*([-+])\s+(?=[\d.])")


class OptionsRefusal(str, Enum):
    """Why an options field was not parsed."""

    TOO_LONG = "too_long"


@dataclass(frozen=True, slots=True)
class Option:
    """One answer option: its letter, its text and its numeric value (None when it has none)."""

    letter: str
    text: str
    value: float | None


@dataclass(frozen=True, slots=True)
class ParsedOptions:
    """The options of a field by letter, or none and the refusal saying why."""

    options: dict[str, Option] = field(default_factory=dict)
    refusal: OptionsRefusal | None = None
    message: str = ""


def _number_at(text: str, start: int) -> int:
    """The end of the number (binding's NUMBER_PATTERN, read greedily) starting exactly at ``start``, or -1."""
    n, i = len(text), start
    if i < n and text[i] in "+-":
        i += 1
    if i < n and text[i] == "." and i + 1 < n and text[i + 1].isdecimal():
        i += 1
    if i >= n or not text[i].isdecimal():
        return -1
    while i < n and text[i].isdecimal():
        i += 1
    while i + 3 < n and text[i] == "," and text[i + 1:i + 4].isdecimal():
        i += 4
    if i < n and text[i] == ".":
        i += 1
    while i < n and text[i].isdecimal():
        i += 1
    if i < n and text[i] in "eE":
        j = i + 1
        if j < n and text[j] in "+-":
            j += 1
        if j < n and text[j].isdecimal():
            while j < n and text[j].isdecimal():
                j += 1
            i = j
    return i


def _first_number(text: str) -> tuple[int, int] | None:
    """The leftmost number of ``text`` as (start, end), as ``NUMBER_PATTERN.search`` finds it, in linear time."""
    for start, char in enumerate(text):
        if char.isdecimal() or char in "+-.":
            end = _number_at(text, start)
            if end >= 0:
                return start, end
    return None


def _spaces(text: str, start: int) -> int:
    while start < len(text) and text[start].isspace():
        start += 1
    return start


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _slash_number(text: str, start: int) -> tuple[int, int] | None:
    """``\\s*/\\s*NUMBER`` at ``start``: the span of the number after the slash, or None."""
    slash = _spaces(text, start)
    if slash >= len(text) or text[slash] != "/":
        return None
    begin = _spaces(text, slash + 1)
    end = _number_at(text, begin)
    return (begin, end) if end >= 0 else None


def option_value(text: str) -> float | None:
    """The numeric value of one option's text (see the module docstring for the rule); None unless finite."""
    sign_match = _LEADING_SIGN.match(text)
    sign = -1.0 if sign_match and sign_match.group(1) == "-" else 1.0
    body = text[sign_match.end():] if sign_match else text
    try:
        value = _unsigned_value(body)
    except ValueError:  # the pattern admits spellings float() refuses (".0.", "1.2."): no value
        return None
    return None if value is None or not math.isfinite(value) else sign * value


def _unsigned_value(text: str) -> float | None:
    first = _first_number(text)
    if first is None:
        return None
    start, end = first
    whole_text = text[start:end]
    gap = _spaces(text, end)
    if gap > end:  # a mixed number: NUMBER \s+ NUMBER \s* / \s* NUMBER
        second_end = _number_at(text, gap)
        third = _slash_number(text, second_end) if second_end >= 0 else None
        if third is not None:
            whole, numerator, denominator = (_number(part) for part in (
                whole_text, text[gap:second_end], text[third[0]:third[1]]))
            if denominator != 0 and "." not in whole_text:
                sign = -1.0 if whole < 0 else 1.0
                return whole + sign * numerator / denominator
    below = _slash_number(text, end)  # a fraction: NUMBER \s* / \s* NUMBER
    if below is not None:
        numerator, denominator = _number(whole_text), _number(text[below[0]:below[1]])
        if denominator != 0:
            return numerator / denominator
    return _number(whole_text)


def _string_list(text: str) -> list[str] | None:
    """A Python list of plain string literals (``['a ) 1', "b ) 2"]``), read in one pass; None otherwise."""
    n, i = len(text), 1
    items: list[str] = []
    want_item = True
    while True:
        i = _spaces(text, i)
        if i >= n:
            return None
        if text[i] == "]":
            return items if _spaces(text, i + 1) == n else None
        if not want_item:
            if text[i] != ",":
                return None
            i, want_item = i + 1, True
            continue
        quote = text[i]
        if quote not in "'\"":
            return None
        j = i + 1
        while j < n and text[j] != quote:
            if text[j] == "\n":
                return None
            j += 2 if text[j] == "\\" else 1
        if j >= n:
            return None
        try:
            value = ast.literal_eval(text[i:j + 1])  # one string literal, at most MAX_OPTIONS_CHARS long
        except (ValueError, SyntaxError):
            return None
        if not isinstance(value, str):
            return None
        items.append(value)
        i, want_item = j + 1, False


def _pieces(options: str) -> list[tuple[str, str]]:
    text = options.strip()
    if text.startswith("["):
        parts = _string_list(text)
        if parts is not None:
            text = " , ".join(parts)
    markers = list(_MARKER.finditer(text))
    pieces: list[tuple[str, str]] = []
    for index, marker in enumerate(markers):
        end = markers[index + 1].start() if index + 1 < len(markers) else len(text)
        pieces.append((marker.group(1), text[marker.end():end].strip().rstrip(",").strip()))
    return pieces


def read_options(options: str) -> ParsedOptions:
    """Letter -> Option for a MathQA ``options`` field (the first text of a repeated letter wins), or a refusal."""
    if len(options) > current().max_options_chars:
        return ParsedOptions(refusal=OptionsRefusal.TOO_LONG,
                             message=f"the options field has {plural(len(options), 'character')}, over "
                                     f"{current().max_options_chars}")
    parsed: dict[str, Option] = {}
    for letter, text in _pieces(options):
        if letter not in parsed:
            parsed[letter] = Option(letter, text, option_value(text))
    return ParsedOptions(parsed)


def parse_options(options: str) -> dict[str, Option]:
    """Letter -> Option for a MathQA ``options`` field; empty for a refused field (see :func:`read_options`)."""
    return read_options(options).options


def within_one_percent(value: float, option: float, tolerance: float = TOLERANCE) -> bool:
    """``|value - option| <= tolerance * |option|``, and never for a zero or non-finite option or value.

    MathQA-Python's generator drops every problem whose declared answer or computed
    result is 0 (it tests them for truth), so a zero never counts; an infinite option
    would be "within 1 %" of everything, so it never counts either.
    """
    if value == 0 or option == 0 or not (math.isfinite(value) and math.isfinite(option)):
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
