"""Reading one final-answer text as a number or a yes/no, by the written rule of docs/reward.md.

The text must hold exactly one number and be short (at most :data:`MAX_PROSE_WORDS` other words,
and no negation such as ``not``). Its sign (``-``, U+2212, a parenthesised amount), thousands
separators, a currency mark, ``%`` (divides by 100) and a scale word (thousand, million, billion,
trillion, or an attached ``k``/``m``/``bn``) are read; the unscaled number is kept so a caller can
tell a scale mismatch from a wrong answer. Every pattern here is linear in the text's length.
"""

from __future__ import annotations

import enum
import math
import re
from dataclasses import dataclass

MIN_ROUNDING_DIGITS = 3
"""A number written with at least this many significant digits may be the gold rounded to its precision."""

MAX_PROSE_WORDS = 6
"""An answer holds its number and at most this many other words (unit, currency and scale words not counted)."""

MAX_NUMBER_CHARS = 64
# bound: MAX_NUMBER_CHARS = 64 — a number written with more characters is unreadable, never parsed
MAX_COUNTED = 100
# bound: MAX_COUNTED = 100 — numbers counted in a refused list (its reason says "more than 100" beyond)

_NUMBER = re.compile(
    r"(?<![\w.])(?:\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d{1,3}(?!\d))?")
_PERCENT = re.compile(r"\s*(?:%|percent\b|per\s+cent\b|percentage\s+points?\b)", re.IGNORECASE)
_SCALE_WORD = re.compile(r"\s*(thousands?|millions?|billions?|trillions?|bn|mn)\b", re.IGNORECASE)
_SCALE_SUFFIX = re.compile(r"(k|m|b)\b", re.IGNORECASE)
# Sign and parentheses are looked for in at most _AROUND characters either side of the number, with
# whitespace collapsed first, so these patterns never scan a long run of spaces.
_AROUND = 16
_PREFIX = re.compile(r"(\(?) ?([-+]?) ?(?:US\$|USD|EUR|GBP|[$€£¥])? ?([-+]?) ?$")
_CLOSE = re.compile(r" ?(?:US\$|USD|EUR|GBP|dollars?|[$€£¥])? ?\)")
_YES_NO = re.compile(r"^[\W_]*(yes|no)\b", re.IGNORECASE)
_LETTER = re.compile(r"^(?:option[ \t]+)?\(?([a-e])\)?(?=$|[\s).,:])", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z]+")
_UNIT_WORDS = frozenset({"thousand", "thousands", "million", "millions", "billion", "billions", "trillion",
                         "trillions", "bn", "mn", "k", "m", "b", "percent", "per", "cent", "percentage", "point",
                         "points", "usd", "us", "eur", "gbp", "dollar", "dollars"})
_NEGATIONS = frozenset({"not", "never", "cannot", "can", "isn", "aren", "wasn", "weren", "doesn", "don", "didn",
                        "unknown", "unclear", "unable", "insufficient", "na", "none", "neither", "nor"})
"""Words that make an answer a statement about the number rather than the number (``not 257``, ``N/A``)."""
_SENTENCE_END = re.compile(r"\.(?=\s+[A-Z(]|\s*$)|;|\n")

SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "bn": 1e9, "mn": 1e6,
          "k": 1e3, "m": 1e6, "b": 1e9}

_REPLACEMENTS = (
    ("\u2212", "-"), ("\u2013", "-"), ("\u00a0", " "), ("\u202f", " "), ("\u2009", " "),
    ("**", ""), ("`", ""), ("\\%", "%"), ("\\$", "$"), ("\\,", ""), ("\\!", ""), ("{,}", ","),
    ("\\textbf", ""), ("\\text", ""), ("\\mathrm", ""), ("\\mathbf", ""), ("\\left", ""), ("\\right", ""),
    ("{", ""), ("}", ""),
)


class ReadKind(enum.Enum):
    """What an answer text turned out to hold."""

    NUMBER = "number"
    BOOLEAN = "boolean"
    LETTER = "letter"
    NOTHING = "nothing"
    MANY = "many"
    PROSE = "prose"


@dataclass(frozen=True, slots=True)
class Reading:
    """One answer text read: ``value`` is the number (scale and ``%`` applied), the yes/no as a bool,
    or a MathQA option letter.

    ``raw`` is the signed number as written, before ``%`` or a scale word; ``factor`` is what was
    applied (1.0 when nothing was); ``count`` is how many numbers the text holds; ``half_unit`` is
    half a unit of the last written digit, in the value's scale, when the number is written with at
    least :data:`MIN_ROUNDING_DIGITS` significant digits and no exponent (else None).
    """

    kind: ReadKind
    text: str
    value: float | bool | str | None = None
    raw: float | None = None
    factor: float = 1.0
    count: int = 0
    half_unit: float | None = None


