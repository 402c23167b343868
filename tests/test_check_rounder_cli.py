"""``progexec check-rounder`` end to end: --python and --cmd, exit codes, JSON, JUnit, the protocol."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from progexec.checker.external import ExternalRounder, parse_answer
from progexec.cli import main

PY = sys.executable
CASES = "4000"

GOOD = """
import sys
for line in sys.stdin:
    h, n = line.split()
    print(round(float.fromhex(h), int(n)).hex(), flush=True)
"""
DECIMAL_ANSWERS = """
import sys
for line in sys.stdin:
    h, n = line.split()
    print(repr(round(float.fromhex(h), int(n))), flush=True)
"""
NAIVE = """
import sys
for line in sys.stdin:
    h, n = line.split()
    x, s = float.fromhex(h), 10.0 ** int(n)
    p = x * s
    print(repr(p / s if p != p or p in (float("inf"), -float("inf")) else round(p) / s), flush=True)
"""
GARBAGE = """
import sys
for i, line in enumerate(sys.stdin):
    h, n = line.split()
    print("banana" if i % 10 == 3 else round(float.fromhex(h), int(n)).hex(), flush=True)
"""
DIES = """
import sys
for i, line in enumerate(sys.stdin):
    if i == 700:
        sys.exit(3)
    h, n = line.split()
    print(round(float.fromhex(h), int(n)).hex(), flush=True)
"""
HANGS = """
import sys, time
for i, line in enumerate(sys.stdin):
    if i == 300:
        time.sleep(600)
    h, n = line.split()
    print(round(float.fromhex(h), int(n)).hex(), flush=True)
"""
NEVER_FLUSHES = """
import os, sys
out = open(sys.stdout.fileno(), "w", buffering=1 << 20, closefd=False)  # like C's printf into a pipe
for line in sys.stdin:
    h, n = line.split()
    out.write(round(float.fromhex(h), int(n)).hex() + "\\n")
