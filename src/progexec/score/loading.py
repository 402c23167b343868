"""Reading gold and predictions for scoring.

Gold: a FinQA dataset file, a ConvFinQA conversation or turn file (read by
:func:`progexec.inputs.load_items`), or an embedded corpus name such as
``finqa:test``, ``finqa:dev``, ``convfinqa:dev`` (no file at run time).

Predictions, as JSON (a list, or ConvFinQA's ``{key: [n-best records]}`` of which,
as in its evaluator, only the first of each list is read) or JSON Lines, one record
per item, in order, duplicates kept:

* ``{"id", "predicted": [tokens..., "EOF"]}`` — the official format;
* ``{"id", "predicted": "subtract(5829, 5735)"}`` (or ``program``/``pred_prog``) —
  program text, tokenized exactly as the official ``program_tokenization``;
* ``{"id", "answer": "<model text>"}`` (or ``completion``/``predicted_answer``) —
  free text for the answer scorers.

A record may carry both a program and an answer. ``record_id`` + ``turn_idx``
name a ConvFinQA turn as ``<record_id>_<turn_idx>``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..corpus import FINQA_SPLITS, convfinqa_items, finqa_items
from ..grammar.tokens import official_tokenize
from ..inputs import INVALID_UNICODE_ERROR, InputError, Item, detect_format, holds_invalid_unicode, load_items, read_text
from .model import GoldItem, Prediction

CORPUS_NAMES = ("finqa", "finqa:test", "finqa:dev", "finqa:train", "convfinqa", "convfinqa:dev", "convfinqa:train")
"""Embedded gold sets accepted by ``--gold``."""

_PROGRAM_KEYS = ("predicted", "program", "pred_prog", "predicted_program")
_ANSWER_KEYS = ("answer", "completion", "predicted_answer", "output")


class ScoreInputError(ValueError):
    """A gold or prediction source cannot be used as a whole."""


def _gold_from_item(item: Item, answers: dict[str, str]) -> GoldItem:
    tokens: tuple[str, ...] | None = None
    text: str | None = None
    if isinstance(item.program, str):
        text = item.program
        tokens = tuple(official_tokenize(item.program))
    elif isinstance(item.program, list):
        tokens = tuple(item.program)
    gold = item.gold if item.has_gold else None
    return GoldItem(item.id, tokens, item.table, gold, answers.get(item.id), item.dialect, text, item.error)


def _finqa_answers(path: Path) -> dict[str, str]:
    """``qa.answer`` by id for FinQA-format files (absent from the embedded corpus and the shared copies)."""
    try:
        data = json.loads(read_text(path))
    except (InputError, json.JSONDecodeError, RecursionError):
        return {}
    if detect_format(data) != "finqa":
        return {}
    answers: dict[str, str] = {}
    for item in data:
        if isinstance(item, dict) and isinstance(item.get("qa"), dict):
            answer = item["qa"].get("answer")
            if isinstance(answer, (str, int, float)) and not isinstance(answer, bool) and item.get("id"):
                answers[str(item["id"])] = str(answer)
    return answers


def load_gold(source: str) -> list[GoldItem]:
    """Gold items from a corpus name (see :data:`CORPUS_NAMES`) or a file path."""
    if source in CORPUS_NAMES:
        name, _, split = source.partition(":")
        if name == "finqa":
            items: Iterable[Item] = finqa_items((split,) if split else FINQA_SPLITS)
        else:
            items = convfinqa_items((split,) if split else ("dev", "train"))
        return [_gold_from_item(item, {}) for item in items]
    path = Path(source)
    try:
        items = load_items(path)
    except InputError as error:
        raise ScoreInputError(str(error)) from None
    return [_gold_from_item(item, _finqa_answers(path)) for item in items]


def _as_tokens(raw: Any) -> tuple[tuple[str, ...] | None, str | None]:
    if isinstance(raw, str):
        return tuple(official_tokenize(raw)), None
    if isinstance(raw, list) and all(isinstance(token, str) for token in raw):
        return tuple(raw), None
    if raw is None:
        return None, None
    return None, f"the program must be a string or a list of strings, not {type(raw).__name__}"


def _prediction(record: Any, position: int) -> Prediction:
    if not isinstance(record, dict):
        return Prediction("", None, None, position, "the record is not a JSON object")
    if holds_invalid_unicode(record):
        return Prediction("", None, None, position, INVALID_UNICODE_ERROR)
    raw_id = record.get("id")
    if raw_id is None and "record_id" in record and "turn_idx" in record:
        raw_id = f"{record['record_id']}_{record['turn_idx']}"
    if raw_id is None or isinstance(raw_id, (dict, list)):
        return Prediction("", None, None, position, "the record has no usable id")
    program = next((record[key] for key in _PROGRAM_KEYS if key in record), None)
    tokens, error = _as_tokens(program)
    answer = next((record[key] for key in _ANSWER_KEYS if record.get(key) is not None), None)
    text = None if answer is None else str(answer)
    if tokens is None and text is None and error is None:
        error = "the record has neither a program nor an answer"
    program_text = program if isinstance(program, str) else None
    return Prediction(str(raw_id), tokens, text, position, error, program_text)


def _records(data: Any) -> list[Any]:
    if isinstance(data, list):
        return data
    if isinstance(data, dict):
        if "id" in data:
            return [data]
        values = list(data.values())
        if values and all(isinstance(value, list) for value in values):
            # ConvFinQA's evaluator reads {key: [best, second, ...]} and scores only the first of each list
            return [value[0] for value in values if value]
    raise ScoreInputError("predictions must be a JSON list of records, a {key: [records]} object, or JSON Lines")


def load_predictions(source: str) -> list[Prediction]:
    """Predictions from a file, in file order; unreadable records become Predictions with ``error``."""
    try:
        text = read_text(Path(source))
    except InputError as error:
        raise ScoreInputError(str(error)) from None
    try:
        records = _records(json.loads(text))
    except json.JSONDecodeError:
        records = []
        for number, line in enumerate(text.split("\n"), start=1):  # not splitlines: U+2028 may sit in a string
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except (json.JSONDecodeError, RecursionError):
                records.append(f"line {number} is not JSON (or is nested too deeply)")
    except RecursionError:
        raise ScoreInputError(f"{source}: JSON nested too deeply") from None
    return [_prediction(record, position) for position, record in enumerate(records)]
