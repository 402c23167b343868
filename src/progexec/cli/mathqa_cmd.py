"""``progexec mathqa-python [INPUT] --out FILE``: translate MathQA items into MathQA-Python items."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..mathqa.corpus import MATHQA_SPLITS, mathqa_records
from ..mathqa.execute import MathQAInputError, Semantics, SemanticsError, check_semantics, read_mathqa
from ..mathqa.ops import MATHQA_OPS
from .common import EXIT_OK, UsageError, open_output

NAME = "mathqa-python"
HELP = ("translate MathQA problems into MathQA-Python items (id, text, code, answer), keeping those whose "
        "answer is within one percent of the correct option, as the original release did")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", nargs="?", help="a MathQA file (.json / .json.gz); default: an embedded split")
    parser.add_argument("--split", choices=MATHQA_SPLITS, default="test",
                        help="embedded MathQA split to translate when no INPUT is given (default test)")
    parser.add_argument("--out", metavar="FILE", help="write JSON Lines here instead of standard output")
    parser.add_argument("--quiet", action="store_true", help="no summary on stderr")
    add_semantics_argument(parser)


def add_semantics_argument(parser: argparse.ArgumentParser) -> None:
    """``--semantics progexec|trax`` for every MathQA command (see docs/mathqa.md)."""
    parser.add_argument("--semantics", choices=[s.value for s in Semantics], default=Semantics.PROGEXEC.value,
                        help="whose MathQA numerics: progexec's (default) or google/trax's exactly "
                             "(scipy choose, numpy int64 gcd/lcm, trax's argument reading; needs numpy and scipy)")


def semantics_from(args: argparse.Namespace) -> Semantics:
    """The chosen semantics, checked usable (numpy and scipy present for trax); UsageError otherwise."""
    semantics = Semantics(args.semantics)
    try:
        check_semantics(semantics, False, MATHQA_OPS)
    except SemanticsError as error:
        raise UsageError(str(error)) from None
    return semantics


def _records(args: argparse.Namespace) -> list[Any]:
    if args.input is None:
        return list(mathqa_records(args.split))
    try:
        return read_mathqa(Path(args.input))
    except MathQAInputError as error:
        raise UsageError(str(error)) from None


def run(args: argparse.Namespace) -> int:
    from ..mathqa.python_gen import translate_all  # here, not at the top: exec imports this module's helpers

    semantics = semantics_from(args)
    records = _records(args)
    out = open_output(args.out)
    kept = 0
    try:
        for item in translate_all(records, semantics):
            out.write(json.dumps(item.record(), ensure_ascii=False, allow_nan=False) + "\n")
            kept += 1
    finally:
        if out is not sys.stdout:
            out.close()
    if not args.quiet:
        print(f"mathqa-python: kept {kept} of {len(records)} problems (value and code within 1% of the correct option)",
              file=sys.stderr)
    return EXIT_OK
