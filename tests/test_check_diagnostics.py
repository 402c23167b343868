"""A port that dies is shown with its stderr (head and tail), the case it was answering and its exit status.

In text, JSON and JUnit alike, for check-rounder and check-evaluator (the shared reporter of
:mod:`progexec.checker.report`). docs/check-evaluator.md promises the first and the last
2,000 bytes of stderr (``DEFAULT_LIMITS.stderr_head_bytes``, ``DEFAULT_LIMITS.stderr_tail_bytes``).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from progexec.core.limits import DEFAULT_LIMITS
from progexec.cli import main
from progexec.isolation.process import StderrCapture

PY = sys.executable
SRC = str(Path(__file__).resolve().parents[1] / "src")

DIES_AT_START = """
import sys
sys.stderr.write("port: cannot load the table module\\n")
sys.exit(1)
"""
# answers 7 cases, then dies on the 8th with a long trace whose last line is the error
DIES_MID_RUN = """
import sys
for index, line in enumerate(sys.stdin):
    if index == 7:
        sys.stderr.write("Traceback (most recent call last):\\n" + "  frame line padding the trace\\n" * 200)
        sys.stderr.write("ZeroDivisionError: the real error line\\n")
        sys.stderr.flush()
        sys.exit(3)
    {answer}
"""
ROUNDER = """h, n = line.split()
    print(round(float.fromhex(h), int(n)).hex(), flush=True)"""
EVALUATOR = """import json
    case = json.loads(line)
    print(json.dumps({"id": case["id"], "valid": False, "value": None}), flush=True)"""


def run(capsys: pytest.CaptureFixture[str], command: str, *argv: str) -> tuple[int, str]:
    code = main([command, "--no-progress", *argv])
    return code, capsys.readouterr().out


def script(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return f"{PY} {path}"


@pytest.mark.parametrize("command, answer", [("check-rounder", ROUNDER), ("check-evaluator", EVALUATOR)])
def test_a_port_that_dies_at_start_shows_its_stderr_and_exit_status(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, answer: str) -> None:
    port = script(tmp_path, "dies.py", DIES_AT_START)
    code, out = run(capsys, command, "--cmd", port, "--cases", "50", "--json")
    assert code == 1
    faults = json.loads(out)["faults"]
    fault = next(f for f in faults if f["class"] == "no_answer")
    assert fault["stderr"] == "port: cannot load the table module"
    assert fault["exit_status"] == "exit code 1"
    assert fault["case"]  # the first case: the one it was asked and never answered
    report = json.loads(out)
    assert report["meta"]["arguments"] == [command, "--cmd", port, "--cases", "50", "--json"]  # no progress flag
    assert report["unanswered"] == report["divergent"] == 50
    no_examples = report["counterexamples"] == ([] if command == "check-rounder" else {})
    assert no_examples  # unanswered cases are not counterexamples: the fault above says what happened
    code, out = run(capsys, command, "--cmd", port, "--cases", "50")
    assert "port: cannot load the table module" in out and "exit status: exit code 1" in out
    junit = tmp_path / "junit.xml"
    run(capsys, command, "--cmd", port, "--cases", "50", "--junit", str(junit))
    protocol = [case for case in ElementTree.parse(junit).getroot() if case.get("name") == "protocol"]
    text = protocol[0].find("failure").text or ""  # type: ignore[union-attr]
    assert "port: cannot load the table module" in text and "exit code 1" in text


def test_a_mid_run_crash_shows_the_error_line_and_the_case(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    port = script(tmp_path, "crash.py", DIES_MID_RUN.format(answer=ROUNDER))
    code, out = run(capsys, "check-rounder", "--cmd", port, "--cases", "50", "--json", "--digits", "5")
    assert code == 1
    fault = next(f for f in json.loads(out)["faults"] if f["class"] == "no_answer")
    assert fault["stderr"].startswith("Traceback (most recent call last):")
    assert fault["stderr"].endswith("ZeroDivisionError: the real error line")
    assert "bytes of stderr left out" in fault["stderr"]
    assert fault["exit_status"] == "exit code 3"
    assert fault["case"] == "round(-2.675, 5)"  # the 8th case: SEED_CASES[7], (-2.675, 2), at the only ndigits 5


def test_the_evaluator_names_the_case_by_its_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    port = script(tmp_path, "crash.py", DIES_MID_RUN.format(answer=EVALUATOR))
    code, out = run(capsys, "check-evaluator", "--cmd", port, "--cases", "50", "--json")
    fault = next(f for f in json.loads(out)["faults"] if f["class"] == "no_answer")
    assert fault["stderr"].endswith("ZeroDivisionError: the real error line")
    assert fault["case"] == "finqa:train-2415 'divide(38.6, 60.5)'"  # the 8th case (docs/check-evaluator.md)
    assert "[... 2,274 bytes of stderr left out ...]" in fault["stderr"]


def test_stderr_capture_keeps_head_and_tail_within_bounds() -> None:
    capture = StderrCapture()
    capture.feed(b"H" * DEFAULT_LIMITS.stderr_head_bytes + b"m" * 10_000)
    capture.feed(b"T" * DEFAULT_LIMITS.stderr_tail_bytes)
    text = capture.text()
    assert text.startswith("H" * DEFAULT_LIMITS.stderr_head_bytes) and text.endswith("T" * DEFAULT_LIMITS.stderr_tail_bytes)
    assert "[... 10,000 bytes of stderr left out ...]" in text
    assert len(capture.head) + len(capture.tail) == DEFAULT_LIMITS.stderr_head_bytes + DEFAULT_LIMITS.stderr_tail_bytes


JS = Path(__file__).resolve().parent / "ports" / "finqa_eval.js"


@pytest.mark.skipif(__import__("shutil").which("node") is None, reason="node is not installed")
def test_a_rounding_bug_is_not_reported_as_libm_pow(capsys: pytest.CaptureFixture[str]) -> None:
    """``Math.round(x * 1e5) / 1e5`` computes ``**`` exactly as the correct port does: every libm_pow case of the
    naive port must be one the correct port has too; the others are its rounding bug (naive_rounding)."""
    reports = {}
    for variant in ("", " naive"):
        main(["check-evaluator", "--json", "--no-progress", "--cmd", f"node {JS}{variant}"])
        reports[variant] = json.loads(capsys.readouterr().out)
    correct, naive = reports[""], reports[" naive"]
    assert naive["by_class"].get("libm_pow", 0) <= correct["by_class"].get("libm_pow", 0)
    assert naive["by_class"]["naive_rounding"] > 0 and "naive_rounding" in naive["failing_classes"]
    lesser_ids = {example["id"] for example in naive["counterexamples"].get("libm_pow", [])}
    assert lesser_ids <= {example["id"] for example in correct["counterexamples"].get("libm_pow", [])}


TWO_ARGUMENTS = """
from progexec.datasets import get_dataset
from progexec.interp.official import official_verdict

