"""``progexec exec [INPUT]``: run every program of a file (or the embedded corpus), one JSON line each."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from ..batch import result_record, run_items
from ..corpus import convfinqa_items, finqa_items
from ..inputs import InputError, Item, load_items
from ..limits import LimitError, apply_limit_options, limit_help
from .common import EXIT_DIVERGENCE, EXIT_OK, Progress, UsageError, dumps, open_output

NAME = "exec"
HELP = "execute a batch of programs (FinQA / ConvFinQA / MathQA / JSON Lines) and write one JSON line per program"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", nargs="?", help="input file (.json, .jsonl, .gz); default: the embedded corpus")
    parser.add_argument("--corpus", choices=("finqa", "convfinqa", "all"), default="finqa",
                        help="embedded corpus to run when no INPUT is given (default finqa)")
    parser.add_argument("--out", metavar="FILE", help="write JSON Lines here instead of standard output")
    parser.add_argument("--quiet", action="store_true", help="no summary on stderr")
    parser.add_argument("--limit", action="append", metavar="NAME=VALUE", help=limit_help())


def load_batch(path: str | None, corpus: str) -> list[Item]:
    """Items from a file, or from the embedded corpus."""
    if path is None:
        items: list[Item] = []
        if corpus in ("finqa", "all"):
            items += finqa_items()
        if corpus in ("convfinqa", "all"):
            items += convfinqa_items()
        return items
    try:
        return load_items(Path(path))
    except InputError as error:
        raise UsageError(str(error)) from None


def run(args: argparse.Namespace) -> int:
    try:
        apply_limit_options(args.limit)
    except LimitError as error:
        raise UsageError(str(error)) from None
    if args.input is not None:  # a MathQA file goes to the MathQA executor (progexec.mathqa)
        from ..mathqa.batch import exec_mathqa, sniff_mathqa

        records = sniff_mathqa(Path(args.input))
        if records is not None:
            out = open_output(args.out)
            try:
                exec_mathqa(records, out, args.quiet)
            finally:
                if out is not sys.stdout:
                    out.close()
            return EXIT_OK
    items = load_batch(args.input, args.corpus)
    statuses: Counter[str] = Counter()
    with_gold = matched = 0
    progress = Progress(len(items), "exec")
    out = open_output(args.out)
    try:
        for done, result in enumerate(run_items(items), start=1):
            out.write(dumps(result_record(result)) + "\n")
            statuses[result.execution.status.label] += 1
            if result.match is not None:
                with_gold += 1
                matched += bool(result.match)
            progress.update(done)
    finally:
        progress.close()
        if out is not sys.stdout:
            out.close()
    if not args.quiet:
        by_status = ", ".join(f"{name} {count}" for name, count in sorted(statuses.items()))
        print(f"exec: {len(items)} programs ({by_status}); {matched}/{with_gold} match their gold answer",
              file=sys.stderr)
    return EXIT_OK if matched == with_gold else EXIT_DIVERGENCE
