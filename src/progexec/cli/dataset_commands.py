"""The TAT-QA paths of ``progexec score`` and ``progexec report``: what the command modules call when
the gold or input is a TAT-QA file (``is_tatqa_source``). The work is the dataset's library
(:mod:`progexec.datasets.tatqa.scoring`, ``.build``, ``.score_views``); this module writes and prints it."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path

from ..core.errors import InputError, OptionError
from ..core.item import Item
from ..core.limits import Limits
from ..datasets.tatqa.build import report_from_items
from ..datasets.tatqa.report import REPORTERS, TatqaReport, render_score_html
from ..datasets.tatqa.score_views import score_markdown, score_record, score_text
from ..datasets.tatqa.scoring import score
from ..meta import run_meta
from ..records import dumps
from ..report.reporter import write
from .common import (EXIT_DIVERGENCE, EXIT_OK, note_written, open_output, progress_for, reproducible_arguments,
                     verdict, write_text)

__all__ = ["run_report", "run_score", "write_report"]


def run_score(args: argparse.Namespace, limits: Limits) -> int:
    """``progexec score --gold TATQA --pred PRED``: exit 0 scored, 1 the official script would stop, 2 bad input."""
    try:
        result = score(args.gold, args.pred, limits)
    except InputError as error:
        raise OptionError(str(error)) from None
    meta = run_meta([args.gold, args.pred], reproducible_arguments(getattr(args, "argv", None)), limits)
    record = score_record(result, args.gold, args.pred, meta)
    items = [question.record() for question in result.questions]
    if getattr(args, "out", None):
        out = Path(args.out)
        write_text(out / "score.json", json.dumps(record, indent=1, ensure_ascii=False) + "\n")
        write_text(out / "items.jsonl", "".join(dumps(item) + "\n" for item in items))
        write_text(out / "score.md", score_markdown(result, args.gold, args.pred))
        write_text(out / "score.html", render_score_html(result, args.gold, args.pred))
    if getattr(args, "items", None):
        handle = open_output(args.items)
        try:
            for item in items:
                handle.write(dumps(item) + "\n")
        finally:
            if handle is not sys.stdout:
                handle.close()
    if args.json:
        print(dumps(record))
    else:
        sys.stdout.write(score_text(result))
    verdict(f"score: {result.count} TAT-QA questions, exact match {result.em * 100:.2f}, F1 {result.f1 * 100:.2f}, "
            f"scale score {result.scale * 100:.2f}" + (f"; the official script would stop ({result.aborted})"
                                                       if result.aborted else ""), result.aborted is None)
    return EXIT_DIVERGENCE if result.aborted else EXIT_OK


def run_report(args: argparse.Namespace, items: Iterable[Item], source: str, sources: list[str],
               limits: Limits) -> int:
    """``progexec report`` on TAT-QA input: report.json, report.md, report.html into ``--out``."""
    progress = progress_for(args, None, "report", sources)
    try:
        report = report_from_items(items, source, sources, limits, progress.update)
    except InputError as error:
        raise OptionError(str(error)) from None
    finally:
        progress.close()
    out = Path(args.out)
    write_report(report, out)
    summary = report.summary()
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    else:
        classes = ", ".join(f"{label} {count}" for label, count in summary["classes"].items())
        print(f"report: {summary['arithmetic']} TAT-QA derivations, {summary['executes']} execute to their answer; "
              f"{classes} -> {out}/report.{{json,md,html}}", file=sys.stderr)
    return EXIT_OK


def write_report(report: TatqaReport, out: Path) -> None:
    """report.json, report.md and report.html into ``out`` (each a Reporter of the one protocol), each named on
    stderr by the command."""
    out.mkdir(parents=True, exist_ok=True)
    for name, report_type in (("report.json", "json"), ("report.md", "markdown"), ("report.html", "html")):
        write(REPORTERS[report_type], report, out / name)
        note_written(out / name)
