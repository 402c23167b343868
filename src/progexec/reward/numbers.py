"""Reading one final-answer text as a number or a yes/no, by the written rule of docs/reward.md.

The text must hold exactly one number and be short (at most :data:`MAX_PROSE_WORDS` other words,
and no negation such as ``not``). Its sign (``-``, the minus signs and dashes of :mod:`.forms`, a
parenthesised amount), thousands separators, a currency mark, ``%`` (divides by 100), basis points
(by 10,000) and a scale word (thousand, million, billion, trillion, ``MM``, or an attached
``k``/``m``/``bn``) are read; the forms of :mod:`.forms` (powers, fractions, ``× 10^k``, spaced
thousands) are rewritten to digits first. The unscaled number is kept so a caller can tell a scale
mismatch from a wrong answer. Every pattern here is linear in the text's length.
"""

from __future__ import annotations

import enum
import math
import re
from dataclasses import dataclass

from ..core.limits import current, DEFAULT_LIMITS
from .forms import REFUSED, latex_fractions, rewrite, unify_signs
from .markup import unmarked
from .scan import fold

MIN_ROUNDING_DIGITS = 3
"""A number written with at least this many significant digits may be the gold rounded to its precision."""

MAX_PROSE_WORDS = DEFAULT_LIMITS.max_prose_words
"""An answer holds its number and at most this many other words (unit, currency and scale words not counted)."""


_NUMBER = re.compile(
    r"(?<![\w.])(?:\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d{1,3}(?!\d))?")
_PERCENT = re.compile(r"\s*(?:%|percent\b|per\s+cent\b|percentage\s+points?\b|pct\b)", re.IGNORECASE)
_BASIS_POINTS = re.compile(r"\s*(?:basis\s+points?|bps?)\b", re.IGNORECASE)
_SCALE_WORD = re.compile(r"\s*(thousands?|millions?|billions?|trillions?|bn|mn)\b", re.IGNORECASE)
_SCALE_CAPS = re.compile(r"\s*(MM|K)\b")
"""``MM`` (finance's million) and ``K`` also after a space (``$3.5 MM``, ``5 K``); lower case only attached."""
_SCALE_SUFFIX = re.compile(r"(k|m|b|mm)\b", re.IGNORECASE)
# Sign and parentheses are looked for in at most _AROUND characters either side of the number, with
# whitespace collapsed first, so these patterns never scan a long run of spaces.
_AROUND = DEFAULT_LIMITS.number_context_chars
_PREFIX = re.compile(r"(\(?) ?([-+]?) ?(?:US\$|USD|EUR|GBP|[$€£¥])? ?([-+]?) ?$")
_CLOSE = re.compile(r" ?(?:US\$|USD|EUR|GBP|dollars?|[$€£¥])? ?\)")
_YES_NO = re.compile(r"^[\W_]*(yes|no)\b", re.IGNORECASE)
_YES_OR_NO = re.compile(r"\b(?:yes|no)\b[ \t]*(?:/|\bor\b|\band\b)[ \t]*(?:yes|no)\b", re.IGNORECASE)
"""Both values offered: ``yes or no``, ``yes/no`` (``Yes, no change`` is a yes)."""
_LETTER_ALONE = re.compile(r"[(\[]?([a-e])[)\]]?[.:]?|([a-e]) ?\).*", re.IGNORECASE | re.DOTALL)
_LETTER_NAMED = re.compile(r"\b(?:option|choice)[ \t]*[:#]?[ \t]*\(?([a-e])\b\)?|\(([a-e])\)", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z]+")
_SPACES = re.compile(r"\s+")
COMPARISON = re.compile(r"!=|<=|>=|==|=/=|<>|[≠≤≥]|\\(?:neq?|leq?|geq?|leqslant|geqslant)(?![A-Za-z])")
"""A comparison makes an answer a statement, not a value: ``6 != 5`` is unreadable, never its right-hand 5."""
_MALFORMED = re.compile(r"\.[0-9]")
"""A number followed by ``.`` and a digit (``1,234.5.6``, ``1.2.3``) is malformed: no answer, not its first part."""
UNIT_WORDS = frozenset({"thousand", "thousands", "million", "millions", "billion", "billions", "trillion",
                         "trillions", "bn", "mn", "mm", "k", "m", "b", "percent", "per", "cent", "percentage", "point",
                         "points", "pct", "basis", "bp", "bps", "usd", "us", "eur", "gbp", "dollar", "dollars"})
_NEGATIONS = frozenset({"not", "never", "cannot", "can", "isn", "aren", "wasn", "weren", "doesn", "don", "didn",
                        "unknown", "unclear", "unable", "insufficient", "na", "none", "neither", "nor"})
