"""``check-rounder`` on many workers: the suite's blocks checked in parallel, merged to the serial report.

The parent generates the suite block by block (it is a pure function of cases, seed and plan); each
worker rebuilds the rounder from its spec (an importable ``MODULE:FUNC`` or a command line), answers
its blocks, cross-checks the oracle on them and returns one partial report per block. Partials are
merged in block order: counts add, and the kept counterexamples are chosen again from the
partials' kept lists with the serial rule, which gives exactly the serial choice (a partial keeps
every case the serial run would keep from its block, and the rule only looks at what is kept).
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from .checker.cases import DEFAULT_CASES, CaseBlock, DigitsPlan, iter_blocks
from .checker.check import Answerer, CheckReport, ProgressHook, _keep, check_block, python_answerer, verify_oracle
from .checker.external import DEFAULT_CHUNK, DEFAULT_TIMEOUT, ExternalRounder
from .errors import ProgexecError
from .parallel import ParallelOptions, parallel_map


class RounderSpecError(ProgexecError):
    """A rounder spec that cannot be turned into a rounder in a worker (import failed, not callable)."""


@dataclass(frozen=True)
class RounderSpec:
    """A rounder a worker can rebuild: ``python`` (``MODULE:FUNC``) or ``cmd`` (an argv), not both."""

    python: str | None = None
    cmd: tuple[str, ...] | None = None
    timeout: float = DEFAULT_TIMEOUT
    chunk: int = DEFAULT_CHUNK
    path: tuple[str, ...] = ()
    """Directories prepended to ``sys.path`` in the worker before importing (the parent's cwd)."""

    def __post_init__(self) -> None:
        if (self.python is None) == (self.cmd is None):
            raise RounderSpecError("a rounder spec names exactly one of python and cmd")

    def function(self) -> Callable[[float, int], Any]:
        """Import ``MODULE:FUNC`` (FUNC may be dotted)."""
        assert self.python is not None
        module_name, _, attribute = self.python.partition(":")
        for directory in reversed(self.path):
            if directory not in sys.path:
                sys.path.insert(0, directory)
        try:
            target: Any = importlib.import_module(module_name)
            for part in attribute.split("."):
                target = getattr(target, part)
        except Exception as error:
            raise RounderSpecError(f"cannot load {self.python}: {type(error).__name__}: {error}") from None
        if not callable(target):
            raise RounderSpecError(f"{self.python} is not callable")
        return target  # type: ignore[no-any-return]


def check_blocks(spec: RounderSpec, name: str, seed: int, digits: str, limit: int, oracle_every: int,
                 blocks: list[CaseBlock]) -> list[CheckReport]:
    """The chunk function: one partial report per block, each from an empty report."""
    external: ExternalRounder | None = None
    answer: Answerer
    if spec.cmd is not None:
        external = ExternalRounder(list(spec.cmd), timeout=spec.timeout, chunk=spec.chunk)
        external.start()
        answer = external
    else:
        answer = python_answerer(spec.function(), spec.timeout)
    try:
        partials = []
        for block in blocks:
            if oracle_every:
                verify_oracle(block, oracle_every)
            partial_report = CheckReport(name, seed, digits)
            check_block(block, answer(block.xs, block.ndigits), partial_report, limit)
            if external is not None:
                partial_report.protocol = list(external.notes)
            partials.append(partial_report)
        return partials
    finally:
        if external is not None:
            external.close()


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


def spec_from_args(python: str | None, cmd: list[str] | None, timeout: float, chunk: int) -> RounderSpec:
    """The spec for ``check-rounder``'s ``--python`` / ``--cmd`` flags, importing from the current directory."""
    return RounderSpec(python, None if cmd is None else tuple(cmd), timeout, chunk, (os.getcwd(),))
