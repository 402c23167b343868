"""``progexec score`` for dialects whose official scorer is not FinQA's: the dialect's own run model.

A dialect with a ``score`` entry (MultiHiertt's ``evaluate.py``, ...) is scored here: gold and prediction
records are read through the one reader registry, scored by the dialect, and written as every scorer's
output is (a table or ``--json`` with ``meta``, ``--items`` JSON Lines, a verdict line).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..core.dataset import DatasetScore, Dialect
from ..core.registry import corpus_names, get_dataset as get_dialect
from ..core.limits import using
from ..readers import detect_format, read_records
from ..core.errors import InputError, OptionError
from ..records import FORMAT_VERSION, dumps
from .common import EXIT_DIVERGENCE, EXIT_OK, command_meta, limits_from, open_output, verdict, write_text
from .dialect_args import chosen_dialect


def _values(source: str, what: str) -> list[Any]:
    """Every record of ``source`` (a path, ``-``, or an embedded MathQA split such as ``mathqa:test``); an
    unreadable one is kept as None (listed by the scorer)."""
    corpus = _corpus_dataset(source)
    if corpus is not None and corpus.gold_records is not None:
        return list(corpus.gold_records(source))
    values: list[Any] = []
    try:
        for record in read_records(source):
            values.append(record.value if record.error is None else None)
    except InputError as error:
        raise OptionError(f"{what}: {error}") from None
    for index, value in enumerate(values):  # a top-level list read as one document
        if isinstance(value, list) and len(values) == 1 and index == 0:
            return list(value)
    return values


def _corpus_dataset(source: str) -> Dialect | None:
    """The dataset of an embedded corpus name whose own scorer reads its gold records (``mathqa:test``), or None."""
    if source not in corpus_names():
        return None
    try:
        dataset = get_dialect(source.partition(":")[0])
    except ValueError:
        return None
    return dataset if dataset.score is not None and dataset.gold_records is not None else None


def dataset_dialect(args: argparse.Namespace) -> Dialect | None:
    """The dialect whose own scorer runs: ``--dialect`` when it has one, else the gold file's format when
    that names a dialect with its own scorer (a MultiHiertt dataset file)."""
    name = chosen_dialect(args)
    if name is None and _corpus_dataset(args.gold) is not None:
        name = args.gold.partition(":")[0]
    if name is not None:
        dialect = get_dialect(name)
        return dialect if dialect.score is not None else None
    if args.gold == "-":
        return None
    try:
        first = next(iter(read_records(args.gold)), None)
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
        dialect = get_dialect(found)
    except ValueError:
        return None
    return dialect if dialect.score is not None else None


def run_dataset_score(args: argparse.Namespace, dialect: Dialect) -> int:
    """Score with the dialect's own scorer and report it; exit 1 when the official script would stop."""
    assert dialect.score is not None
    limits = limits_from(args)
    with using(limits):
        gold = _values(args.gold, "--gold")
        predictions = _values(args.pred, "--pred")
        if not gold:
            raise OptionError(f"{args.gold}: no gold records")
        if not predictions:
            raise OptionError(f"{args.pred}: no prediction records")
        result = dialect.score(gold, predictions)
    meta = command_meta(args, [args.gold, args.pred])
    record = {"format_version": FORMAT_VERSION, "meta": meta, "gold": args.gold, "pred": args.pred,
              **result.record()}
    questions = [question.record() for question in result.questions]
    if args.items:
        handle = open_output(args.items)  # a file is named on stderr with the others
        try:
            handle.writelines(dumps(question) + "\n" for question in questions)
        finally:
            if handle is not sys.stdout:
                handle.close()
    if getattr(args, "out", None):
        write_out(Path(args.out), record, questions, dialect.title, result)
    if args.json:
        print(dumps(record))
    else:
        print(f"gold {args.gold}; predictions {args.pred} ({dialect.title})")
        for line in result.table():
            print(line)
    verdict(f"score: {dialect.title}, n = {result.n}, " + result.headline(), result.ok)
    return EXIT_OK if result.ok else EXIT_DIVERGENCE


def write_out(out: Path, record: dict[str, Any], questions: list[dict[str, Any]], title: str,
              result: DatasetScore) -> None:
    """``score --out DIR``: score.json (the ``--json`` object), items.jsonl (the ``--items`` lines), score.md and
    score.html, as for every dataset ``score`` supports; each file named on stderr."""
    from ..report.dataset_score_pages import render_html, render_markdown

    pages = (title, record["gold"], record["pred"], result.headline(), result.table(), questions)
    write_text(out / "score.json", json.dumps(record, indent=1, ensure_ascii=False, allow_nan=False) + "\n")
    write_text(out / "items.jsonl", "".join(dumps(question) + "\n" for question in questions))
    write_text(out / "score.md", render_markdown(*pages))
    write_text(out / "score.html", render_html(*pages))


__all__ = ["dataset_dialect", "run_dataset_score", "write_out"]
