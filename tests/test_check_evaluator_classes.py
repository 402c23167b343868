"""check-evaluator names one bug with one class, and says so for every classic port (docs/check-evaluator.md).

The classic ports of the doc's table are run on the whole default suite and must have exactly the class
the table gives them (a lesser class beside it aside). A truncated program answered as if it were
closed is a tokenizer difference, ``null`` for an infinite result is the overflow class, and the
counterexamples shown for a class are distinct programs.
"""

from __future__ import annotations

import json
import math
import re
import shlex
import shutil
from pathlib import Path
from typing import Any

import pytest

from progexec.checker.evaluator.cases import EvalCase, Family
from progexec.checker.evaluator.check import EvalReport, check_chunk
from progexec.checker.evaluator.classes import EvalDivergence
from progexec.checker.evaluator.diagnosis import explanations
from progexec.checker.evaluator.protocol import Protocol, parse_answer, prepare, reference
from progexec.cli import main
from progexec.core.verdict import OfficialVerdict

ROOT = Path(__file__).resolve().parents[1]
PORTS = ROOT / "tests" / "ports"
DOC = ROOT / "docs" / "check-evaluator.md"
ROW = re.compile(r"^\| (?P<port>[^|]+) \| `(?P<run>--(?:cmd|python) [^`]+)` \| `(?P<kind>[a-z_0-9]+)` \| (?P<n>[\d,]+) \|$")


def classic_ports() -> list[tuple[str, str, str, int]]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("### Which class each classic port gets", 1)[1].split("\n## ", 1)[0]
    rows = [ROW.match(line) for line in section.splitlines() if line.startswith("| ") and "`--" in line]
    assert rows and all(rows), "every row of the classic-port table names how to run the port and its class"
    return [(m["port"], m["run"], m["kind"], int(m["n"].replace(",", ""))) for m in rows if m is not None]


def test_the_table_covers_the_classic_ports() -> None:
    ports = " ".join(port for port, *_ in classic_ports())
    for classic in ("Python `round(x * 1e5) / 1e5`", "JavaScript `Math.round(x * 1e5) / 1e5`", "currency",
                    "every step", "float32", "no table ops", "no final rounding"):
        assert classic in ports


@pytest.mark.parametrize("port, run, kind, wrong", classic_ports(), ids=[row[0][:40] for row in classic_ports()])
def test_each_classic_port_gets_its_one_class(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                             port: str, run: str, kind: str, wrong: int) -> None:
    option, value = shlex.split(run)
    if option == "--cmd" and shutil.which("node") is None:
        pytest.skip("node is not installed")
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("PYTHONPATH", f"{ROOT / 'src'}:{PORTS}")
    code = main(["check-evaluator", "--json", "--no-progress", option, value])
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    real = {name: count for name, count in report["by_class"].items() if not EvalDivergence(name).minor}
    assert real == {kind: wrong}, report["by_class"]
    assert report["divergent"] - report["by_class"].get("libm_pow", 0) - report["by_class"].get("sign_of_zero", 0) \
        == wrong
    for examples in report["counterexamples"].values():
        programs = [example["program"] for example in examples]
        assert len(programs) == len(set(programs)), programs  # distinct programs, never one three times


def _prepared(program: str, table: Any = None) -> Any:
    prepared = prepare(EvalCase("t", Family.REFUSALS, "finqa", program, table), Protocol.JSONL)
    assert prepared is not None
    return prepared


def _classes(program: str, answer: bytes) -> list[EvalDivergence]:
    prepared = _prepared(program)
    got = parse_answer(answer, prepared, Protocol.JSONL)
    expected = reference(prepared, Protocol.JSONL)
    return [kind for kind, _ in explanations(prepared, Protocol.JSONL, expected, got)]


@pytest.mark.parametrize("program, value", [("add(1, 63010", 63011.0), ("subtract(10, 4", 6.0),
                                            ("add(1, 2), multiply(#0, 3", 9.0)])
def test_a_truncated_program_answered_is_a_tokenizer_difference(program: str, value: float) -> None:
    # SPEC §1: the official loop finds no complete step in an unclosed one, so this_res stays "n/a"
    prepared = _prepared(program)
    assert reference(prepared, Protocol.JSONL) == OfficialVerdict(True, None) or program.startswith("add(1, 2)")
    answer = json.dumps({"id": "t", "valid": True, "value": value}).encode()
    assert _classes(program, answer) == [EvalDivergence.TOKENIZER]


def test_an_answer_where_the_official_finds_no_step_is_a_tokenizer_difference_by_shape() -> None:
    answer = json.dumps({"id": "t", "valid": True, "value": 12345.5}).encode()  # no rule gives this number
    assert _classes("add(1, 63010", answer) == [EvalDivergence.TOKENIZER]


@pytest.mark.parametrize("program", ["divide(1e308, 1e-308)", "multiply(1e200, 1e200)", "add(inf, 1)",
                                     "subtract(-inf, 5)", "add(nan, 1)"])
def test_null_for_an_infinite_result_is_the_overflow_class(program: str) -> None:
    expected = reference(_prepared(program), Protocol.JSONL)
    assert isinstance(expected, OfficialVerdict) and expected.valid and isinstance(expected.value, float)
    assert not math.isfinite(expected.value)  # the official round(inf, 5) is inf (SPEC §2), nan stays nan
    answer = b'{"id": "t", "valid": true, "value": null}'
    assert _classes(program, answer) == [EvalDivergence.OVERFLOW_COMPLEX]


def test_examples_are_distinct_programs() -> None:
    """One program met with several tables (or ids) diverging the same way is shown once."""
    tables = [[["a", str(n)]] for n in range(5)]
    cases = [_prepared("divide(1, 8)", table) for table in tables] + \
        [_prepared("divide(3, 8)"), _prepared("divide(5, 80)"), _prepared("divide(7, 800)")]
    cases = [type(item)(EvalCase(f"c{i}", item.case.family, "finqa", item.case.program, item.case.table), item.line)
             for i, item in enumerate(cases)]
    # a port answering 1 for every case: wrong on all, explained by no rule
    answers = [parse_answer(json.dumps({"id": f"c{i}", "valid": True, "value": 1.0}).encode(), item, Protocol.JSONL)
               for i, item in enumerate(cases)]
    report = EvalReport("p", Protocol.JSONL, "all", 0)
    check_chunk(cases, answers, Protocol.JSONL, report)
    report.finish()
    assert report.by_class == {"other": 8}
    programs = [example.case.program for example in report.examples["other"]]
    assert programs == ["divide(3, 8)", "divide(1, 8)", "divide(5, 80)"]  # simplest first: no table, then a small one


def test_the_readme_quotes_the_tables_count_for_the_math_round_port() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quoted = re.search(r"port is `naive_rounding` on all its ([\d,]+) wrong cases", readme)
    row = next(row for row in classic_ports() if "Math.round" in row[0])
    assert quoted is not None and int(quoted.group(1).replace(",", "")) == row[3] and row[2] == "naive_rounding"
