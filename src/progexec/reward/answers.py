"""Choosing the one final answer of a completion from its spans, refusing lists and disagreements.

The boxed spans decide when there are any, else the marker spans, else the bare last line.
Spans holding no number and no yes/no are skipped; the last remaining deciding span decides — a
list of numbers there is ``many_candidates``, a sentence around one number ``prose`` — and every
single-valued span, boxed or marked, must give the same value, else ``multiple_answers``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .extract import Found
from .model import RewardStatus
from .numbers import MAX_COUNTED, Reading, ReadKind, answer_span, count_numbers, read_answer

MAX_SPAN_CHARS = 2_000
# bound: MAX_SPAN_CHARS = 2_000 — an answer span (a marked line, a box) longer than this is refused unread

_REFUSED = {ReadKind.MANY: RewardStatus.MANY_CANDIDATES, ReadKind.PROSE: RewardStatus.PROSE}


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
    deciding = found.boxed or found.marked or ((found.bare,) if found.bare is not None else ())
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
    others = [_read(span, letters) for span in found.marked] if found.boxed else []
    values = {_key(reading) for reading in readable + others
              if reading.kind not in _REFUSED and reading.kind is not ReadKind.NOTHING}
    if len(values) > 1:
        return Choice(None, RewardStatus.MULTIPLE_ANSWERS, last.text, str(len(values)))
    return Choice(last, extracted=last.text)


def _read(span: str, letters: bool) -> Reading:
    if len(span) > MAX_SPAN_CHARS:  # longer than any plain answer: refused, only its numbers counted
        count = count_numbers(span)
        return Reading(ReadKind.MANY if count > 1 else ReadKind.PROSE, span, count=count)
    return read_answer(answer_span(span), letters)


def _key(reading: Reading) -> tuple[str, float | bool | str | None]:
    """What two spans must share to be one answer: the kind and the value (a float to 12 digits, so
    ``10.83%`` and ``0.1083`` agree despite the division's last bit)."""
    value = reading.value
    if isinstance(value, float):
        value = float(f"{value:.12g}")
    return (reading.kind.value, value)