"""Words that make an answer a statement about the number rather than the number (``not 257``, ``N/A``)."""
_SENTENCE_END = re.compile(r"[.!?](?=\s+[A-Z(\[]|\s*$)|;|\n")
"""Where the answer's sentence ends: a full stop (``!``, ``?``) before a capital, a bracket or the end;
a semicolon; a line break."""

SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "bn": 1e9, "mn": 1e6,
          "mm": 1e6, "k": 1e3, "m": 1e6, "b": 1e9}
BASIS_POINT = 1e-4
"""The factor of a basis point (``50 bps`` is 0.005)."""

_REPLACEMENTS = (
    ("\u00a0", " "), ("\u202f", " "), ("\u2009", " "), ("\u2007", " "), ("\uff05", "%"), ("\\times", "×"),
    ("\\cdot", "·"), ("**", ""), ("`", ""), ("\\%", "%"), ("\\$", "$"), ("\\,", ""), ("\\!", ""), ("{,}", ","),
    ("\\textbf", ""), ("\\text", ""), ("\\mathrm", ""), ("\\mathbf", ""), ("\\left", ""), ("\\right", ""),
    ("{", ""), ("}", ""),
)

_ASCII_MARKUP = frozenset("*`\\{}")
"""The ASCII characters some old text of :data:`_REPLACEMENTS` holds: an ASCII text without them is left as it is."""


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
    hedge: bool = False
    """True when a later sentence offered another value (``5. It might also be 6.``): refused wherever it stands."""


def normalise(text: str) -> str:
    """Drop zero-width characters and struck-out text (:mod:`.markup`), unify minus signs, dashes and spaces,
    mark powers, drop Markdown emphasis and simple LaTeX markup."""
    text = unmarked(text)
    if text.isascii():  # no minus sign, dash or superscript to unify, and only ASCII markup to drop
        if "**" in text:
            text = unify_signs(text)
        if "frac" in text:
            text = latex_fractions(text)
        if _ASCII_MARKUP.isdisjoint(text):
            return text
    else:
        text = latex_fractions(unify_signs(text))
    for old, new in _REPLACEMENTS:
        text = text.replace(old, new)
    return text


def answer_span(text: str) -> str:
    """The part of an answer text that states the answer (see :func:`split_answer`)."""
    return split_answer(text)[0]


def split_answer(text: str) -> tuple[str, list[str]]:
    """The answer's first sentence, after its last ``=``/``≈`` (``3.8 / 35.1 = 0.1083``) unless it holds a
    :data:`COMPARISON`, and the later sentences of the text, in order (read for hedges: ``5. Or 6.``). A
    sentence ends at :data:`_SENTENCE_END`, so a later clause's ``=`` never replaces the answer."""
    text = normalise(text)
    end = _SENTENCE_END.search(text)
    first, rest = (text, "") if end is None else (text[:end.start()], text[end.end():])
    for mark in ("=", "\u2248"):
        if mark in first and not COMPARISON.search(first):
            first = first.rsplit(mark, 1)[1]
    later = [sentence.strip() for sentence in _SENTENCE_END.split(rest)]
    return first.strip().rstrip(".").strip(), [sentence for sentence in later if sentence]


def read_answer(text: str, letters: bool = False) -> Reading:
    """Read an answer span (see :func:`answer_span`) as a yes/no, exactly one number, or (when
    ``letters``, for MathQA) an option letter standing alone (``c``, ``(c)``, ``c )``) or named
    (``option c``, ``The correct option is (c)``)."""
    if letters:
        letter = _letter(text)
        if letter is not None:
            return letter
    yes_no = _YES_NO.match(text)
    if yes_no is not None:
        if _YES_OR_NO.search(text):
            return Reading(ReadKind.MANY, text, count=2)  # "yes or no"
        return Reading(ReadKind.BOOLEAN, text, fold(yes_no.group(1)) == "yes")
    plain = rewrite(text)
    if REFUSED in plain or COMPARISON.search(plain):
        return Reading(ReadKind.NOTHING, text)
    matches = []
    for match in _NUMBER.finditer(plain):
        matches.append(match)
        if len(matches) > 1:
            break
    if not matches or _MALFORMED.match(plain, matches[0].end()):
        return Reading(ReadKind.NOTHING, text)
    if len(matches) > 1:
        return Reading(ReadKind.MANY, text, count=count_numbers(plain))
    words = [word.group(0).lower() for word in _WORD.finditer(plain)]
    others = sum(1 for word in words if word not in UNIT_WORDS)
    if others > current().max_prose_words or "n/a" in plain.lower() or any(word in _NEGATIONS for word in words):
        return Reading(ReadKind.PROSE, text, count=others)
    return _number(plain, matches[0], text)


_PLAIN = re.compile(r"[ \t]*(-?\$?([0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?|[0-9]+(?:\.[0-9]+)?)%?)[ \t]*")
"""A span that is nothing but one plain number: a minus, a dollar, ASCII digits (thousands by commas), a
``%``, spaces around."""


