"""``progexec mathqa-python [INPUT] --out FILE``: translate MathQA items into MathQA-Python items."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from functools import partial
from itertools import chain, islice
from typing import TYPE_CHECKING, Any

from ..datasets.mathqa.corpus import MATHQA_SPLITS, mathqa_records
from ..datasets.mathqa.execute import MATHQA_FILE as MATHQA, Semantics, check_semantics
from ..core.errors import OptionError, InputError
from ..datasets.mathqa.ops import MATHQA_OPS
from ..parallel import PerItem, parallel_map
from ..readers import read_records
from ..records import dumps
from .parallel_args import add_parallel_arguments, parallel_options
from .common import EXIT_OK, add_batch_options, open_output, progress_for, write_summary
from ..core.plural import plural

if TYPE_CHECKING:
    from ..datasets.mathqa.python_gen import PythonItem

NAME = "mathqa-python"
HELP = ("translate MathQA problems into MathQA-Python items (id, text, code, answer), keeping those whose "
        "answer is within one percent of the correct option, as the original release did")
EXIT_CODES = ("exit codes: 0 translated (problems without a close translation are left out), 2 usage or input "
              "error")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", nargs="?", help="a MathQA file (.json, .jsonl, gzip too) or - for stdin; default: an embedded split")
    parser.add_argument("--split", choices=MATHQA_SPLITS, default="test",
                        help="embedded MathQA split to translate when no INPUT is given (default test)")
    parser.add_argument("--out", metavar="FILE", help="write JSON Lines here instead of standard output")
    parser.add_argument("--summary", metavar="FILE",
                        help="also write the run's summary as one JSON document (format_version, meta, counts)")
    parser.add_argument("--quiet", action="store_true", help="no summary on stderr")
    add_semantics_argument(parser)
    add_batch_options(parser)
    add_parallel_arguments(parser)


def add_semantics_argument(parser: argparse.ArgumentParser) -> None:
    """``--semantics progexec|trax`` for every MathQA command (see docs/mathqa.md)."""
    parser.add_argument("--semantics", choices=[s.value for s in Semantics], default=Semantics.PROGEXEC.value,
                        help="whose MathQA numerics: progexec's (default) or google/trax's exactly "
                             "(scipy choose, numpy int64 gcd/lcm, trax's argument reading; needs numpy and scipy)")


def semantics_from(args: argparse.Namespace) -> Semantics:
    """The chosen semantics, checked usable (numpy and scipy present for trax); OptionError otherwise."""
    semantics = Semantics(args.semantics)
    try:
        check_semantics(semantics, False, MATHQA_OPS)
    except OptionError as error:
        raise OptionError(str(error)) from None
    return semantics


def _records(args: argparse.Namespace) -> Iterator[Any]:
    """The MathQA records, through the one reader path (a path, ``-``, gzip by its bytes, refused when not
    MathQA); an unreadable record is None (never kept)."""
    if args.input is None:
        yield from mathqa_records(args.split)
        return
    try:
        for record in read_records(args.input, wanted=MATHQA, document=False):
            yield record.value if record.error is None else None
    except InputError as error:
        raise OptionError(str(error)) from None


def _translate(numbered: tuple[int, Any], semantics: Semantics) -> PythonItem | None:
    from ..datasets.mathqa.python_gen import translate  # here: exec imports this module's helpers, not the translator

    """One numbered MathQA record to its kept MathQA-Python item (module level: any engine runs it)."""
    return translate(numbered[1], numbered[0], semantics)


def run(args: argparse.Namespace) -> int:
    semantics = semantics_from(args)
    records = _records(args)
    head = list(islice(records, 1))  # the input is judged (and refused) before the output is opened
    seen = [0]

    def counted() -> Iterator[Any]:
        for record in chain(head, records):
            seen[0] += 1
            yield record

    out = open_output(args.out)
    kept = 0
    progress = progress_for(args, None, NAME, [args.input or f"mathqa:{args.split}"])
    try:
        work = PerItem(partial(_translate, semantics=semantics))
        for item in parallel_map(work, enumerate(counted()), parallel_options(args)):
            if item is not None:
                out.write(dumps(item.record()) + "\n")
                kept += 1
            progress.update(seen[0])
    finally:
        progress.close()
        if out is not sys.stdout:
            out.close()
    write_summary(args, [args.input or f"mathqa:{args.split}"], {"command": NAME, "records": seen[0], "kept": kept})
    if not args.quiet:
        print(f"mathqa-python: kept {kept} of {plural(seen[0], 'problem')} (value and code within 1% of the correct "
              f"option)",
              file=sys.stderr)
    return EXIT_OK
