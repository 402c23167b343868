"""Scoring from any source: a path, ``-``, an embedded corpus name, or records in memory (a notebook's lists).

:func:`score_sources` is what ``progexec.score(gold, predictions)`` calls. Records in memory are
read by the very readers a file is read by (they are written, as one JSON document, to a private
temporary directory under a fixed name, so ids given by position are ``gold-N`` /
``predictions-N`` and nothing depends on the machine), so a list and the file holding it score alike.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Union

from ..core.errors import ProgexecError, InputError
from ..core.item import Item
from ..core.limits import Limits, using
from .loading import gold_item, load_gold, load_predictions
from .results import GoldItem, Prediction, ScoreReport

GoldSource = Union[str, Path, Sequence[Any]]
"""A gold path, ``-`` or corpus name (``finqa:test``); or a list of dataset records (FinQA, ConvFinQA,
MathQA items, or ``{"id", "program", "exe_ans", "table"?}``), of :class:`~progexec.Item` or of
:class:`GoldItem`."""
PredictionSource = Union[str, Path, Sequence[Any], Mapping[str, Any]]
"""A predictions path or ``-``; or a list of prediction records (``{"id", "predicted"}``,
``{"id", "answer"}``, ...), of :class:`Prediction`, or ConvFinQA's ``{key: [records]}``."""


def score_sources(gold: GoldSource, predictions: PredictionSource, scorers: Sequence[str] = ("official",),
                  limits: Limits | None = None) -> ScoreReport:
    """Score predictions against gold, each a path (or corpus name) or records in memory.

    Raises :class:`ProgexecError` (a ``InputError``) for inputs that cannot be scored: no usable
    prediction, no shared id, swapped inputs, answer-only predictions under a program scorer.
    """
    from .scoring import check_inputs, resolve_scorers, score_predictions

    try:
        names = resolve_scorers(list(scorers))
    except KeyError as error:
        raise ProgexecError(f"unknown scorer {error.args[0]!r}") from None
    with using(limits):
        gold_items, gold_name = gold_of(gold)
        preds, pred_name = predictions_of(predictions)
        check_inputs(gold_items, preds, names, gold_name, pred_name)
        return score_predictions(gold_items, preds, names, gold_name, pred_name)


def gold_of(gold: GoldSource) -> tuple[list[GoldItem], str]:
    """The gold items of a source, and the name messages give it (the path, or ``gold records``)."""
    if isinstance(gold, (str, Path)):
        return load_gold(str(gold)), str(gold)
    records = list(gold)
    if records and all(isinstance(record, GoldItem) for record in records):
        return records, "records in memory"
    if records and all(isinstance(record, Item) for record in records):
        return [gold_item(record) for record in records], "records in memory"
    return _through_file(records, "gold.json", load_gold), "records in memory"


def predictions_of(predictions: PredictionSource) -> tuple[list[Prediction], str]:
    """The predictions of a source, and the name messages give it."""
    if isinstance(predictions, (str, Path)):
        return load_predictions(str(predictions)), str(predictions)
    if isinstance(predictions, Mapping):
        return _through_file(dict(predictions), "predictions.json", load_predictions), "records in memory"
    records = list(predictions)
    if records and all(isinstance(record, Prediction) for record in records):
        return records, "records in memory"
    return _through_file(records, "predictions.json", load_predictions), "records in memory"


def _through_file(value: Any, name: str, load: Any) -> Any:
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise InputError(f"the {name.split('.')[0]} records are not JSON data: {error}") from None
    with tempfile.TemporaryDirectory(prefix="progexec-score-") as directory:
        path = Path(directory) / name
        path.write_text(text, encoding="utf-8")
        try:
            return load(str(path))
        except InputError as error:
            raise InputError(str(error).replace(str(path), f"the {name.split('.')[0]} records")) from None
