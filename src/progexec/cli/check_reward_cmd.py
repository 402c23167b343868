"""``progexec check-reward``: run an RL reward function on a generated suite and its probes.

Exit 0 when no class listed in ``--fail-on`` occurs, 1 when one does (or the run budget ran
out), 2 for a usage error (bad arguments, a function that cannot be imported or started, a
non-loopback ``--url`` without ``--allow-remote``).
"""

from __future__ import annotations

import argparse
from typing import Optional

from ..checker.reward.caller import DEFAULT_BATCH, DEFAULT_TIMEOUT, SIGNATURES, RewardCaller, check_url
from ..checker.reward.check import (DEFAULT_CHUNK, DEFAULT_PROBE_CASES, DEFAULT_THRESHOLD, PROBES, CallerFactory,
                                    RewardReport, run_reward_check)
from ..checker.reward.classes import DEFAULT_FAIL_ON, parse_classes
from ..checker.reward.output import as_junit, as_text, dumps_json, verdict_line
from ..checker.reward.suite import DEFAULT_CASES, build_suite
from ..meta import run_meta
from .check_ports import command_argv, python_target
from .common import EXIT_DIVERGENCE, EXIT_OK, Progress, verdict, write_text
from ..core.errors import OptionError, SetupError
from ..core.limits import DEFAULT_LIMITS, current

NAME = "check-reward"
HELP = "check an RL reward function against a suite of right and wrong answers, across threads and processes"
EXIT_CODES = ("exit codes: 0 no class of --fail-on found, 1 a class of --fail-on found (or the run's budget ran "
              "out), 2 usage or input error (bad options, a function that cannot be loaded, no sandbox for "
              "--isolate)")
DEFAULT_BUDGET = DEFAULT_LIMITS.reward_check_budget_seconds


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--python", metavar="MODULE:FUNC", help="a Python reward function, called in a child process")
    source.add_argument("--cmd", metavar="COMMAND",
                        help="an external program: one JSON case {id, completion, gold} per line on stdin, one "
                             "{id, reward} per line on stdout, in order, flushed")
    source.add_argument("--url", metavar="URL", help="an OpenRLHF-style reward server (POST {query, prompts, labels})")
    parser.add_argument("--signature", choices=SIGNATURES, default="plain",
                        help="how --python is called: plain f(completion, gold); verl compute_score(data_source, "
                             "solution_str, ground_truth, extra_info); verl-batch; trl f(prompts=, completions=, "
                             "**columns); openrlhf reward_func(queries, prompts, labels) (default plain)")
    parser.add_argument("--allow-remote", action="store_true", help="let --url name a host that is not loopback")
    parser.add_argument("--cases", type=int, default=DEFAULT_CASES, metavar="N",
                        help=f"suite size (default {DEFAULT_CASES})")
    parser.add_argument("--forms", metavar="F1,F2", help="only these answer forms (default: all)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="suite seed (default 0)")
    parser.add_argument("--reference", choices=("record", "official", "numeric", "helm"), default="record",
                        help="progexec's policy for the reference verdict (default: the record's: official for "
                             "program items, numeric for answers)")
    parser.add_argument("--fail-on", default=",".join(kind.value for kind in DEFAULT_FAIL_ON), metavar="CLASSES",
                        help="classes that fail the run (comma-separated, 'all' or 'none'; default %(default)s)")
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD, metavar="X",
                        help=f"a reward of at least X counts as accepted (default {DEFAULT_THRESHOLD:g})")
    parser.add_argument("--range", dest="value_range", metavar="LO,HI",
                        help="a reward outside [LO, HI] is a bad_return (e.g. --range 0,1)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"seconds one call may take before it counts as a hang and is killed "
                             f"(default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--budget", type=float, default=current().reward_check_budget_seconds, metavar="SECONDS",
                        help=f"seconds for the whole run; when they run out the rest is not run and the run fails "
                             f"(default {current().reward_check_budget_seconds:g})")
    parser.add_argument("--batch", type=int, default=DEFAULT_BATCH, metavar="N",
                        help=f"completions per call for batch signatures (default {DEFAULT_BATCH})")
    parser.add_argument("--probe-cases", type=int, default=DEFAULT_PROBE_CASES, metavar="N",
                        help=f"cases each probe calls again (default {DEFAULT_PROBE_CASES}; 0: no probe)")
    parser.add_argument("--probes", default=",".join(PROBES), metavar="P1,P2",
                        help="which probes: reorder, fresh, thread, pool (default all)")
    parser.add_argument("--json", action="store_true", help="print one JSON object (with meta) instead of text")
    parser.add_argument("--html", metavar="FILE", help="also write an HTML report (needs the html extra)")
    parser.add_argument("--junit", metavar="FILE", help="also write a JUnit XML file")
    progress = parser.add_mutually_exclusive_group()
    progress.add_argument("--progress", dest="progress", action="store_true", default=None,
                          help="show progress on stderr (default: when stderr is a terminal)")
    progress.add_argument("--no-progress", dest="progress", action="store_false")


