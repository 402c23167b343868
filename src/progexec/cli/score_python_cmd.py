"""``progexec score-python --gold FILE --pred FILE``: execute predicted MathQA-Python code in a sandbox and score it."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..mathqa.sandbox import SandboxLimits, default_jobs
from ..mathqa.score_python import DEFAULT_REL_TOL, ScoreInputError, gold_answers, predicted_code, read_records, score
from .common import EXIT_OK, UsageError

NAME = "score-python"
HELP = ("run predicted MathQA-Python snippets ({id, code}) in a sandbox, one process each, and score their "
        "'answer' against the gold ({id, answer})")


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


def run(args: argparse.Namespace) -> int:
    if not args.rel_tol >= 0 or args.timeout <= 0 or args.memory_mb <= 0 or args.jobs <= 0:
        raise UsageError("--rel-tol must be >= 0 and --timeout, --memory-mb, --jobs positive")
    try:
        gold = gold_answers(read_records(Path(args.gold)))
        predictions = predicted_code(read_records(Path(args.pred)))
    except ScoreInputError as error:
        raise UsageError(str(error)) from None
    limits = SandboxLimits(timeout=args.timeout, memory_bytes=args.memory_mb * 1024 * 1024)
    result = score(gold, predictions, args.rel_tol, limits, args.jobs)
    if args.json:
        print(json.dumps(result.record(), ensure_ascii=False, allow_nan=False))
    else:
        print(f"score-python: {result.correct}/{result.n} correct, accuracy {result.accuracy:.4f} "
              f"(rel_tol {result.rel_tol:g})")
        wrong = [item for item in result.items if not item.correct]
        for item in wrong[:20]:
            print(f"  {item.id}: {item.reason}")
        if len(wrong) > 20:
            print(f"  ... and {len(wrong) - 20} more (use --json for all)")
    return EXIT_OK
