"""``progexec score --gold GOLD --pred PRED``: official FinQA/ConvFinQA execution and program
accuracy, and the peer scorers side by side.

Exit codes: 0 scored; 1 scored, but the official script would have aborted on some
item (its ``assert`` on a program-equal, execution-unequal pair); 2 usage or input error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..core.limits import using
from ..report.score_json import ItemsReporter, JsonReporter
from ..report.score_model import ScoreRun
from ..report.score_report import write_score_dir
from ..report.score_text import TextReporter
from ..score import SCORERS, ScoreReport, load_gold, load_predictions, resolve_scorers, score_predictions
from ..core.errors import InputError, OptionError
from ..score.loading import CORPUS_NAMES
from ..score.scoring import check_inputs
from .parallel_args import add_parallel_arguments, parallel_options
from .dataset_score import dataset_dialect, run_dataset_score
from .dialect_args import add_dialect_argument
from .common import (EXIT_DIVERGENCE, EXIT_OK, add_batch_options, command_meta, limits_from, note_written,
                     open_output, progress_for, suggestion, verdict)
from ..core.plural import plural

NAME = "score"
HELP = "score predictions against gold: official execution/program accuracy and peer scorers"
EXIT_CODES = ("exit codes: 0 scored, 1 scored but the official script would have aborted on some item, 2 usage "
              "or input error (no usable prediction, no shared id, swapped files)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--gold", required=True, metavar="GOLD",
                        help="gold file (FinQA, ConvFinQA conversation or turn file, TAT-QA, MultiHiertt or MathQA "
                             "file) or an embedded set: "
                             + ", ".join(CORPUS_NAMES))
    parser.add_argument("--pred", required=True, metavar="PRED",
                        help="predictions: [{id, predicted: [tokens..., EOF] | program text}] or {id, answer}; "
                             "JSON or JSON Lines")
    parser.add_argument("--scorer", action="append", metavar="NAME",
                        help="scorer(s) to run: " + ", ".join(SCORERS) + ", or all (repeatable; default official)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument("--items", metavar="FILE", help="write one JSON line per item (why each was (not) counted)")
    parser.add_argument("--compare", action="store_true",
                        help="show, per pair of scorers, how many items they disagree on, with examples")
    parser.add_argument("--out", metavar="DIR", help="write score.json, items.jsonl, score.md and score.html here")
    add_dialect_argument(parser, "the scoring")
    add_batch_options(parser)
    add_parallel_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from ..datasets.tatqa.data import is_tatqa_source

    if is_tatqa_source(args.gold):  # TAT-QA gold: its official scorer (EM, F1, scale score)
        from .dataset_commands import run_score

        _own_scorer_only(args, "TAT-QA")
        return run_score(args, limits_from(args))
    dataset = dataset_dialect(args)
    if dataset is not None:
        _own_scorer_only(args, dataset.title)
        return run_dataset_score(args, dataset)
    try:
        names = resolve_scorers(args.scorer)
    except KeyError as error:
        raise OptionError(f"unknown scorer {error.args[0]!r}{suggestion(error.args[0], [*SCORERS, 'all'])}; "
                         f"choose from {', '.join(SCORERS)} or all") from None
    limits = limits_from(args)
    with using(limits):
        try:
            gold = load_gold(args.gold)
            predictions = load_predictions(args.pred)
            check_inputs(gold, predictions, names, args.gold, args.pred)
        except InputError as error:
            raise OptionError(str(error)) from None
        progress = progress_for(args, len(predictions), "score")
        try:
            report = score_predictions(gold, predictions, names, args.gold, args.pred, progress.update,
                                       parallel_options(args), limits)
        finally:
            progress.close()
    scored = ScoreRun(report, gold, predictions, command_meta(args, [args.gold, args.pred]))
    if args.out:
        try:
            write_score_dir(scored, Path(args.out))
            for name in ("score.json", "items.jsonl", "score.md", "score.html"):
                note_written(Path(args.out) / name)
        except OSError as error:
            raise OptionError(f"cannot write the scoring report to {Path(args.out)}: {error}") from None
    if args.items:
        out = open_output(args.items)
        try:
            ItemsReporter().report(scored, out)
        finally:
            if out is not sys.stdout:
                out.close()
    reporter = JsonReporter(args.compare, indent=None) if args.json else TextReporter(args.compare)
    reporter.report(scored, sys.stdout)
    clock = len(report.stopped_by_clock_ids)
    verdict(f"score: n = {report.n}, " + figures_line(report)
            + (f"; the official script would abort on {_items(len(report.would_abort_ids))}" if report.would_abort_ids
               else "")
            + (f"; stopped_by_clock: {_items(clock)} (the figures are lower bounds)" if clock else ""),
            not report.would_abort_ids and not clock)
    return EXIT_DIVERGENCE if report.would_abort_ids or clock else EXIT_OK



def _own_scorer_only(args: argparse.Namespace, title: str) -> None:
    """A dataset scored by its own scorer runs no other: ``--scorer`` is refused rather than ignored."""
    if args.scorer:
        raise OptionError(f"{title} gold is scored by its own scorer (every measure it has is reported); "
                         f"--scorer {' '.join(args.scorer)} does not apply (the --scorer names are FinQA's and "
                         "ConvFinQA's)")


def figures_line(report: ScoreReport) -> str:
    """Every scorer run with its figures, in the order run: ``official execution accuracy 0.6100, program
    accuracy 0.5800; pot execution accuracy 0.6200`` (``at least`` when the clock stopped an item)."""
    bound = " at least" if report.stopped_by_clock_ids else ""
    parts = []
    for name, figures in report.scorers.items():
        part = f"{name} execution accuracy{bound} {figures.execution_accuracy:.4f}"
        if figures.program_accuracy is not None:
            part += f", program accuracy{bound} {figures.program_accuracy:.4f}"
        parts.append(part)
    return "; ".join(parts)


def _items(count: int) -> str:
    return plural(count, "item")
