"""The evaluation documents shared by the harness integrations: one prompt and one gold per item.

A document is a flat dict of strings (so a ``datasets.Dataset`` holds it): ``id``, ``prompt``,
``target`` (the gold program, code or answer text, for few-shot examples) and ``gold`` (JSON text
that :mod:`progexec.integrations.judge` reads back). Gold values come from progexec's own readers,
so a document's gold is what ``progexec score`` uses for the same id.
"""

from __future__ import annotations

import enum
import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from ..core.registry import dataset_names, get_dataset
from ..corpus import CORPUS_NAMES
from ..core.errors import InputError
from ..core.table import Table
from ..core.item import Item
from ..readers import read, read_records


class TaskKind(enum.Enum):
    """What a task asks the model for, and so how its completion is judged."""

    PROGRAM = "program"          # a FinQA / ConvFinQA program: official execution and program accuracy
    ANSWER = "answer"            # a final answer: the reward core's numeric policy
    MATHQA_PYTHON = "mathqa_python"  # a MathQA-Python snippet: run in the sandbox, its ``answer`` compared
    TATQA_ANSWER = "tatqa_answer"  # a TAT-QA answer and scale: the official TAT-QA EM and F1


@dataclass(frozen=True, slots=True)
class TaskSpec:
    """One shipped task: its name, kind, dialect and default source."""

    name: str
    kind: TaskKind
    dialect: str
    default_source: str


TASKS: dict[str, TaskSpec] = {spec.name: spec for spec in (
    TaskSpec("progexec_finqa_program", TaskKind.PROGRAM, "finqa", "finqa:test"),
    TaskSpec("progexec_convfinqa_program", TaskKind.PROGRAM, "convfinqa", "convfinqa:dev"),
    TaskSpec("progexec_finqa_answer", TaskKind.ANSWER, "finqa", "finqa:test"),
    TaskSpec("progexec_convfinqa_answer", TaskKind.ANSWER, "convfinqa", "convfinqa:dev"),
    TaskSpec("progexec_mathqa_python", TaskKind.MATHQA_PYTHON, "mathqa", "mathqa:test"),
    TaskSpec("progexec_tatqa_answer", TaskKind.TATQA_ANSWER, "tatqa", "tatqa:test"),
)}
"""Every task the integrations ship, by its harness name."""

LOGGER = logging.getLogger(__name__)

PROGRAM_INSTRUCTION = ("Write the {dialect} program that answers the last question, on one line, for example "
                       "subtract(5829, 5735), divide(#0, 5735)")
ANSWER_INSTRUCTION = "Answer the last question. End with a line 'Answer: <number or yes/no>'."


def _table_text(table: Table | None) -> str:
    return "\n".join(" | ".join(row) for row in table or [])


def _questions(source: str) -> dict[str, str]:
    """Question text (with earlier turns for ConvFinQA) by item id, read from a dataset file; none for a corpus."""
    if source in CORPUS_NAMES:
        return {}  # an embedded corpus: its records keep programs and tables, not questions
    questions: dict[str, str] = {}
    for record in read_records(source):
        value = record.value
        if not isinstance(value, Mapping) or not isinstance(value.get("id"), str):
            continue
        qa = value.get("qa")
        if isinstance(qa, Mapping) and isinstance(qa.get("question"), str):
            questions[value["id"]] = qa["question"]
        annotation = value.get("annotation")
        turns = annotation.get("dialogue_break") if isinstance(annotation, Mapping) else None
        if isinstance(turns, list):
            for index, question in enumerate(turns):
                history = "".join(f"Q: {earlier}\n" for earlier in turns[:index])
                questions[f"{value['id']}_{index}"] = f"{history}Q: {question}"
    return questions


def _context(item: Item, question: str) -> str:
    parts = ["Table:", _table_text(item.table)]
    if question:
        parts += ["", question if question.startswith("Q: ") else f"Q: {question}"]
    return "\n".join(parts)


def finqa_docs(source: str, kind: TaskKind, dialect: str) -> list[dict[str, str]]:
    """FinQA or ConvFinQA documents from an embedded corpus name or a dataset file, in source order.

    Items without a usable gold (a reading error, no ``exe_ans``) are left out; the embedded corpora
    hold none. Raises InputError when an item is of another dialect or nothing is left.
    """
    questions = _questions(source)
    docs: list[dict[str, str]] = []
    for item in read(source):
        if item.dialect.name != dialect:
            raise InputError(f"{source}: item {item.id!r} is {item.dialect.name}, the task needs {dialect}")
        if item.error is not None or not item.has_gold or item.program is None:
            continue
        context = _context(item, questions.get(item.id, ""))
        if kind is TaskKind.PROGRAM:
            prompt = f"{context}\n{PROGRAM_INSTRUCTION.format(dialect=dialect)}.\nProgram:"
            target = item.program_text
        else:
            prompt = f"{context}\n{ANSWER_INSTRUCTION}\n"
            target = f"Answer: {item.gold}"
        gold = {"id": item.id, "program": item.program, "table": item.table, "exe_ans": item.gold,
                "answer": item.answer, "dialect": dialect}
        docs.append({"id": item.id, "prompt": prompt, "target": target, "gold": json.dumps(gold)})
    if not docs:
        raise InputError(f"{source}: no {dialect} item with a gold program and answer")
    if not questions:
        LOGGER.warning("%s holds no question text: the prompts show only the table (fit for checking a "
                       "pipeline, not for measuring a model); pass the dataset file instead", source)
    return docs


def mathqa_python_docs(source: str) -> list[dict[str, str]]:
    """MathQA-Python documents (the items ``progexec mathqa-python`` keeps) of an embedded split ``mathqa:SPLIT``."""
    from ..datasets.mathqa.corpus import mathqa_records
    from ..datasets.mathqa.python_gen import translate_all

    corpus, _, split = source.partition(":")
    if not split or corpus not in dataset_names() or not get_dataset(corpus).option_letters:
        raise InputError(f"{source!r}: MathQA-Python documents come from mathqa:test, mathqa:dev or "
                        "mathqa:challenge_test")
    try:
        records = mathqa_records(split)
    except ValueError as error:
        raise InputError(str(error)) from None
    return [{"id": item.id, "prompt": f"{item.text}\n", "target": item.code,
             "gold": json.dumps({"id": item.id, "answer": item.answer})}
            for item in translate_all(records)]


def task_docs(task: str, source: str | None = None, limit: int | None = None) -> list[dict[str, str]]:
    """The documents of a shipped task (see :data:`TASKS`), from ``source`` or the task's default, at most ``limit``."""
    spec = TASKS.get(task)
    if spec is None:
        raise InputError(f"unknown task {task!r}; one of {', '.join(TASKS)}")
    where = source or spec.default_source
    if spec.kind is TaskKind.TATQA_ANSWER:
        from ..datasets.tatqa.harness import tatqa_docs

        docs = tatqa_docs(where)
        return docs if limit is None else docs[:limit]
    docs = (mathqa_python_docs(where) if spec.kind is TaskKind.MATHQA_PYTHON
            else finqa_docs(where, spec.kind, spec.dialect))
    return docs if limit is None else docs[:limit]


__all__ = ["TASKS", "TaskKind", "TaskSpec", "task_docs", "finqa_docs", "mathqa_python_docs"]
