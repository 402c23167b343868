"""``progexec check-rounder``: prove a rounder bit for bit against CPython ``round`` before it ships.

Exit 0 when no case diverges, 1 when any does, 2 for a usage error (bad arguments, a module or
function that cannot be imported, a command that cannot be started).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..checker.cases import DEFAULT_CASES, DigitsPlan
from ..checker.check import Answerer, CheckReport, run_check
from ..checker.engine import command_port
from ..checker.external import DEFAULT_CHUNK, DEFAULT_TIMEOUT, ExternalRounder
from ..checker.output import as_json, as_junit, as_text
from ..core.errors import ProgexecError, OptionError, SetupError
from ..parallel import Engine, ParallelOptions
from ..parallel_check import run_check_parallel, spec_from_args
from .parallel_args import add_parallel_arguments, parallel_options
from .check_ports import command_argv, emit_check, python_target
from .common import Progress, add_check_options, json_document

NAME = "check-rounder"
HELP = "check a rounder (a Python function or an external program) against CPython round, bit for bit"
EXIT_CODES = ("exit codes: 0 no case diverges, 1 some case diverges, 2 usage error (bad arguments, a module or "
              "function that cannot be imported, a command that cannot be started)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--python", metavar="MODULE:FUNC",
                        help="FUNC(x: float, ndigits: int) -> float, imported from MODULE in a child process "
                             "(the current directory and PYTHONPATH are searched)")
    source.add_argument("--cmd", metavar="COMMAND",
                        help="an external program: reads '<x as float.hex()> <ndigits>' lines on stdin, "
                             "writes one answer line each (float.hex() or a decimal literal), flushing")
    parser.add_argument("--digits", metavar="N",
                        help="ndigits to check: N, A-B or a comma list (default: 5, plus 0-15 in the "
                             "other_ndigits family)")
    parser.add_argument("--cases", type=int, default=DEFAULT_CASES, metavar="N",
                        help=f"number of cases (default {DEFAULT_CASES:,})")
    parser.add_argument("--nonfinite", action="store_true",
                        help="also check inf, -inf and nan (CPython returns them as is)")
    parser.add_argument("--allow-sign-of-zero", action="store_true",
                        help="exit 0 when the only divergences are zeros with the wrong sign")
    parser.add_argument("--search", nargs="?", const=2000, type=int, metavar="EXAMPLES",
                        help="also let hypothesis search for the simplest counterexample (default 2000 examples)")
    parser.add_argument("--examples", type=int, default=20, metavar="N",
                        help="counterexamples to keep (default 20, plus the first of every class and family)")
    parser.add_argument("--isolate", action="store_true",
                        help="run the rounder inside the bubblewrap sandbox: no network, the host's files hidden "
                             "except its own directory, read-only (see docs/check-rounder.md)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"seconds without progress before the rounder counts as hung (default {DEFAULT_TIMEOUT:g}); "
                             "the rounder's process group is then killed")
    add_check_options(parser, DEFAULT_CHUNK)
    add_parallel_arguments(parser, chunk_size=1)


def _answerer(args: argparse.Namespace) -> tuple[Answerer, str, ExternalRounder]:
    """The rounder as a child process: the external program, or ``--python`` run in a child."""
    if args.python:
        python_target(args.python)
        external = ExternalRounder.python(args.python, timeout=args.timeout, chunk=args.chunk, isolate=args.isolate)
        name = args.python
    else:
        argv, sandbox = command_port(command_argv(args.cmd), args.isolate)
        external = ExternalRounder(argv, timeout=args.timeout, chunk=args.chunk, sandbox=sandbox)
        name = args.cmd
    try:
        external.start()
    except SetupError as error:
        raise OptionError(f"cannot start {name}: {error}") from None
    return external, name, external


def run(args: argparse.Namespace) -> int:
    if args.cases < 1:
        raise OptionError("--cases must be at least 1")
    if args.timeout <= 0 or args.chunk < 1:
        raise OptionError("--timeout must be positive and --chunk at least 1")
    try:
        plan = DigitsPlan.parse(args.digits)
    except ValueError as error:
        raise OptionError(str(error)) from None
    options = parallel_options(args)
    if options.engine is not Engine.SERIAL:
        return _run_parallel(args, plan, options)
    answer, name, external = _answerer(args)
    progress = Progress(args.cases, "check-rounder", args.progress)
    try:
        report = run_check(answer, name, args.cases, args.seed, plan, limit=args.examples,
                           progress=lambda done, total: progress.update(done), nonfinite=args.nonfinite,
                           step=10_000)
        progress.close()
        if args.search:
            report.search = _search(answer, plan, args)
    finally:
        external.close()
    report.protocol = list(external.notes)
    report.faults = external.report_faults()
    return _emit(report, args)


def _run_parallel(args: argparse.Namespace, plan: DigitsPlan, options: ParallelOptions) -> int:
    """The suite's blocks across local processes or a Ray cluster: the serial report, merged in order."""
    if args.search:
        raise OptionError("--search runs in one process: drop --jobs/--engine to use it")
    spec = spec_from_args(args.python, command_argv(args.cmd) if args.cmd else None, args.timeout, args.chunk, args.isolate)
    progress = Progress(args.cases, "check-rounder", args.progress)
    try:
        report = run_check_parallel(spec, args.python or args.cmd, options, args.cases, args.seed, plan,
                                    limit=args.examples, progress=lambda done, total: progress.update(done),
                                    nonfinite=args.nonfinite)
    except ProgexecError as error:
        raise OptionError(str(error)) from None
    finally:
        progress.close()
    return _emit(report, args)


def _search(answer: Answerer, plan: DigitsPlan, args: argparse.Namespace) -> Any:
    try:
        from ..checker.search import search
        return search(answer, plan, args.seed, args.search, args.allow_sign_of_zero)
    except ImportError:
        raise OptionError("--search needs hypothesis: pip install 'progexec[test]'") from None


def _emit(report: CheckReport, args: argparse.Namespace) -> int:
    return emit_check(report.passed(args.allow_sign_of_zero), args.junit, lambda: as_junit(report, args.allow_sign_of_zero),
                      lambda: _json(report, args) if args.json else as_text(report, args.allow_sign_of_zero))


def _json(report: Any, args: argparse.Namespace) -> str:
    """The ``--json`` document: ``format_version`` (the one of :mod:`progexec.records`), ``meta``, the report."""
    body = {key: value for key, value in as_json(report, args.allow_sign_of_zero).items() if key != "format_version"}
    return json.dumps(json_document(args, [], body), indent=2, ensure_ascii=False)
