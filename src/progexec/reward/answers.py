"""Choosing the one final answer of a completion from its spans, refusing lists and disagreements.

The ``<answer>`` tag spans decide when there are any, else the boxed spans, else the marker
spans, else the bare last line. Spans holding no number and no yes/no are skipped; the last
remaining deciding span decides — a list of numbers there is ``many_candidates``, a sentence
around one number ``prose`` — and every single-valued span, tagged, boxed or marked, must give
the same value, else ``multiple_answers``. A hedge anywhere among them (``5. Or 6.``, ``6 or 7``
on an earlier answer line) is ``many_candidates`` whatever its order.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.limits import current, DEFAULT_LIMITS
from .extract import Found
from .model import RewardStatus
import re

from .numbers import (UNIT_WORDS, Reading, ReadKind, answer_span, count_numbers, read_answer, read_plain,
                      split_answer)


_REFUSED = {ReadKind.MANY: RewardStatus.MANY_CANDIDATES, ReadKind.PROSE: RewardStatus.PROSE}
_VALUES = (ReadKind.NUMBER, ReadKind.BOOLEAN, ReadKind.LETTER)

MAX_LIST_WORDS = DEFAULT_LIMITS.max_list_words
"""An answer span with several values and at most this many other words (connectors, units and
currency aside) is a list or a disjunction (``6 or 7``, ``5, 6 and 7``), a hedge wherever it stands."""
_HEDGE_WORDS = ("or", "alternatively", "maybe", "perhaps", "possibly", "possible", "could", "might", "otherwise",
                "else", "either", "instead")
"""A later sentence holding one of these (or ``if not``) and another value is a hedge (``5. It could be 6.``,
``5. If not, 6.``)."""
_HEDGE_PHRASES = "|".join((*_HEDGE_WORDS, r"if[ \t]+not"))
_HEDGE_START = re.compile(rf"[\W_]*(?:{_HEDGE_PHRASES})\b", re.IGNORECASE)
_HEDGE = re.compile(rf"\b(?:{_HEDGE_PHRASES})\b", re.IGNORECASE)
_CONNECTORS = frozenset({"and", "also", "yes", "no", *_HEDGE_WORDS})
_WORD = re.compile(r"[A-Za-z]+")


@dataclass(frozen=True, slots=True)
class Choice:
    """The chosen reading, or the refusal status with what was seen (``count`` for the template)."""

    reading: Reading | None
    status: RewardStatus | None = None
    extracted: str | None = None
    count: str = ""


def choose(found: Found, letters: bool = False) -> Choice | None:
    """The completion's final answer; None when it has no answer span at all.

    ``letters`` also reads a MathQA option letter (``c``, ``(c)``) as an answer.
    """
    if found.tagged is not None:
        deciding, others = found.tagged, found.boxed + found.marked
    else:
        deciding = found.boxed or found.marked or ((found.bare,) if found.bare is not None else ())
        others = found.marked if found.boxed else ()
    if not deciding:
        return None
    readings = [_read(span, letters) for span in deciding]
    readable = [reading for reading in readings if reading.kind is not ReadKind.NOTHING]
    if not readable:
        return Choice(None, RewardStatus.UNREADABLE, readings[-1].text)
    last = readable[-1]
    if last.kind is ReadKind.MANY or last.kind is ReadKind.PROSE:  # the kinds of _REFUSED
        count = str(last.count) if last.count <= current().max_counted_numbers else f"more than {current().max_counted_numbers}"
        return Choice(None, _REFUSED[last.kind], last.text, count)
    every = readable + [_read(span, letters) for span in others]
    hedge = next((reading for reading in every
                  if reading.kind is ReadKind.MANY and (reading.hedge or _is_list(reading.text))), None)
    if hedge is not None:
        return Choice(None, RewardStatus.MANY_CANDIDATES, hedge.text, str(hedge.count))
    if len(every) > 1:  # one reading is one value
        values = {_key(reading) for reading in every if reading.kind in _VALUES}
        if len(values) > 1:
            return Choice(None, RewardStatus.MULTIPLE_ANSWERS, last.text, str(len(values)))
    return Choice(last, extracted=last.text)


def _read(span: str, letters: bool) -> Reading:
    """A span's reading. One line: its first sentence (after its last ``=``), refused as a list when
    a later sentence hedges with another value (``5. Or 6.``). Several lines (a tag's content, or a
    marker line followed by hedge lines): the last line holding a value, the other lines checked
    the same way."""
    if len(span) > current().max_span_chars:  # longer than any plain answer: refused, only its numbers counted
        count = count_numbers(span)
        return Reading(ReadKind.MANY if count > 1 else ReadKind.PROSE, span, count=count)
    plain = read_plain(span)  # the common answer, one plain number, read without the general steps
    if plain is not None:
        return plain
    lines = [line for line in span.split("\n") if line.strip()]
    if len(lines) < 2:
        first, later = split_answer(span)
        return _hedged(read_answer(_unhedged(first), letters), first, later, letters)
    readings = [read_answer(_unhedged(split_answer(line)[0]), letters) for line in lines]
    chosen = max((index for index, reading in enumerate(readings) if reading.kind is not ReadKind.NOTHING),
                 default=len(lines) - 1)
    others = [sentence for index, line in enumerate(lines) if index != chosen for sentence in
              (split_answer(line)[0], *split_answer(line)[1])] + split_answer(lines[chosen])[1]
    return _hedged(readings[chosen], lines[chosen], others, letters)


def _hedged(reading: Reading, shown: str, others: list[str], letters: bool) -> Reading:
    """``reading``, or MANY when one of ``others`` is a hedge (it holds a hedge word, or is nothing
    but a value) giving another value, or a list."""
    if reading.kind not in _VALUES:
        return reading
    key = _key(reading)
    for sentence in others:
        if not (_HEDGE.search(sentence) or _is_bare(sentence)):
            continue
        other = read_answer(_unhedged(answer_span(sentence)), letters)
        if (other.kind in _VALUES and _key(other) != key) or (other.kind is ReadKind.MANY and _is_list(sentence)):
            return Reading(ReadKind.MANY, f"{shown.strip()} {sentence}", count=max(2, other.count), hedge=True)
    return reading


def _unhedged(text: str) -> str:
    """The text without a hedge word opening it (``Or 6`` is read as ``6``)."""
    opening = _HEDGE_START.match(text)
    return (text if opening is None else text[opening.end():]).strip().rstrip(".").strip()


def _is_bare(sentence: str) -> bool:
    """A sentence that is nothing but a value: one number with its units, or a yes/no."""
    return not [word for word in _WORD.findall(sentence) if word.lower() not in _CONNECTORS] \
        or bool(re.fullmatch(r"[\W_]*(?:yes|no)[\W_]*", sentence, re.IGNORECASE))


def _is_list(text: str) -> bool:
    """Several values with at most :data:`MAX_LIST_WORDS` other words: a list or a disjunction."""
    words = [word.lower() for word in _WORD.findall(text)]
    return sum(1 for word in words if word not in _CONNECTORS and word not in UNIT_WORDS) <= current().max_list_words


def _key(reading: Reading) -> tuple[str, float | bool | str | None]:
    """What two spans must share to be one answer: the kind and the value (a float to 12 digits, so
    ``10.83%`` and ``0.1083`` agree despite the division's last bit)."""
    value = reading.value
    if isinstance(value, float):
        value = float(f"{value:.12g}")
    return (reading.kind.value, value)
