"""``progexec score --gold GOLD --pred PRED``: official FinQA/ConvFinQA execution and program
accuracy, and the peer scorers side by side.

Exit codes: 0 scored; 1 scored, but the official script would have aborted on some
item (its ``assert`` on a program-equal, execution-unequal pair); 2 usage or input error.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from ..limits import using
from ..meta import run_meta
from ..report.score_report import write_score_report
from ..score.results import GoldItem, Prediction
from ..records import dumps, json_value
from ..score import (FORMAT_VERSION, SCORERS, ScoreInputError, ScoreReport, disagreements, load_gold,
                     load_predictions, resolve_scorers, score_predictions)
from ..score.loading import CORPUS_NAMES
from ..score.scoring import check_inputs
from .parallel_args import add_parallel_arguments, parallel_options
from .dataset_score import dataset_dialect, run_dataset_score
from .dialect_args import add_dialect_argument
from .common import (EXIT_DIVERGENCE, EXIT_OK, UsageError, add_batch_options, limits_from, open_output,
                     progress_for, suggestion, verdict)

NAME = "score"
HELP = "score predictions against gold: official execution/program accuracy and peer scorers"
EXIT_CODES = ("exit codes: 0 scored, 1 scored but the official script would have aborted on some item, "
              "2 usage or input error (no usable prediction, no shared id, swapped files)")

DENOMINATOR = "predictions whose id is in the gold, repeated ids counted (the official loop's len(data))"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--gold", required=True, metavar="GOLD",
                        help="gold file (FinQA, ConvFinQA conversation or turn file) or an embedded set: "
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


def report_record(report: ScoreReport, compare: bool, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ``--json`` object (FORMAT_VERSION 1): headline official figures, then per-scorer figures."""
    official = report.scorers["official"]
    record: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        **({"meta": meta} if meta is not None else {}),
        "gold": report.gold_source,
        "pred": report.pred_source,
        "dialect": report.dialect,
        "n": report.n,
        "denominator": DENOMINATOR,
        "execution_accuracy": official.execution_accuracy,
        "program_accuracy": official.program_accuracy,
        "scorers": {name: {"n": figures.n, "execution_correct": figures.execution_correct,
                           "execution_accuracy": figures.execution_accuracy,
                           "program_correct": figures.program_correct,
                           "program_accuracy": figures.program_accuracy}
                    for name, figures in report.scorers.items()},
        "coverage": {"n_gold": report.n_gold, "n_predictions": report.n_predictions,
                     "not_in_gold": report.unknown_ids, "duplicate_ids": report.duplicate_ids,
                     "missing_predictions": len(report.missing_ids), "missing_ids": report.missing_ids,
                     "unreadable": report.unreadable},
        "would_abort": report.would_abort_ids,
        "gold_errors": report.gold_error_ids,
        "stopped_by_clock": len(report.stopped_by_clock_ids),
        "figures_are_lower_bounds": bool(report.stopped_by_clock_ids),
    }
    if compare:
        record["compare"] = disagreements(report)
    return record


def item_records(report: ScoreReport) -> list[dict[str, Any]]:
    """One record per scored item, then one per prediction not in the gold and per gold item without a prediction."""
    records: list[dict[str, Any]] = []
    for item in report.items:
        records.append({
            "id": item.id, "position": item.position, "status": "scored",
            "gold": json_value(item.gold_value), "value": json_value(item.official_value),
            "would_abort": item.would_abort, "decided_by": item.decided_by,
            **({"stopped_by_clock": True} if item.stopped_by_clock else {}),
            "scorers": {name: {"execution": verdict.execution, "program": verdict.program,
                               "execution_why": verdict.execution_why.value,
                               "program_why": verdict.program_why.value if verdict.program_why else None,
                               **({"detail": verdict.detail} if verdict.detail else {})}
                        for name, verdict in item.verdicts.items()},
        })
    records.extend({"id": item_id, "status": "not_in_gold"} for item_id in report.unknown_ids)
    records.extend({"id": item_id, "status": "no_prediction"} for item_id in report.missing_ids)
    return records


def _ids(ids: list[str], limit: int = 5) -> str:
    shown = ", ".join(ids[:limit])
    return shown + (f", ... ({len(ids)} in all)" if len(ids) > limit else "")