def read_plain(span: str) -> Reading | None:
    """The reading :func:`answer_span` then :func:`read_answer` give a span that is one plain number (see
    :data:`_PLAIN`), read without their other steps, none of which changes such a span (it is ASCII without
    markup, one sentence with nothing before an ``=``, no hedge, letter, yes/no, form, comparison or word);
    None for any other span."""
    plain = _PLAIN.fullmatch(span)
    if plain is None:
        return None
    text, digits = plain.group(1), plain.group(2)
    limits = current()
    if len(digits) > limits.max_number_chars or limits.number_context_chars < 2:  # as _number reads it
        number = _NUMBER.search(text)
        return None if number is None or number.group(0) != digits else _number(text, number, text)
    # _number on this shape: the sign is a leading minus (before its dollar), the factor a trailing %
    magnitude = float(digits.replace(",", ""))
    raw = -magnitude if text[0] == "-" else magnitude
    if text[-1] == "%":
        factor, value = 0.01, raw / 100.0
    else:
        factor, value = 1.0, raw * 1.0
    if not math.isfinite(value):
        return Reading(ReadKind.NOTHING, text)
    return Reading(ReadKind.NUMBER, text, value, raw, factor, 1, _half_unit(digits, factor))


def _letter(text: str) -> Reading | None:
    alone = _LETTER_ALONE.fullmatch(text)
    if alone is not None:
        return Reading(ReadKind.LETTER, text, (alone.group(1) or alone.group(2)).lower())
    named = {(match.group(1) or match.group(2)).lower() for match in _LETTER_NAMED.finditer(text)}
    if len(named) == 1:
        return Reading(ReadKind.LETTER, text, named.pop())
    if len(named) > 1:
        return Reading(ReadKind.MANY, text, count=len(named))
    return None


def _collapse(text: str) -> str:
    """Every whitespace run as one space (kept at the ends, so adjacency to the number is kept)."""
    return _SPACES.sub(" ", text)


def count_numbers(text: str) -> int:
    """How many numbers the text holds, counting no further than ``max_counted_numbers`` (:class:`~progexec.limits.Limits`)."""
    count = 0
    for count, _ in enumerate(_NUMBER.finditer(text), start=1):
        if count > current().max_counted_numbers:
            break
    return count


def _number(text: str, match: re.Match[str], written: str) -> Reading:
    """The one number ``match`` of ``text`` read with its sign, ``%`` or scale word; the reading shows ``written``
    (the answer as written; an unreadable number shows ``text``)."""
    digits = match.group(0)
    limits = current()
    if len(digits) > limits.max_number_chars:
        return Reading(ReadKind.NOTHING, text)
    magnitude = float(digits.replace(",", ""))
    start = match.start()
    before = text[max(0, start - limits.number_context_chars):start]
    negative = opened = False  # nothing before the number: no sign, no parenthesis
    if before:
        prefix = _PREFIX.search(_collapse(before))
        negative = prefix is not None and "-" in (prefix.group(2) + prefix.group(3))
        opened = prefix is not None and prefix.group(1) == "("
    factor, rest = _factor(text[match.end():])
    if opened:
        close = _CLOSE.match(_collapse(rest[:limits.number_context_chars]))
        if close is not None:
            negative = True
            if factor == 1.0:  # "(4.5) million": the scale word after the parenthesis
                factor, _ = _factor(_collapse(rest[:limits.number_context_chars])[close.end():])
    raw = -magnitude if negative else magnitude
    # % divides, as the official str_to_num does (and basis points by 10,000), so 12.5% is exactly 0.125
    value = raw / 100.0 if factor == 0.01 else raw / 10_000.0 if factor == BASIS_POINT else raw * factor
    if not math.isfinite(value):
        return Reading(ReadKind.NOTHING, text)
    return Reading(ReadKind.NUMBER, written, value, raw, factor, 1, _half_unit(digits, factor))


def _factor(rest: str) -> tuple[float, str]:
    """The ``%`` (0.01) or scale word (1e3, 1e6, ...) opening ``rest``, and what follows it."""
    if not rest:
        return 1.0, rest
    percent = _PERCENT.match(rest)
    if percent is not None:
        return 0.01, rest[percent.end():]
    basis = _BASIS_POINTS.match(rest)
    if basis is not None:
        return BASIS_POINT, rest[basis.end():]
    scale = _SCALE_WORD.match(rest) or _SCALE_CAPS.match(rest) or _SCALE_SUFFIX.match(rest)
    if scale is not None:
        word = fold(scale.group(1))  # as the case-insensitive match read it: "millionſ" is "millions"
        return SCALES[word if word == "mm" else word.rstrip("s")], rest[scale.end():]
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
