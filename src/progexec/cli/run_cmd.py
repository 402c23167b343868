"""``progexec run PROGRAM``: execute one program and print its answer and status."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..interp.evaluate import first_refusal_text
from ..core.registry import dataset_names as dialect_names, get_dataset
from ..core.item import program_item
from ..runner import execute
from ..core.status import Status
from ..core.table import validate_table
from ..core.errors import InputError, OptionError
from ..records import dumps, json_value, outcome_fields
from ..jsonrecords import decode, read_document
from ..textsource import open_source
from .common import EXIT_DIVERGENCE, EXIT_OK, limits_from

NAME = "run"
HELP = "execute one program (text, or a JSON token list) and print its answer"
EXIT_CODES = ("exit codes: 0 the program has a value, 1 it was refused (its status says why), 2 usage or input "
              "error")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("program", nargs="?", help='program text, e.g. "subtract(34.8, 1.2), divide(#0, 34.8)", '
                        'or a JSON token list \'["subtract(", "34.8", "1.2", ")", "EOF"]\'; - reads standard input')
    parser.add_argument("--file", metavar="PATH", help="read the program from a file (for programs too long for "
                        "the command line)")
    parser.add_argument("--table", metavar="FILE", help="JSON file with the table (a list of rows, or an item with 'table')")
    parser.add_argument("--dialect", choices=dialect_names(), default="finqa",
                        help="official evaluator to follow (convfinqa accepts bare-number programs; multihiertt "
                             "strips $ , - %% from numbers; mathqa runs a linear formula over --problem's numbers)")
    parser.add_argument("--problem", metavar="TEXT", default="",
                        help="the problem text whose numbers a MathQA formula's nK name")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def load_table(path: str | None) -> list[list[str]] | None:
    if path is None:
        return None
    try:  # the one reader path: a path or -, gzip, a BOM, bounded by max_line_chars
        source = open_source(path)
        try:
            record = read_document(source)
        finally:
            source.close()
    except InputError as error:
        raise OptionError(f"cannot read table {error}") from None
    if record.error is not None:
        raise OptionError(f"cannot read table {path}: {record.error}")
    data: Any = record.value
    if isinstance(data, dict):
        data = data.get("table")
    try:
        return validate_table(data)
    except InputError as error:
        raise OptionError(f"table {path}: {error}") from None


def _program_text(args: argparse.Namespace) -> str:
    if args.file is not None and args.program is not None:
        raise OptionError("give the program either as an argument or with --file, not both")
    if args.file is None and args.program is None:
        raise OptionError("no program: give it as an argument, - for standard input, or --file PATH")
    if args.program == "-" or args.file == "-":
        return sys.stdin.read().rstrip("\n")
    if args.file is not None:
        try:
            return Path(args.file).read_text(encoding="utf-8").rstrip("\n")
        except (OSError, UnicodeDecodeError) as error:
            raise OptionError(f"cannot read the program file {args.file}: {error}") from None
    return str(args.program)


def run(args: argparse.Namespace) -> int:
    table = load_table(args.table)
    text = _program_text(args)
    if text.lstrip().startswith("["):
        record = decode(text, 1, "the token list")  # a huge integer or deep nesting: an error, never a crash
        if record.error is not None:
            raise OptionError(f"the program looks like a token list but {record.error}")
        tokens = record.value
        if not isinstance(tokens, list) or not all(isinstance(token, str) for token in tokens):
            raise OptionError("a token list must be a JSON list of strings")
        program: str | list[str] = tokens
    else:
        program = text
    execution = execute(program_item(program, table, get_dataset(args.dialect), args.problem), limits_from(args))
    outcome = execution.outcome
    if args.json:
        print(dumps(outcome_fields(execution)))
    elif outcome.present:
        print(f"{json_value(outcome.answer())}")
    else:
        print(f"refused: {first_refusal_text(outcome)}")
        if execution.error is not None:
            print(execution.error.excerpt())
    if outcome.present and execution.program is not None and execution.program.official_invalid:
        print(f"note: the official evaluator would call this program invalid ({execution.program.official_note})",
              file=sys.stderr)
    return EXIT_OK if outcome.status is Status.OK else EXIT_DIVERGENCE
