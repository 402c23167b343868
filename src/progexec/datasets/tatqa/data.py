"""Reading TAT-QA's official files: the dataset (contexts of questions) and the prediction file.

A dataset file is a JSON list of contexts ``{table: {uid, table}, paragraphs: [...], questions: [...]}``;
each question carries ``uid``, ``answer``, ``answer_type``, ``answer_from``, ``scale`` and
``derivation``. The prediction file is one JSON object ``{uid: [answer, scale]}``, read whole as the
official ``json.load`` does (a repeated uid: the last one counts). Both are read through
:func:`progexec.readers.open_source` (paths, ``-``, gzip by magic bytes, BOM, ``max_input_bytes``)
or, for ``tatqa:dev`` / ``tatqa:test``, from the embedded copies of the official files.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from ...core.errors import ProgexecError, InputError
from ...core.limits import Limits, current
from ...readers import CHUNK_CHARS, TextSource, iter_json_list, open_source

CORPORA = {"tatqa:dev": "tatqa_dev.json.gz", "tatqa:test": "tatqa_test.json.gz"}
"""Embedded corpus name -> package data file (the official files, gzipped byte for byte)."""


@dataclass(frozen=True, slots=True)
class Question:
    """One TAT-QA question with its context. ``raw`` is the question object as the file holds it (what the
    official scorer reads); ``error`` says why a record could not be used (then only ``uid`` is set)."""

    uid: str
    raw: Mapping[str, Any] = field(default_factory=dict)
    table: tuple[tuple[str, ...], ...] = ()
    paragraphs: tuple[str, ...] = ()
    where: str = ""
    error: str | None = None

    @property
    def answer_type(self) -> Any:
        return self.raw.get("answer_type")

    @property
    def answer_from(self) -> Any:
        return self.raw.get("answer_from")

    @property
    def scale(self) -> Any:
        return self.raw.get("scale")

    @property
    def answer(self) -> Any:
        return self.raw.get("answer")

    @property
    def derivation(self) -> Any:
        return self.raw.get("derivation")


def is_tatqa_context(value: Any) -> bool:
    """True for a TAT-QA context record (a list of ``questions`` beside ``paragraphs`` or ``table``)."""
    return isinstance(value, dict) and isinstance(value.get("questions"), list) and (
        "paragraphs" in value or "table" in value)


def _table(raw: Any) -> tuple[tuple[str, ...], ...]:
    inner = raw.get("table") if isinstance(raw, dict) else raw
    if not isinstance(inner, list):
        return ()
    return tuple(tuple(str(cell) for cell in row) for row in inner if isinstance(row, list))


def _paragraphs(raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, list):
        return ()
    return tuple(str(entry.get("text", "")) if isinstance(entry, dict) else str(entry) for entry in raw)


def questions_of(context: Any, where: str, stem: str, number: int) -> Iterator[Question]:
    """The questions of one context record, in file order; an unusable record is one Question with ``error``."""
    if not is_tatqa_context(context):
        yield Question(f"{stem}-{number - 1}", where=where, error=f"{where} is not a TAT-QA context "
                       "(an object with questions and paragraphs or table)")
        return
    table, paragraphs = _table(context.get("table")), _paragraphs(context.get("paragraphs"))
    for index, question in enumerate(context["questions"]):
        at = f"{where} question {index + 1}"
        if not isinstance(question, dict) or "uid" not in question:
            yield Question(f"{stem}-{number - 1}-{index}", where=at, error=f"{at} is not a question with a uid")
            continue
        yield Question(str(question["uid"]), question, table, paragraphs, at)


def _corpus_source(name: str, limits: Limits) -> TextSource:
    try:
        raw = resources.files("progexec.data").joinpath(CORPORA[name]).read_bytes()
    except FileNotFoundError:
        raise InputError(f"embedded corpus {name} is missing; run scripts/build_tatqa_corpus.py") from None
    return TextSource(io.BufferedReader(io.BytesIO(raw)), name, limits)


def open_tatqa(source: str | Path, limits: Limits | None = None) -> TextSource:
    """A TAT-QA source: an embedded corpus name, a path or ``-``."""
    chosen = limits or current()
    if str(source) in CORPORA:
        return _corpus_source(str(source), chosen)
    return open_source(source, chosen)


def read_questions(source: str | Path, limits: Limits | None = None) -> Iterator[Question]:
    """Every question of a TAT-QA dataset file (or ``tatqa:dev`` / ``tatqa:test``), streamed in file order."""
    chosen = limits or current()
    opened = open_tatqa(source, chosen)
    try:
        stem = Path(opened.name).name.split(".")[0] or "stdin"
        for record in iter_json_list(opened, chosen):
            if record.error is not None:
                yield Question(f"{stem}-{record.number - 1}", where=record.where, error=record.error)
                continue
            yield from questions_of(record.value, record.where, stem, record.number)
    finally:
        opened.close()


def read_predictions(source: str | Path, limits: Limits | None = None) -> Any:
    """The prediction file's JSON value, read whole as the official ``json.load`` reads it."""
    chosen = limits or current()
    opened = open_tatqa(source, chosen)
    try:
        text = "".join(iter(lambda: opened.read(CHUNK_CHARS), ""))
    finally:
        opened.close()
    try:
        return json.loads(text)
    except RecursionError:
        raise InputError(f"{opened.name}: nested too deeply to read") from None
    except json.JSONDecodeError as error:
        raise InputError(f"{opened.name}: not JSON ({error.msg} at line {error.lineno}, column {error.colno}); "
                         "the official scorer's json.load fails too") from None
    except ValueError as error:
        raise InputError(f"{opened.name}: cannot be read ({error}); the official scorer's json.load fails too") from None


def is_tatqa_source(source: str | Path, limits: Limits | None = None) -> bool:
    """True for ``tatqa:dev`` / ``tatqa:test`` or a file whose first list element is a TAT-QA context."""
    if str(source) in CORPORA:
        return True
    if str(source) == "-":
        return False  # standard input is read once: the generic readers detect TAT-QA there
    try:
        opened = open_tatqa(source, limits)
    except (InputError, ProgexecError):
        return False
    try:
        head = opened.peek(1 << 16).lstrip(" \t\r\n")
    except ProgexecError:
        return False
    finally:
        opened.close()
    if not head.startswith("["):
        return False
    decoder = json.JSONDecoder()
    try:
        first, _ = decoder.raw_decode(head, 1 + (len(head[1:]) - len(head[1:].lstrip(" \t\r\n"))))
    except ValueError:
        return '"questions"' in head[:65536] and '"paragraphs"' in head[:65536]
    return is_tatqa_context(first)


__all__ = ["CORPORA", "Question", "is_tatqa_context", "questions_of", "open_tatqa", "read_questions",
           "read_predictions", "is_tatqa_source"]
