"""The TAT-QA paths of ``progexec score`` and ``progexec report``: what the command modules call when
the gold or input is a TAT-QA file (``is_tatqa_source``)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from ..core.limits import Limits, current
from ..meta import run_meta
from ..core.errors import InputError, OptionError
from ..records import FORMAT_VERSION, dumps
from ..datasets.tatqa.data import Question, read_questions
from ..datasets.tatqa.execute import DerivationResult, run_derivation
from ..core.item import Item
from ..datasets.tatqa.run import NotExecuted
from ..datasets.tatqa.report import TatqaReport, build_tatqa_report, render_score_html, REPORTERS
from ..datasets.tatqa.scoring import TatqaScore, score
from ..core.plural import plural
from ..report.reporter import write


def score_record(result: TatqaScore, gold: str, pred: str, meta: dict[str, Any] | None) -> dict[str, Any]:
    """The ``--json`` object of a TAT-QA score."""
    return {"format_version": FORMAT_VERSION, **({"meta": meta} if meta is not None else {}), "dialect": "tatqa",
            "gold": gold, "pred": pred, **result.summary()}


def write_score_text(result: TatqaScore, out: TextIO) -> None:
    """The official script's printout (figures x 100, 2 places), the table, and the reasons."""
    out.write("----\n")
    out.write(f"Exact-match accuracy {result.em * 100:.2f}\nF1 score {result.f1 * 100:.2f}\n"
              f"Scale score {result.scale * 100:.2f}\n{result.em * 100:.2f}   &   {result.f1 * 100:.2f}\n----\n")
    out.write(f"exact floats: exact match {result.em!r}, F1 {result.f1!r}, scale score {result.scale!r} "
              f"over {plural(result.count, 'question')}\n")
    sources = sorted({source for _, source in result.cells})
    out.write(f"\n{'answer type':<12} " + " ".join(f"{source:>24}" for source in sources) + "\n")
    for kind in sorted({kind for kind, _ in result.cells}):
        cells = []
        for source in sources:
            cell = result.cells.get((kind, source))
            cells.append(f"{'-':>24}" if cell is None else f"{f'{cell.count} EM {cell.em:.4f} F1 {cell.f1:.4f}':>24}")
        out.write(f"{kind:<12} " + " ".join(cells) + "\n")
    out.write("\nreasons: " + ", ".join(f"{label} {count}" for label, count in result.reasons().items()) + "\n")
    if result.aborted:
        out.write(f"the official script would stop: {result.aborted}\n")


def _markdown(result: TatqaScore, gold: str, pred: str) -> str:
    lines = ["# TAT-QA score", "", f"Gold `{gold}`, predictions `{pred}`: {plural(result.count, 'question')}.", "",
             "| measure | value | official printout |", "|---|---|---|",
             f"| exact match | {result.em!r} | {result.em * 100:.2f} |", f"| F1 | {result.f1!r} | {result.f1 * 100:.2f} |",
             f"| scale score | {result.scale!r} | {result.scale * 100:.2f} |", "",
             "| answer type | answer source | questions | EM | F1 |", "|---|---|---|---|---|"]
    lines += [f"| {kind} | {source} | {cell.count} | {cell.em:.6f} | {cell.f1:.6f} |"
              for (kind, source), cell in sorted(result.cells.items())]
    lines += ["", "| reason | questions |", "|---|---|"]
    lines += [f"| `{label}` | {count} |" for label, count in result.reasons().items()]
    if result.aborted:
        lines += ["", f"The official script would stop: {result.aborted}"]
    return "\n".join(lines) + "\n"


def run_score(args: argparse.Namespace, limits: Limits) -> int:
    """``progexec score --gold TATQA --pred PRED``: exit 0 scored, 1 the official script would stop, 2 bad input."""
    from .common import EXIT_DIVERGENCE, EXIT_OK, open_output, verdict, write_text
    from ..core.errors import OptionError

    try:
        result = score(args.gold, args.pred, limits)
    except InputError as error:
        raise OptionError(str(error)) from None
    meta = run_meta([args.gold, args.pred], getattr(args, "argv", None), limits)
    record = score_record(result, args.gold, args.pred, meta)
    items = [question.record() for question in result.questions]
    if getattr(args, "out", None):
        out = Path(args.out)
        write_text(out / "score.json", json.dumps(record, indent=1, ensure_ascii=False) + "\n")
        write_text(out / "items.jsonl", "".join(dumps(item) + "\n" for item in items))
        write_text(out / "score.md", _markdown(result, args.gold, args.pred))
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
        write_score_text(result, sys.stdout)
    verdict(f"score: {result.count} TAT-QA questions, exact match {result.em * 100:.2f}, F1 {result.f1 * 100:.2f}, "
            f"scale score {result.scale * 100:.2f}" + (f"; the official script would stop ({result.aborted})"
                                                       if result.aborted else ""), result.aborted is None)
    return EXIT_DIVERGENCE if result.aborted else EXIT_OK


def derivation_results(questions: Iterable[Question]) -> Iterator[DerivationResult | str]:
    """Each arithmetic question's derivation result; the answer type (a string) of every other question.
    A record that cannot be read is an input error naming where it is."""
    for question in questions:
        if question.error is not None:
            raise InputError(question.error)
        if question.answer_type == "arithmetic":
            yield run_derivation(question.uid, dict(question.raw))
        else:
            yield str(question.answer_type)


def item_results(items: Iterable[Item], limits: Limits | None = None) -> Iterator[DerivationResult | str]:
    """Each Item through the runner: its derivation result, or the answer type of a question not executed
    (``bad_input`` for an unusable record, ``limit_exceeded`` for one a bound stopped)."""
    from ..runner import execute

    for item in items:
        execution = execute(item, limits)
        detail = execution.detail
        if isinstance(detail, DerivationResult):
            yield detail
        elif isinstance(detail, NotExecuted):
            yield detail.answer_type
        else:  # an unusable record (bad_input) or an item a bound stopped (limit_exceeded)
            yield execution.status.label


def run_report(args: argparse.Namespace, items: Iterable[Item], source: str, sources: list[str],
               limits: Limits) -> int:
    """``progexec report`` on TAT-QA input: report.json, report.md, report.html into ``--out``."""
    from .common import EXIT_OK, progress_for

    progress = progress_for(args, None, "report", sources)
    try:
        report = build_tatqa_report(item_results(items, limits), source, progress.update)
    except InputError as error:
        raise OptionError(str(error)) from None
    finally:
        progress.close()
    report.meta = run_meta([name for name in sources if name != "-"], None, limits)
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


def build_report(sources: list[str], limits: Limits | None = None) -> TatqaReport:
    """The TAT-QA divergence report over every question of the sources."""
    chosen = limits or current()

    def questions() -> Iterator[Question]:
        for source in sources:
            yield from read_questions(source, chosen)

    report = build_tatqa_report(derivation_results(questions()), ", ".join(sources))
    report.meta = run_meta(sources, None, chosen)
    return report


def write_report(report: TatqaReport, out: Path) -> None:
    """report.json, report.md and report.html into ``out`` (each a Reporter of the one protocol), each named on
    stderr by the command."""
    from .common import note_written

    out.mkdir(parents=True, exist_ok=True)
    for name, report_type in (("report.json", "json"), ("report.md", "markdown"), ("report.html", "html")):
        write(REPORTERS[report_type], report, out / name)
        note_written(out / name)


__all__ = ["item_results", "run_report", "score_record", "write_score_text", "run_score", "derivation_results",
           "build_report", "write_report"]
