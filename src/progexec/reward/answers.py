"""Choosing the one final answer of a completion from its spans, refusing lists and disagreements.

The boxed spans are used when there are any, else the marker spans, else the bare last line.
Spans holding no number and no yes/no are skipped; the last remaining span decides — a list of
numbers there is ``many_candidates``, a sentence around one number ``prose`` — and every
single-valued span must give the same value, else ``multiple_answers``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .extract import Found
from .model import RewardStatus
from .numbers import MAX_COUNTED, Reading, ReadKind, answer_span, read_answer


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
    spans = found.boxed or found.marked or ((found.bare,) if found.bare is not None else ())
    if not spans:
        return None
    readings = [read_answer(answer_span(span), letters) for span in spans]
    readable = [reading for reading in readings if reading.kind is not ReadKind.NOTHING]
    if not readable:
        return Choice(None, RewardStatus.UNREADABLE, readings[-1].text)
    last = readable[-1]
    if last.kind in _REFUSED:
        count = str(last.count) if last.count <= MAX_COUNTED else f"more than {MAX_COUNTED}"
        return Choice(None, _REFUSED[last.kind], last.text, count)
    values = {_key(reading) for reading in readable if reading.kind not in _REFUSED}
    if len(values) > 1:
        return Choice(None, RewardStatus.MULTIPLE_ANSWERS, last.text, str(len(values)))
    return Choice(last, extracted=last.text)


def _key(reading: Reading) -> tuple[str, float | bool | str | None]:
    return (reading.kind.value, reading.value)
