"""``check-evaluator --jobs N`` gives the one-port report byte for byte, with N ports answering at once.

The chunks are shared out among N copies of the port and checked in suite order, so the JSON report
(counts, classes, simplest counterexamples) must equal the serial run's, for a correct port and for
ports wrong on purpose (tests/ports/finqa_eval.js variants), in both text protocols, with many chunks.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from progexec.cli import main

JS = Path(__file__).resolve().parent / "ports" / "finqa_eval.js"
node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def _report(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["check-evaluator", "--json", "--no-progress", *argv])
    return code, capsys.readouterr().out


@node
@pytest.mark.parametrize("variant", ["", "naive", "no_stale_row", "greater_number"])
@pytest.mark.parametrize("jobs", ["2", "3"])
def test_jobs_give_the_serial_report(capsys: pytest.CaptureFixture[str], variant: str, jobs: str) -> None:
    argv = ["--cmd", f"node {JS} {variant}".strip(), "--cases", "3000", "--chunk", "250"]
    serial = _report(capsys, *argv)
    shared = _report(capsys, *argv, "--jobs", jobs)
    assert shared == serial
    assert serial[0] == (0 if not variant else 1)


@node
def test_tokens_protocol_with_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--cmd", f"node {JS}", "--protocol", "tokens", "--cases", "2000", "--chunk", "300"]
    assert _report(capsys, *argv, "--jobs", "2") == _report(capsys, *argv)


def test_jobs_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-evaluator", "--cmd", "true", "--jobs", "0"]) == 2
