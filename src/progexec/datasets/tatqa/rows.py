"""TAT-QA's rows builder (:class:`progexec.rows.RowsSpec`): every question of a context to a training Example
with the gold record the reward core scores by TAT-QA's rules."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ...reward import Policy
from ...rows import Example, RowsSpec
from ...core.errors import InputError
from .data import questions_of, read_questions

def _tatqa(value: Mapping[str, Any], where: str, fallback: str) -> Iterator[Example]:
    """Every question of one TAT-QA context: its paragraphs as the passage, its table, the gold record
    ``{dialect: tatqa, answer, scale, answer_type}`` the reward core scores by TAT-QA's rules."""
    stem, _, number = fallback.rpartition("-")
    for question in questions_of(value, where, stem, int(number) + 1 if number.isdigit() else 1):
        if question.error is not None:
            raise InputError(f"{question.where}: {question.error}")
        yield _tatqa_example(question)


def _tatqa_example(question: Any) -> Example:
    scale = question.scale if question.scale is not None else ""
    if question.answer is None or scale not in ("", "thousand", "million", "billion", "percent"):
        raise InputError(f"{question.where} ({question.uid}): no usable gold (answer {question.answer!r}, "
                        f"scale {scale!r})")
    gold = {"answer": question.answer, "table": [list(row) for row in question.table], "dialect": "tatqa",
            "scale": scale, "answer_type": question.answer_type}
    text = question.raw.get("question")
    return Example(question.uid, "tatqa", text if isinstance(text, str) else None, gold,
                   pre_text="\n".join(question.paragraphs))


def _corpus(name: str) -> Iterator[Example]:
    """The embedded TAT-QA files are the official files: passages and questions included."""
    corpus, _, split = name.partition(":")
    for index, question in enumerate(read_questions(name)):
        if question.error is not None:
            raise InputError(f"{name}: {question.where}: {question.error}")
        example = _tatqa_example(question)
        yield Example(example.id, example.dialect, example.question, example.gold, split, index,
                      pre_text=example.pre_text)


INSTRUCTIONS = {Policy.NUMERIC: "Give the final answer on a line starting 'Answer:', with its scale when it has one "
                               "(thousand, million, billion or %), for example 'Answer: 1,496.5 million'."}
"""TAT-QA's answers are not programs: every policy takes its numeric instruction."""

TATQA_ROWS = RowsSpec("tatqa", lambda value: isinstance(value.get("questions"), list)
                      and ("paragraphs" in value or "table" in value), _tatqa, INSTRUCTIONS, "progexec/tatqa",
                      "finance", corpus=_corpus)

__all__ = ["TATQA_ROWS"]
