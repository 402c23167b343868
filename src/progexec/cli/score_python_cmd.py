"""``progexec score-python --gold FILE --pred FILE``: execute predicted MathQA-Python code in a sandbox and score it."""

from __future__ import annotations

import argparse
import sys

from ..inputkinds import MATHQA_PYTHON_GOLD, MATHQA_PYTHON_PREDICTIONS
from ..mathqa.sandbox import IsolationUnavailable, SandboxLimits, default_jobs, require_isolation
from ..mathqa.score_python import DEFAULT_REL_TOL, ItemKind, SnippetInputError, gold_items, predictions, read_records, score
from ..records import dumps
from .common import EXIT_OK, UsageError, add_batch_options, json_document, progress_for

NAME = "score-python"
HELP = ("run predicted MathQA-Python snippets ({id, code}) in a bubblewrap sandbox, one process each, and score "
        "their 'answer' against the gold ({id, answer})")
EXIT_CODES = ("exit codes: 0 scored (wrong and failing snippets included), 2 usage or input error (bad options,"
              " no usable gold, no sandbox without --unsafe-no-isolation)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--gold", required=True, metavar="FILE", help="gold MathQA-Python items (JSON list or JSON Lines)")
    parser.add_argument("--pred", required=True, metavar="FILE", help="predictions {id, code} (JSON list or JSON Lines)")
    parser.add_argument("--json", action="store_true", help="print the full score as JSON (n, accuracy, items)")
    parser.add_argument("--rel-tol", type=float, default=DEFAULT_REL_TOL, metavar="R",
                        help=f"relative tolerance of a correct answer (default {DEFAULT_REL_TOL:g}; see docs/mathqa.md)")
    parser.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                        help="wall-clock limit per snippet, start-up included (default 10)")
    parser.add_argument("--memory-mb", type=int, default=1024, metavar="MB",
                        help="address-space limit per snippet (default 1024)")
    parser.add_argument("--jobs", type=int, default=default_jobs(), metavar="N",
                        help=f"snippets run in parallel (default: the number of cores, {default_jobs()})")
    parser.add_argument("--unsafe-no-isolation", action="store_true",
                        help="DANGEROUS: run the snippets without the OS sandbox when bubblewrap is unavailable "
                             "(only in-process checks and rlimits; model code can then read files, see this "
                             "process and signal it). Only for code you trust")
    add_batch_options(parser)


def run(args: argparse.Namespace) -> int:
    if not args.rel_tol >= 0 or args.timeout <= 0 or args.memory_mb <= 0 or args.jobs <= 0:
        raise UsageError("--rel-tol must be >= 0 and --timeout, --memory-mb, --jobs positive")
    try:
        gold = gold_items(read_records(args.gold, MATHQA_PYTHON_GOLD))
        predicted = predictions(read_records(args.pred, MATHQA_PYTHON_PREDICTIONS))
    except SnippetInputError as error:
        raise UsageError(str(error)) from None
    if not any(item.problem is not ItemKind.BAD_INPUT for item in gold):
        raise UsageError(f"{args.gold}: no usable gold record (each needs an 'id' and a numeric 'answer')")
    try:
        isolation = require_isolation(args.unsafe_no_isolation)
    except IsolationUnavailable as error:
        raise UsageError(str(error)) from None
    if not isolation.available:
        print(f"score-python: WARNING: running model code WITHOUT isolation ({isolation.reason}); "
              "it can read your files and signal this process", file=sys.stderr)
    limits = SandboxLimits(timeout=args.timeout, memory_bytes=args.memory_mb * 1024 * 1024)
    progress = progress_for(args, len(gold), "score-python")
    try:
        result = score(gold, predicted, args.rel_tol, limits, args.jobs, unsafe_no_isolation=args.unsafe_no_isolation,
                       isolation=isolation.describe(), progress=progress.update)
    finally:
        progress.close()
    if args.json:
        body = {key: value for key, value in result.record().items() if key != "format_version"}
        print(dumps(json_document(args, [args.gold, args.pred], body)))
    else:
        print(f"score-python: {result.correct}/{result.n} correct, accuracy {result.accuracy:.4f} "
              f"(rel_tol {result.rel_tol:g}; isolation: {result.isolation})")
        wrong = [item for item in result.items if not item.correct]
        for item in wrong[:20]:
            print(f"  {item.id if item.id is not None else f'line {item.line}'}: {item.reason}")
        if len(wrong) > 20:
            print(f"  ... and {len(wrong) - 20} more (use --json for all)")
        for bad in result.bad_predictions[:20]:
            print(f"  prediction line {bad.line}: {bad.reason}")
    return EXIT_OK
