"""``progexec report [INPUT ...]``: classify every program and write report.json / .md / .html."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from itertools import chain, islice
from pathlib import Path

from ..core.limits import using
from ..core.errors import InputError, OptionError
from ..parallel import Engine
from ..report import build_report, write_html, write_json, write_markdown, json_report, text_report
from ..report.model import build_report_chunks
from ..textchunks import Chunk, chunk_items
from .dialect_args import add_dialect_argument, chosen_dialect, with_dialect
from .common import EXIT_DIVERGENCE, EXIT_OK, add_batch_options, limits_from, note_written, progress_for, verdict
from .exec_cmd import stream_chunks, stream_items
from .forked_writers import write_all
from .parallel_args import add_parallel_arguments, parallel_options
from ..core.plural import plural

NAME = "report"
HELP = "classify every program against the exact oracle and the named rounders; write JSON, Markdown, HTML"
EXIT_CODES = "exit codes: 0 report written, 2 usage or input error"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("inputs", nargs="*", metavar="INPUT",
                        help="inputs as for exec (files, -, embedded corpus names); default: the embedded "
                             "FinQA corpus, all splits")
    parser.add_argument("--out", metavar="DIR", default="reports",
                        help="directory for report.json, report.md, report.html (default: reports/)")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    add_dialect_argument(parser, "every program")
    add_batch_options(parser)
    add_parallel_arguments(parser)


def _source(paths: list[str]) -> str:
    if not paths:
        return "the embedded FinQA corpus (test, dev, train)"
    return ", ".join(Path(path).name if path not in ("-",) else "standard input" for path in paths)


def run(args: argparse.Namespace) -> int:
    limits = limits_from(args)
    sources = list(args.inputs) or ["finqa"]
    options = parallel_options(args)
    dialect = chosen_dialect(args)
    chunks: Iterator[Chunk] = iter(())
    with using(limits):
        if options.engine is Engine.SERIAL:  # Items straight from the readers, analysed here
            items = with_dialect(stream_items(sources), dialect)
            first = next(items, None)
        else:  # workers get the records' text; the first item is built here too, to tell TAT-QA apart
            chunks = stream_chunks(sources, options.chunk_size)
            head = list(islice(chunks, 1))
            chunks = chain(head, chunks)
            first = next(with_dialect(chunk_items(head[0]), dialect), None) if head else None
            items = with_dialect((item for chunk in chunks for item in chunk_items(chunk)), dialect)
        items = chain([first], items) if first is not None and options.engine is Engine.SERIAL else items
        from ..datasets.tatqa.dataset import is_question_item

        if first is not None and is_question_item(first):  # TAT-QA questions: the derivation report
            from .dataset_commands import run_report

            return run_report(args, items, _source(args.inputs), sources, limits)
    progress = progress_for(args, None, "report", sources)
    with using(limits):
        try:
            if options.engine is Engine.SERIAL:
                report = build_report(items, _source(args.inputs), progress.update, limits, options)
            else:
                report = build_report_chunks(chunks, _source(args.inputs), progress.update, limits, options, dialect)
        except InputError as error:
            raise OptionError(str(error)) from None
        finally:
            progress.close()
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        write_all(report, [(write_json, out / "report.json"), (write_html, out / "report.html"),
                           (write_markdown, out / "report.md")], side_by_side=options.engine is not Engine.SERIAL)
        for name in ("report.json", "report.md", "report.html"):
            note_written(out / name)
    except OSError as error:
        raise OptionError(f"cannot write the report to {out}: {error}") from None
    summary = json_report.summary(report)
    clock = summary["stopped_by_clock"]
    if clock:
        print(f"report: the per-item clock (item_time_limit) stopped {plural(clock, 'item')}: they are reported as "
              "limit_exceeded, so every count is a lower bound that depends on the machine", file=sys.stderr)
    if args.json:
        print(json.dumps(json_report.summary_record(report), sort_keys=True))
    else:
        print(f"{text_report.render(report)} -> {out}/report.{{json,md,html}}", file=sys.stderr)
    if clock:
        verdict(f"report: {plural(clock, 'item')} stopped by the clock; the figures are lower bounds", False)
        return EXIT_DIVERGENCE
    return EXIT_OK
