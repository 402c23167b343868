"""check-rounder across worker processes gives the serial report: counts, classes, counterexamples."""

from __future__ import annotations

import os

import pytest

from progexec.checker.check import python_answerer, run_check
from progexec.checker.output import dumps_json
from progexec.core.errors import ProgexecError, OptionError
from progexec.parallel import Engine, ParallelOptions
from progexec.parallel_check import RounderSpec, run_check_parallel, spec_from_args
from tests.test_check_rounder_zoo import decimal_of_repr

CASES = 60_001  # two blocks, the second one short


def test_two_processes_give_the_serial_report() -> None:
    limit = 3
    serial = run_check(python_answerer(decimal_of_repr), "r", CASES, seed=7, limit=limit)
    assert serial.divergent > limit  # the rounder is wrong often enough for the keep rule to matter
    spec = spec_from_args("tests.test_check_rounder_zoo:decimal_of_repr", None, 10.0, 100)
    parallel = run_check_parallel(spec, "r", ParallelOptions(Engine.PROCESS, jobs=2), CASES, seed=7, limit=limit)
    assert dumps_json(parallel) == dumps_json(serial)


def test_an_external_program_runs_in_every_worker(tmp_path: os.PathLike[str]) -> None:
    spec = RounderSpec(cmd=("python3", "-c", "import sys\nfor line in sys.stdin:\n"
                                             "    x, n = line.split()\n"
                                             "    print(float.hex(round(float.fromhex(x), int(n))), flush=True)"))
    report = run_check_parallel(spec, "cmd", ParallelOptions(Engine.PROCESS, jobs=2), 50_010, seed=1)
    assert report.cases == 50_010 and report.divergent == 0


def test_a_spec_that_cannot_be_imported_is_named() -> None:
    rounder = RounderSpec("no_such_module:f").rounder()  # the rounder runs in a leashed child process
    with pytest.raises(ProgexecError, match="no_such_module"):
        try:
            rounder.start()
        finally:
            rounder.close()
    with pytest.raises(OptionError, match="exactly one"):
        RounderSpec()
