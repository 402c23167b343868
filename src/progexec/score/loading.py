"""Reading gold and predictions for scoring.

Gold: a FinQA dataset file, a ConvFinQA conversation or turn file, ``-``, or an embedded corpus
name such as ``finqa:test``, ``finqa:dev``, ``convfinqa:dev`` — all read once, as a stream, by
:func:`progexec.readers.read`.

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

from typing import Any

from ..corpus import CORPUS_NAMES
from ..core.errors import InputError
from ..grammar.tokens import official_tokenize
from ..core.item import Item
from ..inputkinds import GOLD, PREDICTIONS
from ..readers import INVALID_UNICODE_ERROR, Record, read, read_records
from .results import GoldItem, Prediction

_PROGRAM_KEYS = ("predicted", "program", "pred_prog", "predicted_program")
_ANSWER_KEYS = ("answer", "completion", "predicted_answer", "output")


LOOKS_LIKE_GOLD = "the record is a dataset item (it has qa or annotation), not a prediction"


def gold_item(item: Item) -> GoldItem:
    """The scoring view of one gold Item: official tokens, table, ``exe_ans`` and ``qa.answer``."""
    tokens: tuple[str, ...] | None = None
    text: str | None = None
    if isinstance(item.program, str):
        text = item.program
        tokens = tuple(official_tokenize(item.program))
    elif isinstance(item.program, list):
        tokens = tuple(item.program)
    gold = item.gold if item.has_gold else None
    return GoldItem(item.id, tokens, item.table, gold, item.answer, item.dialect.name, text, item.error)


def load_gold(source: str) -> list[GoldItem]:
    """Gold items from a corpus name (see :data:`CORPUS_NAMES`), a file path or ``-``, read once."""
    try:
        return [gold_item(item) for item in read(source, wanted=GOLD)]
    except InputError as error:
        raise InputError(str(error)) from None


def _as_tokens(raw: Any) -> tuple[tuple[str, ...] | None, str | None]:
    if isinstance(raw, str):
        return tuple(official_tokenize(raw)), None
    if isinstance(raw, list) and all(isinstance(token, str) for token in raw):
        return tuple(raw), None
    if raw is None:
        return None, None
    return None, f"the program must be a string or a list of strings, not {type(raw).__name__}"


def _prediction(record: Any, position: int, where: str) -> Prediction:
    if not isinstance(record, dict):
        return Prediction("", None, None, position, f"{where} is not a JSON object")
    raw_id = record.get("id")
    if raw_id is None and "record_id" in record and "turn_idx" in record:
        raw_id = f"{record['record_id']}_{record['turn_idx']}"
    if raw_id is None or isinstance(raw_id, (dict, list)):
        return Prediction("", None, None, position, f"{where} has no usable id")
    program = next((record[key] for key in _PROGRAM_KEYS if key in record), None)
    tokens, error = _as_tokens(program)
    answer = next((record[key] for key in _ANSWER_KEYS if record.get(key) is not None), None)
    text = None if answer is None else str(answer)
    if tokens is None and text is None and error is None:
        error = "the record has neither a program nor an answer"
        if "qa" in record or "annotation" in record:
            error = LOOKS_LIKE_GOLD
    program_text = program if isinstance(program, str) else None
    return Prediction(str(raw_id), tokens, text, position, error and f"{where}: {error}", program_text)


def _values(records: list[Record]) -> list[tuple[Any, str, str | None]]:
    """(value, where, error) per prediction; ConvFinQA's ``{key: [n-best]}`` document gives its firsts."""
    if len(records) == 1 and records[0].error is None and isinstance(records[0].value, dict) \
            and not {"id", "record_id"} & set(records[0].value):
        data = records[0].value
        if isinstance(data, dict):
            values = list(data.values())
            if values and all(isinstance(value, list) for value in values):
                # ConvFinQA's evaluator reads {key: [best, second, ...]} and scores only the first of each list
                return [(value[0], f"entry {key!r}", None) for key, value in data.items() if value]
            raise InputError("predictions must be a JSON list of records, a {key: [records]} object, "
                                  "or JSON Lines")
    return [(record.value, record.where, record.error) for record in records]


def load_predictions(source: str) -> list[Prediction]:
    """Predictions from a file or ``-``, in file order; unreadable records become Predictions with ``error``."""
    try:
        records = list(read_records(source, wanted=PREDICTIONS))
    except InputError as error:
        raise InputError(str(error)) from None
    predictions = []
    for position, (value, where, problem) in enumerate(_values(records)):
        if problem is not None:
            predictions.append(Prediction("", None, None, position, problem))
        else:
            predictions.append(_prediction(value, position, where))
    return predictions


__all__ = ["CORPUS_NAMES", "gold_item", "load_gold", "load_predictions", "INVALID_UNICODE_ERROR"]