out.flush()
"""
FLOODS_WITHOUT_READING = """
import sys, time
sys.stdout.write("0x1p+0\\n" * 300000)
sys.stdout.flush()
time.sleep(600)
"""


def script(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return f"{PY} {path}"


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["check-rounder", "--json", "--no-progress", *argv])
    return code, json.loads(capsys.readouterr().out)


# --python ------------------------------------------------------------------------------------

def test_python_correct_rounder_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = run_json(capsys, "--python", "builtins:round", "--cases", CASES)
    assert code == 0 and report["cases"] == 4000 and report["divergent"] == 0 and report["passed"] is True


def test_python_naive_exit_1_with_counterexamples(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    junit = tmp_path / "out" / "junit.xml"
    code, report = run_json(capsys, "--python", "progexec.oracle.rounding:round_naive", "--cases", "20000",
                            "--junit", str(junit))
    assert code == 1
    assert isinstance(report["divergent"], int) and report["divergent"] > 0
    assert report["by_class"]["double_rounding"] > 0
    first = report["counterexamples"][0]
    assert set(first) >= {"x", "x_hex", "expected", "got", "class", "family", "ndigits"}
    assert float.fromhex(first["x_hex"]) == float(first["x"])
    suite = ElementTree.parse(junit).getroot()
    assert suite.tag == "testsuite" and int(suite.get("failures", "0")) > 0
    assert any(case.find("failure") is not None for case in suite.iter("testcase"))


def test_python_module_from_current_directory(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "my_rounder_mod.py").write_text("def r(x, n):\n    return float(f'{x:.{n}f}')\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    code, report = run_json(capsys, "--python", "my_rounder_mod:r", "--cases", CASES, "--digits", "0-15")
    assert code == 0 and report["divergent"] == 0


@pytest.mark.parametrize("argv", [
    ["--python", "no_such_module_xyz:f"], ["--python", "math"], ["--python", "math:no_such_function"],
    ["--python", "math:pi"], ["--cmd", "/no/such/program"], ["--python", "builtins:round", "--digits", "x"],
    ["--python", "builtins:round", "--cases", "0"], [],
])
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-rounder", *argv]) == 2


def test_search_mode_shrinks(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("hypothesis")
    code, report = run_json(capsys, "--python", "progexec.oracle.rounding:round_half_up", "--cases", "2000",
                            "--search", "300")
    found = report["search"]
    assert code == 1 and isinstance(found, dict)
    x, n = float.fromhex(found["x_hex"]), found["ndigits"]
    assert len(repr(x)) <= 8 and round(x, n) != float(found["got"])


# --cmd: the external-program protocol ----------------------------------------------------------

@pytest.mark.parametrize("program", [GOOD, DECIMAL_ANSWERS], ids=["hex", "decimal"])
def test_cmd_correct_program_passes(program: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = run_json(capsys, "--cmd", script(tmp_path, "p", program), "--cases", CASES, "--chunk", "700")
    assert code == 0 and report["divergent"] == 0 and report["protocol"] == []


def test_cmd_program_that_never_flushes_runs_in_batch_mode(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, report = run_json(capsys, "--cmd", script(tmp_path, "nf", NEVER_FLUSHES), "--cases", CASES)
    assert code == 0 and report["divergent"] == 0
    assert any("batch mode" in note for note in report["protocol"])


def test_cmd_naive_program_is_caught(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = run_json(capsys, "--cmd", script(tmp_path, "naive", NAIVE), "--cases", "12000")
    assert code == 1 and report["by_class"]["double_rounding"] > 0


def test_cmd_garbage_answers_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = run_json(capsys, "--cmd", script(tmp_path, "g", GARBAGE), "--cases", "1000")
    assert code == 1 and report["by_class"] == {"unparseable": 100}


def test_cmd_program_that_dies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = run_json(capsys, "--cmd", script(tmp_path, "d", DIES), "--cases", "2000", "--chunk", "500")
    assert code == 1 and report["by_class"]["no_answer"] > 0
    assert any("exited with code 3" in note for note in report["protocol"])


def test_cmd_program_that_hangs_is_killed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = run_json(capsys, "--cmd", script(tmp_path, "h", HANGS), "--cases", "1000", "--chunk", "500",
                            "--timeout", "0.5")
    assert code == 1 and report["by_class"]["no_answer"] > 0
    assert any("hangs" in note for note in report["protocol"])


def test_program_that_never_reads_cannot_deadlock(tmp_path: Path) -> None:
    rounder = ExternalRounder(script(tmp_path, "f", FLOODS_WITHOUT_READING).split(), timeout=0.5, chunk=50_000)
    answers = rounder([1.5] * 100_000, [0] * 100_000)  # far more than a pipe buffer either way
    rounder.close()
    assert len(answers) == 100_000 and rounder.notes


def test_parse_answer() -> None:
    assert parse_answer(b"0x1.8p+1\n") == 3.0
    assert parse_answer(b"3.26849") == 3.26849
    assert str(parse_answer(b"-0x0.0p+0")) == "-0.0"
    assert parse_answer(b"inf") == float("inf")
    assert not isinstance(parse_answer(b""), float)
    assert not isinstance(parse_answer(b"1.5 2.5"), float)


def test_python_rounder_that_hangs_is_interrupted(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "hanging_rounder_mod.py").write_text(
        "def r(x, n):\n    while abs(x) > 1e300:\n        pass\n    return round(x, n)\n")
    monkeypatch.chdir(tmp_path)
    code, report = run_json(capsys, "--python", "hanging_rounder_mod:r", "--cases", "3000", "--timeout", "0.1")
    assert code == 1 and set(report["by_class"]) == {"no_answer"}


def test_slow_python_rounder_that_keeps_returning_is_not_interrupted(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "slow_rounder_mod.py").write_text(
        "import time\ndef r(x, n):\n    time.sleep(0.15)\n    return round(x, n)\n")
    monkeypatch.chdir(tmp_path)
    # 4.5 s of sleeping in all, over the 4 s timeout; each answer under a 26th of it, so only a clock that
    # wrongly bounds the whole run (not one answer) can fire, however loaded the machine
    code, report = run_json(capsys, "--python", "slow_rounder_mod:r", "--cases", "30", "--timeout", "4")
    assert code == 0 and report["cases"] == 30