FINQA = get_dataset("finqa")


def eval_program(program, table):
    # the official signature: the token list and the table, no dialect; (invalid_flag, result) back
    verdict = official_verdict(program, table, FINQA)
    return (0, "n/a" if verdict.value is None else verdict.value) if verdict.valid else (1, "n/a")
"""


def test_a_two_argument_eval_program_runs_unchanged(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The official ``eval_program(program, table)`` takes two arguments: it is called without the dialect."""
    (tmp_path / "two_args.py").write_text(TWO_ARGUMENTS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([SRC, str(tmp_path)]))
    code = main(["check-evaluator", "--json", "--no-progress", "--python", "two_args:eval_program", "--protocol",
                 "tokens", "--suite", "gold", "--cases", "400"])
    report = json.loads(capsys.readouterr().out)
    assert "exception" not in report["by_class"] and not report["faults"], report["by_class"]
    # FinQA's reading on ConvFinQA turns refuses their bare numbers; every other case agrees
    assert set(report["by_class"]) <= {"refuses_where_official_answers"}
    assert report["by_family"]["gold_finqa"]["divergent"] == 0 and code in (0, 1)


def test_takes_dialect_reads_the_signature() -> None:
    from progexec.checker.pychild import takes_dialect

    def two(program: object, table: object) -> None: ...
    def three(program: object, table: object, dialect: object) -> None: ...
    def star(*args: object) -> None: ...
    def keyword(program: object, table: object, *, dialect: str = "finqa") -> None: ...
    assert [takes_dialect(f) for f in (two, three, star, keyword, len)] == [False, True, True, False, True]
