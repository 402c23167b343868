"""``progexec report [INPUT ...]``: classify every program and write report.json / .md / .html."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..corpus import finqa_items
from ..inputs import InputError, Item, load_items
from ..report import build_report
from ..report import html_report, json_report, markdown
from ..limits import LimitError, apply_limit_options, limit_help
from .common import EXIT_OK, Progress, UsageError

NAME = "report"
HELP = "classify every program against the exact oracle and the named rounders; write JSON, Markdown, HTML"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("inputs", nargs="*", metavar="INPUT",
                        help="input files (same formats as exec); default: the embedded FinQA corpus, all splits")
    parser.add_argument("--out", metavar="DIR", default="reports",
                        help="directory for report.json, report.md, report.html (default: reports/)")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    parser.add_argument("--limit", action="append", metavar="NAME=VALUE", help=limit_help())


def _load(paths: list[str]) -> tuple[list[Item], str]:
    if not paths:
        return list(finqa_items()), "the embedded FinQA corpus (test, dev, train)"
    items: list[Item] = []
    for path in paths:
        try:
            items += load_items(Path(path))
        except InputError as error:
            raise UsageError(str(error)) from None
    return items, ", ".join(Path(path).name for path in paths)


def run(args: argparse.Namespace) -> int:
    try:
        apply_limit_options(args.limit)
    except LimitError as error:
        raise UsageError(str(error)) from None
    items, source = _load(args.inputs)
    progress = Progress(len(items), "report")
    report = build_report(items, source, progress.update)
    progress.close()
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, text in (("report.json", json_report.render(report)), ("report.md", markdown.render(report)),
                           ("report.html", html_report.render(report))):
            (out / name).write_text(text, encoding="utf-8", newline="\n")
    except OSError as error:
        raise UsageError(f"cannot write the report to {out}: {error}") from None
    summary = json_report.summary(report)
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    else:
        divergent = ", ".join(f"{name} {count}" for name, count in summary["divergent"].items())
        print(f"report: {summary['programs']} programs; divergent from the official answer: {divergent}; "
              f"{summary['programs_with_findings']} programs with findings -> {out}/report.{{json,md,html}}",
              file=sys.stderr)
    return EXIT_OK
