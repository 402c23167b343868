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

from .extract import Found
from .model import RewardStatus
import re

from .numbers import MAX_COUNTED, UNIT_WORDS, Reading, ReadKind, count_numbers, read_answer, split_answer

MAX_SPAN_CHARS = 2_000
# bound: MAX_SPAN_CHARS = 2_000 — an answer span (a marked line, a box) longer than this is refused unread

_REFUSED = {ReadKind.MANY: RewardStatus.MANY_CANDIDATES, ReadKind.PROSE: RewardStatus.PROSE}
_VALUES = (ReadKind.NUMBER, ReadKind.BOOLEAN, ReadKind.LETTER)

MAX_LIST_WORDS = 2
"""An answer span with several values and at most this many other words (connectors, units and
currency aside) is a list or a disjunction (``6 or 7``, ``5, 6 and 7``), a hedge wherever it stands."""
_HEDGE_START = re.compile(r"[\W_]*(?:or|alternatively|maybe|perhaps|possibly|otherwise|else|either)\b",
                          re.IGNORECASE)
_CONNECTORS = frozenset({"or", "and", "either", "maybe", "perhaps", "possibly", "alternatively", "otherwise",
                         "else", "yes", "no"})
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
    if last.kind in _REFUSED:
        count = str(last.count) if last.count <= MAX_COUNTED else f"more than {MAX_COUNTED}"
        return Choice(None, _REFUSED[last.kind], last.text, count)
    every = readable + [_read(span, letters) for span in others]
    hedge = next((reading for reading in every if reading.kind is ReadKind.MANY and _is_list(reading.text)), None)
    if hedge is not None:
        return Choice(None, RewardStatus.MANY_CANDIDATES, hedge.text, str(hedge.count))
    values = {_key(reading) for reading in every if reading.kind in _VALUES}
    if len(values) > 1:
        return Choice(None, RewardStatus.MULTIPLE_ANSWERS, last.text, str(len(values)))
    return Choice(last, extracted=last.text)


def _read(span: str, letters: bool) -> Reading:
    """A span's reading: its first sentence (after its last ``=``); a later sentence that hedges with
    another value (``Or 6.``, a bare ``6``) makes it a list of two values (MANY)."""
    if len(span) > MAX_SPAN_CHARS:  # longer than any plain answer: refused, only its numbers counted
        count = count_numbers(span)
        return Reading(ReadKind.MANY if count > 1 else ReadKind.PROSE, span, count=count)
    first, later = split_answer(span)
    reading = read_answer(first, letters)
    if reading.kind not in _VALUES:
        return reading
    key = _key(reading)
    for sentence in later:
        if not (_HEDGE_START.match(sentence) or _is_bare(sentence)):
            continue
        other = read_answer(_HEDGE_START.sub("", sentence, count=1).strip().rstrip(".").strip(), letters)
        if other.kind in _VALUES and _key(other) != key or other.kind is ReadKind.MANY:
            return Reading(ReadKind.MANY, f"{first}. {sentence}", count=2)
    return reading


def _is_bare(sentence: str) -> bool:
    """A sentence that is nothing but a value: one number with its units, or a yes/no."""
    return not [word for word in _WORD.findall(sentence) if word.lower() not in _CONNECTORS] \
        or bool(re.fullmatch(r"[\W_]*(?:yes|no)[\W_]*", sentence, re.IGNORECASE))


def _is_list(text: str) -> bool:
    """Several values with at most :data:`MAX_LIST_WORDS` other words: a list or a disjunction."""
    words = [word.lower() for word in _WORD.findall(text)]
    return sum(1 for word in words if word not in _CONNECTORS and word not in UNIT_WORDS) <= MAX_LIST_WORDS


def _key(reading: Reading) -> tuple[str, float | bool | str | None]:
    """What two spans must share to be one answer: the kind and the value (a float to 12 digits, so
    ``10.83%`` and ``0.1083`` agree despite the division's last bit)."""
    value = reading.value
    if isinstance(value, float):
        value = float(f"{value:.12g}")
    return (reading.kind.value, value)
