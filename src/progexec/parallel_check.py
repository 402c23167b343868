"""``check-rounder`` on many workers: the suite's blocks checked in parallel, merged to the serial report.

The parent generates the suite block by block (it is a pure function of cases, seed and plan); each
worker rebuilds the rounder from its spec (an importable ``MODULE:FUNC`` or a command line), answers
its blocks, cross-checks the oracle on them and returns one partial report per block. Partials are
merged in block order: counts add, and the kept counterexamples are chosen again from the
partials' kept lists with the serial rule, which gives exactly the serial choice (a partial keeps
every case the serial run would keep from its block, and the rule only looks at what is kept).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, replace
from functools import partial

from .checker.cases import DEFAULT_CASES, CaseBlock, DigitsPlan, iter_blocks
from .checker.check import CheckReport, ProgressHook, _keep, check_block, verify_oracle
from .checker.engine import command_port
from .checker.external import DEFAULT_CHUNK, DEFAULT_TIMEOUT, ExternalRounder
from .core.errors import OptionError
from .parallel import ParallelOptions, parallel_map


@dataclass(frozen=True)
class RounderSpec:
    """A rounder a worker can rebuild: ``python`` (``MODULE:FUNC``) or ``cmd`` (an argv), not both.
    Either way it runs in a leashed child process of the worker (:class:`ExternalRounder`)."""

    python: str | None = None
    cmd: tuple[str, ...] | None = None
    timeout: float = DEFAULT_TIMEOUT
    chunk: int = DEFAULT_CHUNK
    cwd: str | None = None
    """The directory the child runs in (the parent's cwd, so ``MODULE`` imports as it would there)."""
    isolate: bool = False
    """Run the child inside the bubblewrap sandbox (``--isolate``)."""

    def __post_init__(self) -> None:
        if (self.python is None) == (self.cmd is None):
            raise OptionError("a rounder spec names exactly one of python and cmd")

    def rounder(self) -> ExternalRounder:
        """A fresh child-process answerer for this spec."""
        if self.python is not None:
            return ExternalRounder.python(self.python, timeout=self.timeout, chunk=self.chunk, isolate=self.isolate,
                                          cwd=self.cwd)
        assert self.cmd is not None
        argv, sandbox = command_port(self.cmd, self.isolate, self.cwd)
        return ExternalRounder(argv, timeout=self.timeout, chunk=self.chunk, cwd=self.cwd, sandbox=sandbox)


def check_blocks(spec: RounderSpec, name: str, seed: int, digits: str, limit: int, oracle_every: int,
                 blocks: list[CaseBlock]) -> list[CheckReport]:
    """The chunk function: one partial report per block, each from an empty report."""
    external = spec.rounder()
    if spec.cwd is not None and spec.cwd not in sys.path:
        sys.path.insert(0, spec.cwd)
    external.start()
    try:
        partials = []
        for block in blocks:
            if oracle_every:
                verify_oracle(block, oracle_every)
            partial_report = CheckReport(name, seed, digits)
            check_block(block, external(block.xs, block.ndigits), partial_report, limit)
            partial_report.protocol = list(external.notes)
            partials.append(partial_report)
    finally:
        external.close()
    faults = external.report_faults()
    if partials:
        partials[-1].faults = faults
    return partials


def merge(report: CheckReport, part: CheckReport, limit: int) -> None:
    """Add one block's partial report to ``report``, as if its cases had been checked there."""
    report.cases += part.cases
    report.divergent += part.divergent
    for family, (cases, divergent) in part.by_family.items():
        counts = report.by_family.setdefault(family, [0, 0])
        counts[0] += cases
        counts[1] += divergent
    report.by_class.update(part.by_class)
    for example in part.counterexamples:
        _keep(report, example, limit)
    report.protocol.extend(note for note in part.protocol if note not in report.protocol)
    report.faults.extend(fault for fault in part.faults if fault not in report.faults)


def run_check_parallel(spec: RounderSpec, name: str, options: ParallelOptions, cases: int = DEFAULT_CASES,
                       seed: int = 0, plan: DigitsPlan | None = None, limit: int = 20,
                       progress: ProgressHook | None = None, oracle_every: int = 97,
                       nonfinite: bool = False) -> CheckReport:
    """:func:`progexec.checker.check.run_check` across ``options``' workers, with the same report
    (counts, classes and counterexamples; a ``--cmd`` program's protocol notes are collected from
    every worker). One suite block (50,000 cases) is one task, whatever ``options.chunk_size`` says."""
    options = replace(options, chunk_size=1)
    plan = plan or DigitsPlan()
    report = CheckReport(name, seed, plan.describe())
    function = partial(check_blocks, spec, name, seed, report.digits, limit, oracle_every)
    blocks = iter_blocks(cases, seed, plan, nonfinite=nonfinite)
    for part in parallel_map(function, blocks, options):
        merge(report, part, limit)
        if progress is not None:
            progress(report.cases, cases)
    return report


def spec_from_args(python: str | None, cmd: list[str] | None, timeout: float, chunk: int,
                   isolate: bool = False) -> RounderSpec:
    """The spec for ``check-rounder``'s ``--python`` / ``--cmd`` flags, importing from the current directory."""
    return RounderSpec(python, None if cmd is None else tuple(cmd), timeout, chunk, os.getcwd(), isolate)
