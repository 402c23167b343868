"""``progexec score`` for datasets whose official scorer is not FinQA's: what
:mod:`progexec.score.dataset_scoring` returns, written as every scorer's output is (a table or ``--json`` with
``meta``, ``--items`` JSON Lines, ``--out`` pages, a verdict line)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..core.dataset import Dialect
from ..core.errors import InputError, OptionError
from ..records import dumps
from ..score.dataset_scoring import DatasetRun, dataset_scorer, score_with_dataset
from .common import EXIT_DIVERGENCE, EXIT_OK, command_meta, limits_from, open_output, verdict, write_text
from .dialect_args import chosen_dialect

__all__ = ["dataset_dialect", "run_dataset_score", "write_out"]


def dataset_dialect(args: argparse.Namespace) -> Dialect | None:
    """The dataset whose own scorer runs: ``--dialect`` when it has one, else the gold source's."""
    return dataset_scorer(args.gold, chosen_dialect(args))


def run_dataset_score(args: argparse.Namespace, dialect: Dialect) -> int:
    """Score with the dataset's own scorer and report it; exit 1 when the official script would stop."""
    try:
        run = score_with_dataset(dialect, args.gold, args.pred, limits_from(args),
                                 command_meta(args, [args.gold, args.pred]))
    except InputError as error:
        raise OptionError(str(error)) from None
    if args.items:
        handle = open_output(args.items)  # a file is named on stderr with the others
        try:
            handle.writelines(dumps(question) + "\n" for question in run.questions)
        finally:
            if handle is not sys.stdout:
                handle.close()
    if getattr(args, "out", None):
        write_out(Path(args.out), run)
    if args.json:
        print(dumps(run.record))
    else:
        print(f"gold {args.gold}; predictions {args.pred} ({dialect.title})")
        for line in run.result.table():
            print(line)
    verdict(f"score: {dialect.title}, n = {run.result.n}, " + run.result.headline(), run.result.ok)
    return EXIT_OK if run.result.ok else EXIT_DIVERGENCE


def write_out(out: Path, run: DatasetRun) -> None:
    """``score --out DIR``: score.json (the ``--json`` object), items.jsonl (the ``--items`` lines), score.md and
    score.html, as for every dataset ``score`` supports; each file named on stderr."""
    from ..report.dataset_score_pages import render_html, render_markdown

    pages = (run.dataset.title, run.record["gold"], run.record["pred"], run.result.headline(), run.result.table(),
             run.questions)
    write_text(out / "score.json", json.dumps(run.record, indent=1, ensure_ascii=False, allow_nan=False) + "\n")
    write_text(out / "items.jsonl", "".join(dumps(question) + "\n" for question in run.questions))
    write_text(out / "score.md", render_markdown(*pages))
    write_text(out / "score.html", render_html(*pages))
