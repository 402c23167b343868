"""``progexec run PROGRAM``: execute one program and print its answer and status."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..interp.evaluate import first_refusal_text
from ..interp.run import DIALECTS, Execution, execute_text, execute_tokens
from ..interp.status import Status
from ..interp.table import TableError, validate_table
from .common import EXIT_DIVERGENCE, EXIT_OK, UsageError, dumps, json_number

NAME = "run"
HELP = "execute one program (text, or a JSON token list) and print its answer"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("program", help='program text, e.g. "subtract(34.8, 1.2), divide(#0, 34.8)", '
                        'or a JSON token list \'["subtract(", "34.8", "1.2", ")", "EOF"]\'')
    parser.add_argument("--table", metavar="FILE", help="JSON file with the table (a list of rows, or an item with 'table')")
    parser.add_argument("--dialect", choices=DIALECTS, default="finqa",
                        help="official evaluator to follow (convfinqa accepts bare-number programs)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def load_table(path: str | None) -> list[list[str]] | None:
    if path is None:
        return None
    try:
        data: Any = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise UsageError(f"cannot read table {path}: {error}") from None
    if isinstance(data, dict):
        data = data.get("table")
    try:
        return validate_table(data)
    except TableError as error:
        raise UsageError(f"table {path}: {error}") from None


def execution_record(execution: Execution) -> dict[str, Any]:
    """The JSON fields every command prints for one executed program."""
    outcome = execution.outcome
    record: dict[str, Any] = {
        "status": outcome.status.label,
        "code": int(outcome.status),
        "value": json_number(outcome.answer()),
    }
    if not outcome.present:
        record["message"] = outcome.message
        if outcome.step is not None:
            record["step"] = outcome.step
        if outcome.arg is not None:
            record["arg"] = outcome.arg
    record["official_valid"] = execution.official.valid
    record["official_value"] = json_number(execution.official.value)
    return record


def run(args: argparse.Namespace) -> int:
    table = load_table(args.table)
    text: str = args.program
    if text.lstrip().startswith("["):
        try:
            tokens = json.loads(text)
        except json.JSONDecodeError as error:
            raise UsageError(f"the program looks like a token list but is not JSON: {error}") from None
        if not isinstance(tokens, list) or not all(isinstance(token, str) for token in tokens):
            raise UsageError("a token list must be a JSON list of strings")
        execution = execute_tokens(tokens, table, args.dialect)
    else:
        execution = execute_text(text, table, args.dialect)
    outcome = execution.outcome
    if args.json:
        print(dumps(execution_record(execution)))
    elif outcome.present:
        print(f"{json_number(outcome.answer())}")
    else:
        print(f"refused: {first_refusal_text(outcome)}")
        if execution.error is not None:
            print(execution.error.excerpt())
    if outcome.present and execution.program is not None and execution.program.official_invalid:
        import sys
        print(f"note: the official evaluator would call this program invalid ({execution.program.official_note})",
              file=sys.stderr)
    return EXIT_OK if outcome.status is Status.OK else EXIT_DIVERGENCE