def normalise(text: str) -> str:
    """Unify minus signs and spaces, drop Markdown emphasis and simple LaTeX markup."""
    for old, new in _REPLACEMENTS:
        text = text.replace(old, new)
    return text


def answer_span(text: str) -> str:
    """The part of an answer text that states the answer: after the last ``=``/``≈``, up to the sentence's end."""
    text = normalise(text)
    for mark in ("=", "\u2248"):
        if mark in text:
            text = text.rsplit(mark, 1)[1]
    end = _SENTENCE_END.search(text)
    if end is not None:
        text = text[:end.start()]
    return text.strip().rstrip(".").strip()


def read_answer(text: str, letters: bool = False) -> Reading:
    """Read an answer span (see :func:`answer_span`) as a yes/no, exactly one number, or (when
    ``letters``, for MathQA) an option letter ``a``-``e`` standing first."""
    if letters:
        letter = _LETTER.match(text)
        if letter is not None:
            return Reading(ReadKind.LETTER, text, letter.group(1).lower())
    yes_no = _YES_NO.match(text)
    if yes_no is not None:
        return Reading(ReadKind.BOOLEAN, text, yes_no.group(1).lower() == "yes")
    matches = []
    for match in _NUMBER.finditer(text):
        matches.append(match)
        if len(matches) > 1:
            break
    if not matches:
        return Reading(ReadKind.NOTHING, text)
    if len(matches) > 1:
        return Reading(ReadKind.MANY, text, count=count_numbers(text))
    words = [word.group(0).lower() for word in _WORD.finditer(text)]
    others = sum(1 for word in words if word not in _UNIT_WORDS)
    if others > MAX_PROSE_WORDS or "n/a" in text.lower() or any(word in _NEGATIONS for word in words):
        return Reading(ReadKind.PROSE, text, count=others)
    return _number(text, matches[0])


def _collapse(text: str) -> str:
    """Every whitespace run as one space (kept at the ends, so adjacency to the number is kept)."""
    return re.sub(r"\s+", " ", text)


def count_numbers(text: str) -> int:
    """How many numbers the text holds, counting no further than :data:`MAX_COUNTED`."""
    count = 0
    for count, _ in enumerate(_NUMBER.finditer(text), start=1):
        if count > MAX_COUNTED:
            break
    return count


def _number(text: str, match: re.Match[str]) -> Reading:
    digits = match.group(0)
    if len(digits) > MAX_NUMBER_CHARS:
        return Reading(ReadKind.NOTHING, text)
    magnitude = float(digits.replace(",", ""))
    prefix = _PREFIX.search(_collapse(text[max(0, match.start() - _AROUND):match.start()]))
    negative = prefix is not None and "-" in (prefix.group(2) + prefix.group(3))
    factor, rest = _factor(text[match.end():])
    if prefix is not None and prefix.group(1) == "(":
        close = _CLOSE.match(_collapse(rest[:_AROUND]))
        if close is not None:
            negative = True
            if factor == 1.0:  # "(4.5) million": the scale word after the parenthesis
                factor, _ = _factor(_collapse(rest[:_AROUND])[close.end():])
    raw = -magnitude if negative else magnitude
    value = raw / 100.0 if factor == 0.01 else raw * factor  # % divides, as the official str_to_num does
    if not math.isfinite(value):
        return Reading(ReadKind.NOTHING, text)
    return Reading(ReadKind.NUMBER, text, value, raw, factor, 1, _half_unit(digits, factor))


def _factor(rest: str) -> tuple[float, str]:
    """The ``%`` (0.01) or scale word (1e3, 1e6, ...) opening ``rest``, and what follows it."""
    percent = _PERCENT.match(rest)
    if percent is not None:
        return 0.01, rest[percent.end():]
    scale = _SCALE_WORD.match(rest) or _SCALE_SUFFIX.match(rest)
    if scale is not None:
        return SCALES[scale.group(1).lower().rstrip("s")], rest[scale.end():]
    return 1.0, rest


def _half_unit(digits: str, factor: float) -> float | None:
    """Half a unit of the last written digit (scaled), or None below MIN_ROUNDING_DIGITS or with an exponent."""
    if "e" in digits or "E" in digits:
        return None
    plain = digits.replace(",", "")
    whole, _, fraction = plain.partition(".")
    significant = (whole + fraction).lstrip("0")
    if len(significant) < MIN_ROUNDING_DIGITS:
        return None
    return 0.5 * 10.0 ** -len(fraction) * factor


def read_gold(answer: str | float | bool, letters: bool = False) -> float | bool | str | None:
    """The gold answer as a number, a yes/no or (``letters``) an option letter; a string is read by
    the same rule as an answer (None when it holds no single value)."""
    if isinstance(answer, (bool, float)):
        return answer
    reading = read_answer(answer_span(answer), letters)
    if reading.kind in (ReadKind.NUMBER, ReadKind.BOOLEAN, ReadKind.LETTER):
        return reading.value
    return None
