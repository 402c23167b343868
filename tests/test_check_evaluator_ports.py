"""check-evaluator end to end with ports in other languages (JavaScript with node, C with gcc) and --python.

One correct port per protocol must pass (no false positive); each wrong variant must be caught
with its class. The ports are tests/ports/finqa_eval.js (jsonl and tokens) and
tests/ports/flat_eval.c (flat), written from SPEC §1-2 and §6.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from progexec.cli import main

PORTS = Path(__file__).resolve().parent / "ports"
JS = PORTS / "finqa_eval.js"
CASES = "1500"
node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["check-evaluator", "--json", "--no-progress", *argv])
    return code, json.loads(capsys.readouterr().out)


def failing(report: dict[str, Any]) -> set[str]:
    return set(report["failing_classes"])


@node
@pytest.mark.parametrize("protocol", ["jsonl", "tokens"])
def test_correct_js_port_passes(capsys: pytest.CaptureFixture[str], protocol: str) -> None:
    code, report = run_json(capsys, "--cmd", f"node {JS}", "--protocol", protocol, "--cases", "4000")
    assert code == 0 and report["passed"], report["by_class"]
    assert report["cases"] == 4000
    assert set(report["by_class"]) <= {"libm_pow"}  # V8's pow may differ from glibc's by one ulp: lesser


@node
@pytest.mark.parametrize("variant, expected", [
    ("naive", "naive_rounding"),
    ("per_step", "per_step_rounding"),
    ("parse_float", "literal_reading"),
    ("no_stale_row", "table_lookup"),
    ("percent_ignored", "literal_reading"),
    ("greater_number", "yes_no"),
    ("exp_negative_refused", "refuses_where_official_answers"),
])
def test_wrong_js_port_is_caught_with_its_class(capsys: pytest.CaptureFixture[str], variant: str,
                                                 expected: str) -> None:
    code, report = run_json(capsys, "--cmd", f"node {JS} {variant}", "--cases", CASES)
    assert code == 1 and not report["passed"]
    assert failing(report) == {expected}, report["by_class"]


@node
def test_js_port_that_crashes_after_n_cases(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = run_json(capsys, "--cmd", f"node {JS} crash_after 300", "--cases", CASES, "--chunk", "500")
    assert code == 1 and "no_answer" in failing(report)
    assert report["by_class"]["no_answer"] < 1500  # answered cases were still checked
    assert report["cases"] == 1500


@node
def test_js_port_that_never_flushes_is_run_in_batch_mode(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = run_json(capsys, "--cmd", f"node {JS} no_flush", "--cases", CASES, "--timeout", "10")
    assert code == 0 and [fault["class"] for fault in report["faults"]] == ["unflushed"]
    code, report = run_json(capsys, "--cmd", f"node {JS} no_flush", "--cases", CASES, "--strict")
    assert code == 1 and "unflushed" in failing(report)


@pytest.fixture(scope="module")
def flat_port(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not installed")
    binary = tmp_path_factory.mktemp("c") / "flat_eval"
    subprocess.run(["gcc", "-O2", "-o", str(binary), str(PORTS / "flat_eval.c"), "-lm"], check=True)
    return binary


def test_correct_c_flat_port_passes(capsys: pytest.CaptureFixture[str], flat_port: Path, tmp_path: Path) -> None:
    junit = tmp_path / "out.xml"
    code, report = run_json(capsys, "--cmd", str(flat_port), "--protocol", "flat", "--cases", "4000",
                            "--junit", str(junit))
    assert code == 0 and report["divergent"] == 0 and report["cases"] > 3000
    assert report["by_family"]["flat_contract"]["cases"] > 50  # every contract status code is exercised
    assert ElementTree.parse(junit).getroot().get("failures") == "0"


@pytest.mark.parametrize("variant, expected", [
    ("naive", "naive_rounding"),
    ("no_divide_check", "answers_where_official_refuses"),
])
def test_wrong_c_flat_port_is_caught(capsys: pytest.CaptureFixture[str], flat_port: Path, variant: str,
                                     expected: str) -> None:
    code, report = run_json(capsys, "--cmd", f"{flat_port} {variant}", "--protocol", "flat", "--cases", CASES)
    assert code == 1 and expected in failing(report)


HOSTILE = {
    "exits": "raise SystemExit(0)",
    "os_exit": "import os; os._exit(0)",
    "huge": "return True, 10 ** 5000",
    "invalid_flag": "return 0, 1.0",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_python_port_fails(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    (tmp_path / f"evil_{name}.py").write_text(f"def port(program, table, dialect):\n    {HOSTILE[name]}\n")
    monkeypatch.chdir(tmp_path)
    code, report = run_json(capsys, "--python", f"evil_{name}:port", "--cases", "300", "--timeout", "5")
    assert code == 1 and not report["passed"]
    expected = {"exits": "exception", "os_exit": "no_answer", "huge": "not_float", "invalid_flag": None}[name]
    if expected:
        assert expected in failing(report)


PY_PORT = """
import sys
sys.path.insert(0, {tests!r})
from reference_impl import reference_eval, ref_tokenize

def port(program, table, dialect):
    tokens = ref_tokenize(program) if isinstance(program, str) else program
    result = reference_eval(tokens, table, dialect)
    return result.valid, result.value
