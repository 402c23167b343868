"""``progexec check-evaluator``: prove a whole FinQA evaluator port, in any language, against the official answers.

Exit 0 when no case diverges (lesser classes aside, unless ``--strict``), 1 when any does or
the port broke the protocol, 2 for a usage error (bad arguments, a command that cannot start,
a ``--python`` function that cannot be imported).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..checker.engine import DEFAULT_TIMEOUT, command_port
from ..checker.evaluator.cases import SUITES
from ..checker.evaluator.check import DEFAULT_CHUNK, ChildEvaluator, EvalReport, run_evaluator_check
from ..checker.evaluator.output import as_json, as_junit, as_text
from ..checker.evaluator.pipeline import run_pipelined
from ..checker.evaluator.protocol import Protocol
from .check_ports import command_argv, emit_check, python_target
from .common import Progress, add_check_options, json_document
from ..core.errors import OptionError, SetupError

NAME = "check-evaluator"
HELP = "check a FinQA evaluator port (an external program or a Python function) against the official answers"
EXIT_CODES = ("exit codes: 0 no case diverges (lesser classes aside, unless --strict), 1 some case diverges or "
              "the port broke the protocol, 2 usage error (bad arguments, a command that cannot start, a "
              "--python function that cannot be imported)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--cmd", metavar="COMMAND",
                        help="an external program: one JSON case per line on stdin, one JSON answer per line "
                             "on stdout, in order, flushed (see docs/check-evaluator.md)")
    source.add_argument("--python", metavar="MODULE:FUNC",
                        help="FUNC(program, table, dialect) -> (valid, value) or {'valid', 'value'}, run in a "
                             "child process (flat: FUNC(ops, ..., n_steps) -> the contract's result)")
    parser.add_argument("--protocol", choices=[p.value for p in Protocol], default=Protocol.JSONL.value,
                        help="jsonl: program text (default); tokens: the official token list; flat: the "
                             "contract's parallel lists, checked on status codes too")
    parser.add_argument("--suite", choices=sorted(SUITES), default="all",
                        help="gold: every embedded FinQA and ConvFinQA program; rules: one family per rule and "
                             "quirk, refusals, long chains, hostile tables; boundaries: 5-place rounding "
                             "boundaries; all (default)")
    parser.add_argument("--cases", type=int, metavar="N",
                        help="number of cases (default: the whole suite; fewer: a share of every family)")
    parser.add_argument("--strict", action="store_true",
                        help="also fail on the lesser classes (libm_pow, sign_of_zero, unflushed)")
    parser.add_argument("--isolate", action="store_true",
                        help="run the port inside the bubblewrap sandbox: no network, the host's files hidden except "
                             "its own directory, read-only (see docs/check-evaluator.md)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"seconds without progress before the port counts as hung and is killed "
                             f"(default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--jobs", "-j", type=int, default=1, metavar="N",
                        help="run N copies of the port, each answering whole chunks, checked in suite order "
                             "(the same report as one port; default 1)")
    add_check_options(parser, DEFAULT_CHUNK)


def _port(args: argparse.Namespace, protocol: Protocol) -> tuple[ChildEvaluator, str]:
    if args.python:
        python_target(args.python)
        port = ChildEvaluator.python(args.python, protocol, args.timeout, args.chunk, isolate=args.isolate)
        name = args.python
    else:
        argv, sandbox = command_port(command_argv(args.cmd), args.isolate)
        port, name = ChildEvaluator(argv, protocol, args.timeout, args.chunk, sandbox=sandbox), args.cmd
    try:
        port.start()
    except SetupError as error:
        raise OptionError(f"cannot start {name}: {error}") from None
    return port, name


def run(args: argparse.Namespace) -> int:
    if args.cases is not None and args.cases < 1:
        raise OptionError("--cases must be at least 1")
    if args.timeout <= 0 or args.chunk < 1:
        raise OptionError("--timeout must be positive and --chunk at least 1")
    if args.jobs < 1:
        raise OptionError("--jobs must be at least 1")
    protocol = Protocol(args.protocol)
    ports: list[ChildEvaluator] = []
    try:
        for _ in range(args.jobs):  # one port process per job; chunks are shared out, checked in suite order
            port, name = _port(args, protocol)
            ports.append(port)
        progress = Progress(args.cases or 0, NAME, args.progress)
        hook = lambda done, total: _update(progress, done, total)  # noqa: E731
        if len(ports) == 1:
            report = run_evaluator_check(ports[0], name, protocol, args.suite, args.cases, args.seed, args.chunk,
                                         progress=hook)
        else:
            report = run_pipelined(ports, name, protocol, args.suite, args.cases, args.seed, args.chunk, progress=hook)
        progress.close()
    finally:
        for port in ports:
            port.close()
    report.faults = [fault for port in ports for fault in port.faults()]
    report.notes = [note for port in ports for note in port.engine.notes] + report.notes
    return _emit(report, args)


def _update(progress: Progress, done: int, total: int) -> None:
    progress.total = total
    progress.update(done)


def _emit(report: EvalReport, args: argparse.Namespace) -> int:
    return emit_check(report.passed(args.strict), args.junit, lambda: as_junit(report, args.strict),
                      lambda: _json(report, args) if args.json else as_text(report, args.strict))


def _json(report: Any, args: argparse.Namespace) -> str:
    """The ``--json`` document: ``format_version`` (the one of :mod:`progexec.records`), ``meta``, the report."""
    body = {key: value for key, value in as_json(report, args.strict).items() if key != "format_version"}
    return json.dumps(json_document(args, [], body), indent=2, ensure_ascii=False)
