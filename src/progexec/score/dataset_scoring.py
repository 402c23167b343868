"""Scoring with a dataset's own scorer (MultiHiertt's ``evaluate.py``, MathQA's, ...): which dataset scores a
gold source, and the run over raw gold and prediction records read through the one reader registry.

``progexec score`` calls these and writes what they return; a library caller gets the same record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.dataset import DatasetScore, Dialect
from ..core.errors import InputError
from ..core.limits import Limits, using
from ..core.registry import corpus_names, get_dataset
from ..readers import detect_format, read_records
from ..records import FORMAT_VERSION

__all__ = ["DatasetRun", "dataset_scorer", "score_with_dataset"]


@dataclass(frozen=True)
class DatasetRun:
    """One run of a dataset's own scorer: its result, the ``--json`` record, and one record per question."""

    dataset: Dialect
    result: DatasetScore
    record: dict[str, Any]
    questions: list[dict[str, Any]]


def _values(source: str, what: str) -> list[Any]:
    """Every record of ``source`` (a path, ``-``, or an embedded split such as ``mathqa:test``); an unreadable
    one is kept as None (listed by the scorer). InputError names ``what`` (``--gold``/``--pred``) and the source."""
    corpus = _corpus_dataset(source)
    if corpus is not None and corpus.gold_records is not None:
        return list(corpus.gold_records(source))
    values: list[Any] = []
    try:
        for record in read_records(source):
            values.append(record.value if record.error is None else None)
    except InputError as error:
        raise InputError(f"{what}: {error}") from None
    if len(values) == 1 and isinstance(values[0], list):  # a top-level list read as one document
        return list(values[0])
    return values


def _corpus_dataset(source: str) -> Dialect | None:
    """The dataset of an embedded corpus name whose own scorer reads its gold records (``mathqa:test``), or None."""
    if source not in corpus_names():
        return None
    try:
        dataset = get_dataset(source.partition(":")[0])
    except ValueError:
        return None
    return dataset if dataset.score is not None and dataset.gold_records is not None else None


def dataset_scorer(gold: str, name: str | None = None) -> Dialect | None:
    """The dataset whose own scorer scores ``gold``: ``name`` when it has one, else the embedded corpus's, else
    the gold file's format when that names a dataset with its own scorer (a MultiHiertt file); None for the
    FinQA scorers."""
    if name is None and _corpus_dataset(gold) is not None:
        name = gold.partition(":")[0]
    if name is not None:
        dataset = get_dataset(name)
        return dataset if dataset.score is not None else None
    if gold == "-":
        return None
    try:
        first = next(iter(read_records(gold)), None)
    except InputError:
        return None
    value = first.value if first is not None else None
    if isinstance(value, list):
        value = value[0] if value else None
    found = detect_format(value)
    if found == "programs" and isinstance(value, dict) and isinstance(value.get("dialect"), str):
        found = value["dialect"]  # program records of a dataset with its own scorer (MathQA): that scorer
    if found is None:
        return None
    try:
        dataset = get_dataset(found)
    except ValueError:
        return None
    return dataset if dataset.score is not None else None


def score_with_dataset(dataset: Dialect, gold: str, pred: str, limits: Limits,
                       meta: dict[str, Any] | None = None) -> DatasetRun:
    """Score ``pred`` against ``gold`` with ``dataset``'s own scorer under ``limits``; InputError when either
    source cannot be read or holds no record."""
    if dataset.score is None:
        raise ValueError(f"{dataset.name} has no scorer of its own")
    with using(limits):
        gold_values = _values(gold, "--gold")
        predictions = _values(pred, "--pred")
        if not gold_values:
            raise InputError(f"{gold}: no gold records")
        if not predictions:
            raise InputError(f"{pred}: no prediction records")
        result = dataset.score(gold_values, predictions)
    record = {"format_version": FORMAT_VERSION, **({"meta": meta} if meta is not None else {}), "gold": gold,
              "pred": pred, **result.record()}
    return DatasetRun(dataset, result, record, [question.record() for question in result.questions])