"""


def test_python_port_of_the_spec_passes_through_the_child(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/reference_impl.py, written from SPEC without progexec, as a --python port: no false positive."""
    (tmp_path / "spec_port.py").write_text(textwrap.dedent(PY_PORT.format(tests=str(PORTS.parent))))
    monkeypatch.chdir(tmp_path)
    code, report = run_json(capsys, "--python", "spec_port:port", "--cases", "3000")
    assert code == 0 and report["divergent"] == 0, report["counterexamples"]


def test_usage_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["check-evaluator", "--python", "no_such_module:f"]) == 2
    assert main(["check-evaluator", "--cmd", "/no/such/program"]) == 2
    assert main(["check-evaluator", "--cmd", "true", "--cases", "0"]) == 2
    capsys.readouterr()


def test_conformance_export_is_runnable_without_python(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The exported text form, read by a port in another language, holds the official answers."""
    assert main(["conformance", "export", str(tmp_path / "suite"), "--cases", "400"]) == 0
    capsys.readouterr()
    files = sorted(path.name for path in (tmp_path / "suite").iterdir())
    assert files == ["README.md", "finqa-conformance-v1-flat.jsonl", "finqa-conformance-v1.jsonl",
                     "finqa-conformance-v1.txt"]
    lines = (tmp_path / "suite" / "finqa-conformance-v1.txt").read_text().splitlines()
    rows = [line.split(" | ") for line in lines if not line.startswith("--")]
    assert len(rows) == 400 and all(len(row) == 4 for row in rows)
    records = [json.loads(line) for line in (tmp_path / "suite" / "finqa-conformance-v1.jsonl").open()]
    gold = {r["id"]: r for r in records if r["family"] == "gold_finqa"}
    from progexec.corpus import finqa_records
    exe = {f"finqa:{r['id']}": r["exe_ans"] for r in finqa_records()}
    assert gold and all(record["expected"]["value"] == exe[ident] for ident, record in gold.items())
    first = (tmp_path / "suite" / "finqa-conformance-v1.jsonl").read_bytes()
    assert main(["conformance", "export", str(tmp_path / "again"), "--cases", "400"]) == 0
    capsys.readouterr()
    assert (tmp_path / "again" / "finqa-conformance-v1.jsonl").read_bytes() == first
    assert "MIT License" in (tmp_path / "suite" / "README.md").read_text()


GRANDCHILD_PORT = """
import json, subprocess, sys
from reference_impl import reference_eval, ref_tokenize
for line in sys.stdin:
    case = json.loads(line)
    result = reference_eval(ref_tokenize(case["program"]), case["table"], case["dialect"])
    value = result.value
    if isinstance(value, float) and value != value or value in (float("inf"), float("-inf")):
        value = repr(value)
    print(json.dumps({"id": case["id"], "valid": result.valid, "value": value if result.valid else None}),
          flush=True)
child = subprocess.Popen(["sleep", "600"], start_new_session=True)
open("grandchild.pid", "w").write(str(child.pid))
"""


def test_evaluator_flood_and_grandchild_are_failing_verdicts(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    code, report = run_json(capsys, "--cmd", "yes {}", "--cases", "300", "--timeout", "5")
    assert code == 1 and "output_flood" in failing(report)
    (tmp_path / "port.py").write_text(GRANDCHILD_PORT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(PORTS.parent))
    code, report = run_json(capsys, "--cmd", f"{sys.executable} port.py", "--cases", "300", "--timeout", "5")
    assert code == 1 and report["divergent"] == 0 and "no_exit" in failing(report)
    pid = int((tmp_path / "grandchild.pid").read_text())
    deadline = time.monotonic() + 60  # SIGKILL was sent; the kernel finishes it asynchronously (a backstop)
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid)


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[-1][:1] != "Z"
    except OSError:
        return False


FLAT_PORTS = {
    "always_ok": "return {'status': 1400, 'present': True, 'value': 1.0, 'is_bool': False, 'bool_value': False}",
    "raises": "raise SystemExit(3)",
    "wrong_type": "return {'status': '1400', 'present': True, 'value': 1.0, 'is_bool': False, 'bool_value': False}",
}


@pytest.mark.parametrize("name", sorted(FLAT_PORTS))
def test_python_flat_port_through_the_child(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    (tmp_path / f"flat_{name}.py").write_text(f"def port(*args):\n    {FLAT_PORTS[name]}\n")
    monkeypatch.chdir(tmp_path)
    code, report = run_json(capsys, "--python", f"flat_{name}:port", "--protocol", "flat", "--cases", "400")
    assert code == 1
    expected = {"always_ok": "answers_where_official_refuses", "raises": "exception", "wrong_type": "not_float"}
    assert expected[name] in failing(report)


def test_python_tokens_protocol_gets_the_token_list(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "tok_port.py").write_text(textwrap.dedent(PY_PORT.format(tests=str(PORTS.parent))))
    monkeypatch.chdir(tmp_path)
    code, report = run_json(capsys, "--python", "tok_port:port", "--protocol", "tokens", "--cases", "1500")
    assert code == 0 and report["divergent"] == 0, report["counterexamples"]
