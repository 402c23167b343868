"""``progexec rows INPUT --for verl|trl|openrlhf --out FILE``: training rows with their passages and gold.

INPUT is an official FinQA, ConvFinQA or MathQA file (a path, ``-`` for standard input) or an
embedded corpus name; FILE ends in ``.parquet`` (needs pyarrow) or ``.jsonl``. The work is
:func:`progexec.integrations.rows.build_rows`; see docs/reward-integrations.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..integrations.rows import DEFAULT_TEMPLATE, TARGETS, build_rows, check_template, write_rows
from ..reward.model import Policy
from .common import EXIT_OK, note_written
from ..core.errors import OptionError, InputError
from ..core.plural import plural

NAME = "rows"
HELP = "write verl / TRL / OpenRLHF training rows (prompt with passages and table, gold record) from a dataset"
EXIT_CODES = "exit codes: 0 rows written, 2 usage or input error (the message names the file and record), " \
             "3 internal error"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", help="an official FinQA / ConvFinQA / MathQA file (JSON list or JSON Lines, "
                                      "maybe .gz), - for stdin, or an embedded corpus (finqa:test, ...)")
    parser.add_argument("--for", dest="target", required=True, choices=TARGETS, help="the trainer the rows are for")
    parser.add_argument("--out", required=True, metavar="FILE", help="FILE.parquet or FILE.jsonl")
    parser.add_argument("--policy", default=Policy.NUMERIC.value, choices=[policy.value for policy in Policy],
                        help="the policy written into each row's gold, and which instruction the prompt ends "
                             "with (default numeric)")
    parser.add_argument("--template", metavar="FILE", type=Path,
                        help="a prompt template (str.format fields: pre_text, table, post_text, history, "
                             "question, options, instruction); default: the documented one")
    parser.add_argument("--table-units", action="store_true",
                        help="set the gold's opt-in unit: the one the question asks for ('in billions'), else "
                             "the one the table or a passage states ('in millions'); none for a percentage or a "
                             "question naming two units (each row lists them in question_units)")


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    try:
        template = DEFAULT_TEMPLATE
        if args.template is not None:
            try:
                template = check_template(args.template.read_text(encoding="utf-8"))
            except OSError as error:
                raise OptionError(f"cannot read the template {args.template}: {error.strerror or error}") from None
        rows = list(build_rows(args.input, args.target, Policy(args.policy), template, args.table_units))
        count = write_rows(rows, out)
    except InputError as error:
        raise OptionError(str(error)) from None
    print(f"progexec rows: {plural(count, args.target + ' row')}", file=sys.stderr)
    note_written(out)  # named on stderr as every command's files are: progexec rows: wrote OUT
    return EXIT_OK
