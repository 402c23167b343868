"""TAT-QA's official answer normalisation (``tatqa_utils.py``), reproduced rule for rule.

Every function here behaves as its namesake in NExTplusplus/TAT-QA does on the same input,
quirks included (``(12.6)`` reads -12.6 but ``($12.6)`` reads 12.6, ``.5`` reads as no number,
``1e-05`` reads 1); see docs/tatqa.md for each with an example. Where the official code would
raise, :class:`OfficialAbort` is raised instead, naming what the official script would do.
"""

from __future__ import annotations

import math
import re
import string
from typing import Any

from ...core.errors import OfficialAbort
from ...core.plural import plural

NUMBER_CHARS_DROPPED = "'\"\\$€£¥%(),[]"
"""Characters the official ``_clean_num`` removes before reading a number."""

PUNCTUATION = frozenset(string.punctuation)
_NUMBER = re.compile(r"([+-]?\d+(\.\d+)?)|([+-]?\.\d+)")
_ACCOUNTING = re.compile(r"(\([\d.\s]+\))")
_PERCENT = re.compile(r"([\d.\s]+%)")
_WORD_SCALE = re.compile(r"([\d.]+\s?[a-zA-Z]+)")
_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)

Number = int | float


def scale_to_num(scale: Any) -> float | int:
    """The multiplier of a scale word: the first of hundred, thousand, million, billion, percent it contains."""
    if not isinstance(scale, str):
        raise OfficialAbort(f"the scale {scale!r} is not a string (the official scale_to_num calls .lower())")
    lowered = scale.lower()
    for word, value in (("hundred", 100), ("thousand", 1000), ("million", 1000000), ("billion", 1000000000)):
        if word in lowered:
            return value
    return 0.01 if "percent" in lowered else 1


def clean_number_text(text: Any) -> str:
    """``str(text)`` without the characters of :data:`NUMBER_CHARS_DROPPED`."""
    return "".join(ch for ch in str(text) if ch not in NUMBER_CHARS_DROPPED)


def first_number(text: str) -> Number | None:
    """The first number of the cleaned text: int without a dot, float with one; ``.5`` gives None."""
    groups = _NUMBER.findall(clean_number_text(text))
    if not groups or groups[0][0] == "":
        return None
    found: str = groups[0][0]
    if "." in found:
        return float(found)
    try:
        return int(found)
    except ValueError as error:  # more digits than int() reads (sys.get_int_max_str_digits)
        raise OfficialAbort(f"int() refuses the number in {text[:40]!r}: {error}") from None


def is_number(text: str) -> bool:
    """True when the first cleaned word reads as a float (not NaN) and a second word, if any, is a scale."""
    words = " ".join(clean_number_text(word) for word in text.split()).split()
    if not words:
        return False
    try:
        value = float(words[0])
    except ValueError:
        return False
    if math.isnan(value):
        return False
    return not (len(words) >= 2 and scale_to_num(words[1]) == 1)


def accounting_sign(text: str) -> int:
    """-1 when the text holds brackets around digits, dots and spaces only (``(134)``), else 1."""
    return -1 if _ACCOUNTING.findall(text.strip()) else 1


def percent_factor(text: str) -> float | int:
    """0.01 when digits, dots or spaces stand right before a ``%``, else 1."""
    return 0.01 if _PERCENT.findall(text.strip()) else 1


def word_scale(text: str) -> float | int:
    """The scale of the first ``number word`` in the text (``1.5 million``), else 1."""
    match = _WORD_SCALE.search(text)
    return scale_to_num(match.group(0).lower()) if match else 1


def to_number(text: str) -> Number | None:
    """The official ``to_number``: first number x word scale x accounting sign x percent, rounded to 4 places."""
    number = first_number(text)
    scale = word_scale(text)
    sign = accounting_sign(text)
    percent = percent_factor(text)
    if number is None:
        return None
    return round(number * scale * sign * percent, 4)


def remove_punctuation(text: str) -> str:
    """Drop ASCII punctuation unless the text reads as a number."""
    if is_number(text):
        return text
    return "".join(ch for ch in text if ch not in PUNCTUATION)


def normalize_number(text: str) -> str:
    """``str(to_number(text))`` for a number (``'None'`` when no digits can be read), else the text."""
    return str(to_number(text)) if is_number(text) else text


def normalize_answer(text: str) -> str:
    """Per space-separated token: lower, punctuation, number, articles, white space; then joined."""
    parts = []
    for token in text.split(" "):
        part = normalize_number(remove_punctuation(token.lower()))
        part = " ".join(_ARTICLES.sub(" ", part).split())
        if part.strip():
            parts.append(part)
    return " ".join(parts).strip()


def four_places(value: Number) -> str:
    """``'%.4f' % value``; an int too large for a float aborts the official script."""
    try:
        return "%.4f" % value
    except OverflowError as error:
        raise OfficialAbort(f"'%.4f' cannot format a number of {plural(len(str(value)), 'digit')}: {error}") from None


def format_number(value: Number, scale: Any) -> str:
    """``'%.4f' % (round(value, 2) * scale_to_num(scale))``: how every numeric answer is compared."""
    return four_places(round(value, 2) * scale_to_num(scale))


def answer_string(answers: list[Any], scale: Any) -> str:
    """The official ``get_answer_str``: the answers sorted, each read (number, ``%`` form, or text plus
    scale word) and joined by one space into one string."""
    try:
        ordered = sorted(answers)
    except TypeError as error:
        raise OfficialAbort(f"the answers cannot be sorted: {error}") from None
    shown = []
    for answer in ordered:
        text = str(answer)
        if is_number(text):
            number = to_number(text)
            if number is None:
                if scale:
                    text = text + " " + str(scale)
            elif "%" in text:
                text = four_places(number)
            else:
                text = format_number(number, scale)
        elif scale:
            text = text + " " + str(scale)
        shown.append(text)
    return " ".join(shown)


def percent_alternative(answers: list[Any], scale: Any) -> str | None:
    """The official ``add_percent_pred``: a lone number predicted with no scale and no ``%`` is also
    compared as ``'%.4f' % to_number(it)`` (so 0.0667 matches 6.67 percent)."""
    if len(answers) > 1:
        return None
    text = str(answers[0])
    if not scale and "%" not in text and is_number(text):
        number = to_number(text)
        if number is not None:
            return four_places(number)
    return None


__all__ = ["OfficialAbort", "scale_to_num", "clean_number_text", "first_number", "is_number", "accounting_sign",
           "percent_factor", "word_scale", "to_number", "remove_punctuation", "normalize_number",
           "normalize_answer", "four_places", "format_number", "answer_string", "percent_alternative", "Number"]
