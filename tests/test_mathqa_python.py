"""MathQA -> MathQA-Python translation: the code's answer, the keep rule, and the ``mathqa-python`` command."""

from __future__ import annotations

import json
import math
from pathlib import Path

from progexec.cli import main
from progexec.datasets.mathqa.corpus import mathqa_records
from progexec.datasets.mathqa.python_gen import TEMPLATES, run_trusted, translate, translate_all
from progexec.datasets.mathqa.ops import MATHQA_PYTHON_OPS


def test_every_op_has_a_python_template() -> None:
    assert set(TEMPLATES) == set(MATHQA_PYTHON_OPS)


def test_first_test_problem() -> None:
    item = translate(mathqa_records("test")[0], 0)
    assert item is not None
    assert item.text.startswith("# a shopkeeper sold an article") and item.text.endswith(" n0 = 5.0 n1 = 31.1")
    assert item.code.splitlines() == [
        "n0 = 5.0", "n1 = 31.1", "t0 = n1 + 100.0", "t1 = 100.0 - n0", "t2 = t0 * 100.0", "t3 = t2 / t1",
        "answer = t3 - 100.0"]
    assert math.isclose(item.answer, 38.0, rel_tol=1e-12)
    assert item.record()["dsl_code"] == mathqa_records("test")[0]["linear_formula"]


def test_math_is_imported_only_when_used() -> None:
    record = {"Problem": "a circle of radius 2 and 3", "options": "a ) 12.566 , b ) 3", "correct": "a",
              "linear_formula": "circle_area(n0)|"}
    item = translate(record, 0)
    assert item is not None and item.code.startswith("import math\n")
    assert math.isclose(item.answer, 4 * math.pi, rel_tol=1e-12)


def test_items_outside_one_percent_or_unsupported_are_dropped() -> None:
    base = {"Problem": "add 2 and 3", "options": "a ) 5 , b ) 6", "linear_formula": "add(n0,n1)|"}
    assert translate({**base, "correct": "a"}) is not None
    assert translate({**base, "correct": "b"}) is None
    assert translate({**base, "correct": "a", "linear_formula": "min(n0,n1)|"}) is None
    assert translate({**base, "correct": "a", "linear_formula": "divide(n0,const_0)|"}) is None  # code raises


def test_code_and_interpreter_agree_on_kept_test_items() -> None:
    """The generated code, run as Python, gives the value the op table gives (the kept items are all within 1 %)."""
    items = list(translate_all(mathqa_records("test")))
    assert len(items) == 1881
    assert all(run_trusted(item.code) == item.answer for item in items[:200])


def test_mathqa_python_command(tmp_path: Path) -> None:
    out = tmp_path / "mathqa_python_test.jsonl"
    assert main(["mathqa-python", "--split", "challenge_test", "--out", str(out), "--quiet"]) == 0
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 403
    assert set(lines[0]) == {"id", "text", "code", "dsl_code", "answer"}
    assert lines[0]["id"] == "0" and lines[0]["answer"] == 192.0  # 1000 / 10 + (10 - 1) * 10 + 2
    assert all(line["code"].splitlines()[-1].startswith("answer = ") for line in lines)