def _range(text: Optional[str]) -> Optional[tuple[float, float]]:
    if text is None:
        return None
    try:
        low, high = (float(part) for part in text.split(","))
    except ValueError:
        raise OptionError(f"--range wants LO,HI (e.g. 0,1), not {text!r}") from None
    if not low <= high:
        raise OptionError(f"--range: {low:g} is above {high:g}")
    return low, high


def _factory(args: argparse.Namespace) -> tuple[CallerFactory, str, str]:
    if args.python:
        python_target(args.python)
        return (lambda mode: RewardCaller.python(args.python, args.signature, mode, batch=args.batch,
                                                 timeout=args.timeout)), args.python, args.signature
    if args.url:
        try:
            check_url(args.url, args.allow_remote)
        except OptionError as error:
            raise OptionError(str(error)) from None
        return (lambda mode: RewardCaller.url(args.url, mode, batch=args.batch, timeout=args.timeout)), \
            args.url, "openrlhf-http"
    argv = command_argv(args.cmd)
    return (lambda mode: RewardCaller.command(argv, timeout=args.timeout) if mode == "main" else None), \
        args.cmd, "jsonl"


def _check_numbers(args: argparse.Namespace) -> None:
    if args.cases < 1 or args.batch < 1 or args.probe_cases < 0:
        raise OptionError("--cases and --batch must be at least 1, --probe-cases at least 0")
    if not args.timeout > 0 or not args.budget > 0:
        raise OptionError("--timeout and --budget must be positive")


def run(args: argparse.Namespace) -> int:
    _check_numbers(args)
    try:
        fail_on = parse_classes(args.fail_on)
    except ValueError as error:
        raise OptionError(f"--fail-on: {error}") from None
    probes = [name.strip() for name in args.probes.split(",") if name.strip()]
    unknown = [name for name in probes if name not in PROBES]
    if unknown:
        raise OptionError(f"--probes: unknown probe {unknown[0]!r}; known: {', '.join(PROBES)}")
    factory, name, signature = _factory(args)
    try:
        suite = build_suite(args.cases, args.seed, args.forms.split(",") if args.forms else None)
    except OptionError as error:
        raise OptionError(str(error)) from None
    report = RewardReport(name, signature, args.seed, args.threshold, _range(args.value_range), args.reference,
                          fail_on)
    progress = Progress(len(suite), NAME, args.progress)

    def update(done: int, total: int) -> None:
        progress.total = total
        progress.update(done)

    try:
        run_reward_check(factory, suite, report, probe_cases=args.probe_cases, probes=probes, chunk=DEFAULT_CHUNK,
                         budget=args.budget, progress=update)
    except OptionError as error:
        raise OptionError(str(error)) from None
    finally:
        progress.close()
    return _emit(report, args)


def _write(path: str, text: str) -> None:
    write_text(path, text)


def _emit(report: RewardReport, args: argparse.Namespace) -> int:
    meta = run_meta([], getattr(args, "argv", None))
    if args.junit:
        _write(args.junit, as_junit(report))
    if args.html:
        from ..checker.reward.html import as_html
        try:
            _write(args.html, as_html(report, meta))
        except SetupError as error:
            raise OptionError(str(error)) from None
    if args.json:
        print(dumps_json(report, meta))  # main() guards stdout
        line = verdict_line(report)
        verdict(line.split(" ", 1)[1], report.passed())
    else:
        print(as_text(report))
    return EXIT_OK if report.passed() else EXIT_DIVERGENCE
