"""The ``progexec`` command line: ``main(argv=None) -> int`` and one module per subcommand.

Each subcommand module has ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``. Exit codes are named in :mod:`progexec.cli.common`.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from .common import EXIT_USAGE, UsageError, internal_error

COMMAND_MODULES = (
    "run", "exec_cmd", "report_cmd", "score_cmd", "check_rounder_cmd", "mathqa_cmd", "score_python_cmd",
    "reward_cmd", "serve_cmd",
)
"""Subcommand modules, in help order; a module that is not present in this build is skipped."""


def _commands() -> list[ModuleType]:
    modules = []
    for name in COMMAND_MODULES:
        try:
            modules.append(importlib.import_module(f"{__name__}.{name}"))
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
    return modules


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="progexec",
        description="Execute, check and score FinQA-family programs exactly as the official evaluators do.")
    parser.add_argument("--debug", action="store_true", help="show a full traceback on an internal error")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _commands():
        for name in getattr(module, "NAMES", (module.NAME,)):
            command = sub.add_parser(name, help=module.HELP, description=module.HELP)
            command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                                 help="show a full traceback on an internal error")
            module.add_arguments(command)
            command.set_defaults(handler=module.run, command_name=name)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code (0 ok, 1 divergence found, 2 usage or input error)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code) if isinstance(exit_.code, int) else EXIT_USAGE
    if not getattr(args, "handler", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return int(args.handler(args))
    except UsageError as error:
        print(f"progexec {args.command_name}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("progexec: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as error:  # a genuine bug: one line, not a traceback, unless --debug
        if getattr(args, "debug", False):
            raise
        return internal_error(error)