def write_table(report: ScoreReport, compare: bool, out: TextIO) -> None:
    """The human-readable report."""
    out.write(f"gold {report.gold_source} ({report.n_gold} items, {report.dialect}); "
              f"predictions {report.pred_source} ({report.n_predictions} records)\n")
    out.write(f"n = {report.n}: {DENOMINATOR}\n\n")
    out.write(f"{'scorer':<18} {'execution':>20} {'program':>20}\n")
    for name, figures in report.scorers.items():
        exe = f"{figures.execution_correct}/{figures.n} {figures.execution_accuracy:.4f}"
        prog = "-" if figures.program_correct is None else (
            f"{figures.program_correct}/{figures.n} {figures.program_accuracy:.4f}")
        out.write(f"{name:<18} {exe:>20} {prog:>20}\n")
    official = report.scorers["official"]
    out.write(f"\nofficial: execution accuracy {official.execution_accuracy!r}, "
              f"program accuracy {official.program_accuracy!r}\n")
    problems = [("predictions not in the gold (left out of n)", report.unknown_ids),
                ("repeated prediction ids (each counted)", report.duplicate_ids),
                ("gold items without a prediction", report.missing_ids),
                ("unreadable prediction records", report.unreadable),
                ("items the official script would abort on (assert)", report.would_abort_ids),
                ("items whose gold program the official script cannot symbolise", report.gold_error_ids),
                ("items stopped by the per-item clock (item_time_limit): every figure above is a lower bound",
                 report.stopped_by_clock_ids)]
    for label, ids in problems:
        if ids:
            out.write(f"{label}: {len(ids)}: {_ids(ids)}\n")
    if compare:
        out.write("\ndisagreements between scorers\n")
        for row in disagreements(report):
            pair = " vs ".join(row["scorers"])
            examples = f"  e.g. {', '.join(row['examples'])}" if row["examples"] else ""
            out.write(f"  {pair:<36} {row['measure']:<10} {row['disagree']:>6}{examples}\n")


def run(args: argparse.Namespace) -> int:
    dataset = dataset_dialect(args)
    if dataset is not None:
        return run_dataset_score(args, dataset)
    try:
        names = resolve_scorers(args.scorer)
    except KeyError as error:
        raise UsageError(f"unknown scorer {error.args[0]!r}{suggestion(error.args[0], [*SCORERS, 'all'])}; "
                         f"choose from {', '.join(SCORERS)} or all") from None
    limits = limits_from(args)
    with using(limits):
        try:
            gold = load_gold(args.gold)
            predictions = load_predictions(args.pred)
            check_inputs(gold, predictions, names, args.gold, args.pred)
        except ScoreInputError as error:
            raise UsageError(str(error)) from None
        progress = progress_for(args, len(predictions), "score")
        try:
            report = score_predictions(gold, predictions, names, args.gold, args.pred, progress.update,
                                       parallel_options(args), limits)
        finally:
            progress.close()
    meta = run_meta([args.gold, args.pred], args.argv, limits)
    if args.out:
        _write_out_dir(Path(args.out), report, gold, predictions, report_record(report, True, meta))
    if args.items:
        out = open_output(args.items)
        try:
            for record in item_records(report):
                out.write(dumps(record) + "\n")
        finally:
            if out is not sys.stdout:
                out.close()
    if args.json:
        print(dumps(report_record(report, args.compare, meta)))
    else:
        write_table(report, args.compare, sys.stdout)
    official = report.scorers["official"]
    clock = len(report.stopped_by_clock_ids)
    bound = " at least" if clock else ""
    verdict(f"score: n = {report.n}, execution accuracy{bound} {official.execution_accuracy:.4f}"
            + (f", program accuracy{bound} {official.program_accuracy:.4f}" if official.program_accuracy is not None
               else "")
            + (f"; the official script would abort on {len(report.would_abort_ids)} items" if report.would_abort_ids
               else "")
            + (f"; stopped_by_clock: {clock} items (the figures are lower bounds)" if clock else ""),
            not report.would_abort_ids and not clock)
    return EXIT_DIVERGENCE if report.would_abort_ids or clock else EXIT_OK


def _write_out_dir(out: Path, report: ScoreReport, gold: list[GoldItem], predictions: list[Prediction],
                   record: dict[str, Any]) -> None:
    """``--out DIR``: score.json, items.jsonl, score.md and score.html, all from the one report model."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / "score.json").write_text(json.dumps(record, indent=1, ensure_ascii=False, allow_nan=False) + "\n",
                                        encoding="utf-8", newline="\n")
        with open(out / "items.jsonl", "w", encoding="utf-8", newline="\n") as handle:
            for line in item_records(report):
                handle.write(dumps(line) + "\n")
        write_score_report(report, gold, out, predictions)
    except OSError as error:
        raise UsageError(f"cannot write the scoring report to {out}: {error}") from None
