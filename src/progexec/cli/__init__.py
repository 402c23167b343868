"""The ``progexec`` command line: ``main(argv=None) -> int`` and one module per subcommand.

Each subcommand module has ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``. Exit codes are named in :mod:`progexec.cli.common`.

Layer (docs/architecture.md): the top, under ``__main__`` only. May import every other layer; nothing imports it
but ``progexec.__main__``.
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import re
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any, NoReturn, TextIO

from ..core.limits import limit_help, using
from .common import EXIT_USAGE, closest, internal_error, limits_from, take_written
from ..core.errors import OptionError
from .. import inputmeter

COMMAND_MODULES: dict[str, str] = {
    "run": "run_cmd", "exec": "exec_cmd", "report": "report_cmd", "score": "score_cmd",
    "check-rounder": "check_rounder_cmd", "mathqa-python": "mathqa_cmd", "score-python": "score_python_cmd",
    "check-evaluator": "check_evaluator_cmd", "conformance": "conformance_cmd", "reward": "reward_cmd",
    "serve": "serve_cmd",
    "rows": "rows_cmd",
    "check-reward": "check_reward_cmd",
}
"""Subcommand name -> its module, in help order. A command line that names its command imports only that
module (a tenth of a second or more saved on every run); ``progexec --help`` imports them all."""


def _commands(only: str | None = None) -> list[ModuleType]:
    modules = []
    for command, name in COMMAND_MODULES.items():
        if only is not None and command != only:
            continue
        try:
            modules.append(importlib.import_module(f"{__name__}.{name}"))
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
    return modules


def _named_command(argv: Sequence[str]) -> str | None:
    """The subcommand a command line names (its first word that is not an option), if it names one."""
    for word in argv:
        if word in ("-h", "--help", "--version"):
            return None
        if not word.startswith("-"):
            return word if word in COMMAND_MODULES else None
    return None


DEFAULT_EXIT_CODES = "exit codes: 0 ok, 1 divergence or mismatch found, 2 usage or input error, 3 internal error"


class Parser(argparse.ArgumentParser):
    """argparse with a suggestion for a misspelled option, command or choice (``did you mean '--out'?``),
    only when one is close to the typo; no abbreviations (``--no-progres`` is an error, never taken for
    ``--no-progress``: a typo must not change what runs). ``commands`` maps each subcommand name to its parser."""

    commands: dict[str, argparse.ArgumentParser]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["allow_abbrev"] = False  # subcommand parsers are made by this class too (add_parser)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        super().error(message + _hint(self, message))


_WORDS: list[str] = []
"""The command line being parsed (an error about a missing option may come from a misspelled one)."""


def _hint(parser: argparse.ArgumentParser, message: str) -> str:
    """``"; did you mean 'X'?"`` for the first misspelled option of the command line, or the invalid
    choice named in ``message``."""
    choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
    if choice is not None:
        known = re.findall(r"'([^']*)'", choice.group(2)) or [word.strip() for word in choice.group(2).split(",")]
        close = closest(choice.group(1), known)
        if close:
            return f"; did you mean {close!r}?"
    known = [option for action in parser._actions for option in action.option_strings]
    words = message.split(": ", 1)[1].split() if message.startswith("unrecognized arguments: ") else _WORDS
    for word in words:
        name = word.split("=")[0]
        if not word.startswith("-") or name in known:
            continue  # an option of this command
        if close := closest(name, known):
            return f"; did you mean {close!r}?"
    return ""


def build_parser(only: str | None = None) -> Parser:
    """The whole command line; ``only`` builds just that subcommand (the others are then not importable)."""
    from ..core.version import __version__

    parser = Parser(
        prog="progexec",
        description="Execute, check and score FinQA-family programs exactly as the official evaluators do.",
        epilog=DEFAULT_EXIT_CODES)
    parser.add_argument("--version", action="version", version=f"progexec {__version__}")
    parser.add_argument("--debug", action="store_true", help="show a full traceback on an internal error")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    parser.commands = {}
    for module in _commands(only):
        for name in getattr(module, "NAMES", (module.NAME,)):
            codes = getattr(module, "EXIT_CODES", DEFAULT_EXIT_CODES)
            command = sub.add_parser(name, help=module.HELP, description=module.HELP,
                                     epilog=codes if "3 internal" in codes else f"{codes}, 3 internal error")
            command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                                 help="show a full traceback on an internal error")
            module.add_arguments(command)
            command.add_argument("--limit", action="append", metavar="NAME=VALUE", help=limit_help())
            command.set_defaults(handler=module.run, command_name=name)
            parser.commands[name] = command
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code (0 ok, 1 divergence found, 2 usage or input error)."""
    words = list(sys.argv[1:] if argv is None else argv)
    _WORDS[:] = words
    parser = build_parser(_named_command(words))
    try:
        args, extras = parser.parse_known_args(argv)
        if extras:  # the command's own parser names them, with a suggestion from its options
            parser.commands.get(getattr(args, "command_name", ""), parser).error(
                f"unrecognized arguments: {' '.join(extras)}")
    except SystemExit as exit_:
        return int(exit_.code) if isinstance(exit_.code, int) else EXIT_USAGE
    args.argv = list(sys.argv[1:] if argv is None else argv)
    if not getattr(args, "handler", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    guard = PipeGuard.install()
    take_written()
    inputmeter.reset()  # a progress line counts the input bytes this command reads
    try:
        with using(limits_from(args)):  # every command runs under its --limit bounds
            code = int(args.handler(args))
        for path in take_written():  # every file a command wrote is named on stderr
            print(f"progexec {args.command_name}: wrote {path}", file=sys.stderr)
        return code
    except OptionError as error:
        print(f"progexec {args.command_name}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("progexec: interrupted", file=sys.stderr)
        return 130
    except Exception as error:  # a genuine bug: one line, not a traceback, unless --debug
        if getattr(args, "debug", False):
            raise
        return internal_error(error)
    finally:
        guard.restore()


class PipeGuard:
    """Standard output that survives its reader going away (``progexec ... | head -2``): once the pipe
    is closed, further output is discarded, so the command finishes and keeps its own exit code."""

    def __init__(self, inner: TextIO) -> None:
        self.inner = inner
        self.broken = False

    @classmethod
    def install(cls) -> PipeGuard:
        guard = cls(sys.stdout)
        sys.stdout = _GuardedStream(guard)
        return guard

    def restore(self) -> None:
        if isinstance(sys.stdout, _GuardedStream):
            try:
                sys.stdout.flush()
            finally:
                sys.stdout = self.inner

    def lost(self) -> None:
        """The reader closed the pipe: point the descriptor at /dev/null so the final flush is silent."""
        self.broken = True
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.inner.fileno())
            os.close(devnull)
        except (OSError, ValueError, io.UnsupportedOperation):
            pass


class _GuardedStream(io.TextIOBase):
    """The text stream PipeGuard puts in front of the real standard output."""

    def __init__(self, guard: PipeGuard) -> None:
        self.guard = guard

    def write(self, text: str) -> int:
        if not self.guard.broken:
            try:
                self.guard.inner.write(text)
            except BrokenPipeError:
                self.guard.lost()
        return len(text)

    def flush(self) -> None:
        if not self.guard.broken:
            try:
                self.guard.inner.flush()
            except BrokenPipeError:
                self.guard.lost()

    def isatty(self) -> bool:
        return self.guard.inner.isatty()

    def fileno(self) -> int:
        return self.guard.inner.fileno()
