"""``progexec score`` for dialects whose official scorer is not FinQA's: the dialect's own run model.

A dialect with a ``score`` entry (MultiHiertt's ``evaluate.py``, ...) is scored here: gold and prediction
records are read through the one reader registry, scored by the dialect, and written as every scorer's
output is (a table or ``--json`` with ``meta``, ``--items`` JSON Lines, a verdict line).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..core.dataset import Dialect
from ..core.registry import get_dataset as get_dialect
from ..core.limits import using
from ..readers import InputError, detect_format, read_records
from ..records import FORMAT_VERSION, dumps
from .common import EXIT_DIVERGENCE, EXIT_OK, UsageError, command_meta, limits_from, open_output, verdict
from .dialect_args import chosen_dialect


def _values(source: str, what: str) -> list[Any]:
    """Every record of ``source`` (a path or ``-``); an unreadable one is kept as None (listed by the scorer)."""
    values: list[Any] = []
    try:
        for record in read_records(source):
            values.append(record.value if record.error is None else None)
    except InputError as error:
        raise UsageError(f"{what}: {error}") from None
    for index, value in enumerate(values):  # a top-level list read as one document
        if isinstance(value, list) and len(values) == 1 and index == 0:
            return list(value)
    return values


def dataset_dialect(args: argparse.Namespace) -> Dialect | None:
    """The dialect whose own scorer runs: ``--dialect`` when it has one, else the gold file's format when
    that names a dialect with its own scorer (a MultiHiertt dataset file)."""
    name = chosen_dialect(args)
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
            raise UsageError(f"{args.gold}: no gold records")
        if not predictions:
            raise UsageError(f"{args.pred}: no prediction records")
        result = dialect.score(gold, predictions)
    meta = command_meta(args, [args.gold, args.pred])
    record = {"format_version": FORMAT_VERSION, "meta": meta, "gold": args.gold, "pred": args.pred,
              **result.record()}
    if args.items:
        out = open_output(args.items)
        try:
            for question in result.questions:
                out.write(dumps(question.record()) + "\n")
        finally:
            if out is not sys.stdout:
                out.close()
        print(f"score: wrote one line per question to {args.items}", file=sys.stderr)
    if args.json:
        print(dumps(record))
    else:
        print(f"gold {args.gold}; predictions {args.pred} ({dialect.title})")
        for line in result.table():
            print(line)
    verdict(f"score: {dialect.title}, n = {result.n}, " + result.headline(), result.ok)
    return EXIT_OK if result.ok else EXIT_DIVERGENCE


__all__ = ["dataset_dialect", "run_dataset_score"]
