"""TAT-QA questions as the spine's Items: the dataset's reader and the embedded corpora.

One Item per question, in file order: id = ``uid``, ``program`` = the derivation of an arithmetic
question (None for the other types, which are counted, not executed), ``gold`` = the answer when it
is a number, ``record`` = the question object as the file holds it (with its context's table and
paragraphs under ``_table`` / ``_paragraphs``), dialect ``tatqa``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ...core.dataset import Dataset

from ...core.item import Item, bad_item
from .data import Question, questions_of, read_questions

if TYPE_CHECKING:
    from ...readers import Record




def question_item(question: Question, dataset: Dataset) -> Item:
    """The Item of one question (a bad_input Item when the record could not be used)."""
    if question.error is not None:
        return bad_item(question.uid, question.error, question.where, dataset)
    raw = question.raw
    answer = raw.get("answer")
    gold = _number(answer)
    derivation = raw.get("derivation")
    program = derivation if raw.get("answer_type") == "arithmetic" and isinstance(derivation, str) else None
    record = {**raw, "_table": [list(row) for row in question.table], "_paragraphs": list(question.paragraphs)}
    return Item(question.uid, program, None, gold, gold is not None, source=question.where, dialect=dataset,
                answer=str(answer) if gold is not None or isinstance(answer, str) else None, record=record)


def _number(answer: Any) -> float | None:
    if isinstance(answer, bool) or not isinstance(answer, (int, float)):
        return None
    try:
        return float(answer)
    except OverflowError:
        return None


def record_items(record: Record, stem: str, dataset: Dataset) -> Iterator[Item]:
    """The reader of one context record (the TAT-QA dataset's ``reader``)."""
    if record.error is not None:
        yield bad_item(f"{stem}-{record.number - 1}", record.error, record.where, dataset)
        return
    for question in questions_of(record.value, record.where, stem, record.number):
        yield question_item(question, dataset)


def corpus_items(name: str, dataset: Dataset) -> Iterator[Item]:
    """The Items of ``tatqa:dev`` or ``tatqa:test``."""
    for question in read_questions(name):
        yield question_item(question, dataset)


def question_of(item: Item) -> dict[str, Any]:
    """The question object an Item carries (without the context fields)."""
    return {key: value for key, value in (item.record or {}).items() if not key.startswith("_")}


def is_arithmetic(item: Item) -> bool:
    return item.error is None and question_of(item).get("answer_type") == "arithmetic"


__all__ = ["question_item", "record_items", "corpus_items", "question_of", "is_arithmetic"]
