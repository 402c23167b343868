"""Scoring program-of-thought runs on small records written here in the documented shapes: DocMath-Eval
(its README's record fields) and FinanceMath (data/validation.json's fields), through the API and the CLI."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from progexec.cli import main
from progexec.isolation import bwrap as bubblewrap
from progexec.datasets.pysolution.datasets import DOCMATH, FINANCEMATH, MATHQA_PYTHON, detect
from progexec.datasets.pysolution.pool import Budget
from progexec.datasets.pysolution.scoring import load_records, score_runs

pytestmark = pytest.mark.skipif(not bubblewrap.status().available, reason="no bubblewrap isolation on this machine")
BUDGET = Budget(cpu_seconds=1, wall_seconds=5)


def docmath_gold(question_id: str, solution: str, value: float) -> dict[str, object]:
    return {"question_id": question_id, "source": "finqa", "original_question_id": "x", "question": "q?",
            "paragraphs": ["| a | 1 |"], "table_evidence": [0], "paragraph_evidence": [],
            "python_solution": solution, "ground_truth": value}


def fenced(body: str) -> str:
    return f"```python\n{body}\n```"


def test_docmath_records(tmp_path: Path) -> None:
    gold = [docmath_gold("d1", "def solution():\n    return 0.125", 0.125),
            docmath_gold("d2", "def solution():\n    return -42.0", -42.0),
            docmath_gold("d3", "def solution():\n    return 12.5 / 100", 0.125),
            docmath_gold("d4", "def solution():\n    return 7", 7.0)]
    assert detect(gold[0]) is DOCMATH
    predictions = [{"question_id": "d1", "output": fenced("def solution():\n    return 1 / 8")},
                   {"question_id": "d2", "output": fenced("def solution():\n    return 42.0")},   # sign ignored
                   {"question_id": "d3", "output": fenced("def solution():\n    return 12.5")},   # percent for ratio
                   {"question_id": "d4", "output": fenced("def solution():\n    return undefined_name")}]
    (tmp_path / "gold.json").write_text(json.dumps(gold))
    (tmp_path / "model.json").write_text(json.dumps(predictions))
    board = score_runs(DOCMATH, load_records(tmp_path / "gold.json"),
                       [("model", load_records(tmp_path / "model.json"))], jobs=1, budget=BUDGET)
    model = board.models[0]
    assert (model.accuracy, model.execution_rate, model.strict_accuracy) == (75.0, 75.0, 25.0)
    assert [item.divergence for item in model.items] == [None, "sign_ignored", "power_of_ten", None]
    assert model.items[3].result.status.value == "runtime_error"


def financemath_gold() -> list[dict[str, object]]:
    rows = [("v-0", "Accounting", "def solution():\n    return 57000 * 0.8 ** 3 - 21000", 8184.0),
            ("v-1", "Accounting", "def solution():\n    return 3", 3.0),
            ("v-2", "Risk Management", "def solution():\n    return 0.0575", 0.058),
            ("v-3", "Risk Management", "import numpy as np\ndef solution():\n    return np.int64(5)", 5.0)]
    return [{"question_id": qid, "question": "q", "tables": [], "python_solution": code, "ground_truth": value,
             "topic": topic} for qid, topic, code, value in rows]


def write_models(directory: Path) -> None:
    directory.mkdir()
    good = [{"question_id": "v-0", "topic": "Accounting", "output": ["```python\ndef solution():\n    return 8184.000000000004\n```"]},
            {"question_id": "v-1", "topic": "Accounting", "output": ["    x = 3\n    return x"]},
            {"question_id": "v-2", "topic": "Risk Management", "output": ["```python\ndef solution():\n    return 5.75\n```"]},
            {"question_id": "v-3", "topic": "Risk Management", "output": ["```python\ndef solution():\n    return 5\n```"]}]
    weak = [{"question_id": "v-0", "topic": "Accounting", "output": ["```python\ndef solution():\n    return -8184.4\n```"]},
            {"question_id": "v-1", "topic": "Accounting", "output": [""]},
            {"question_id": "v-9", "topic": "Accounting", "output": ["```python\ndef solution():\n    return 1\n```"]}]
    (directory / "good-model.json").write_text(json.dumps(good))
    with gzip.open(directory / "weak-model.json.gz", "wt") as handle:
        json.dump(weak, handle)


def test_financemath_cli_leaderboard(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "gold.json").write_text(json.dumps(financemath_gold()))
    write_models(tmp_path / "runs")
    args = ["score-python", "--gold", str(tmp_path / "gold.json"), "--pred", str(tmp_path / "runs"),
            "--time-limit", "1", "--jobs", "1", "--no-progress"]
    assert main(args + ["--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["dataset"] == "financemath"
    models = {model["model"]: model for model in doc["models"]}
    # v-3's gold returns numpy int64: the official rule's type check makes every answer to it wrong
    assert (models["good-model"]["accuracy"], models["good-model"]["execution_rate"]) == (75.0, 100.0)
    assert models["good-model"]["strict_accuracy"] == 50.0
    assert models["good-model"]["divergences"]["power_of_ten"] == 1
    assert models["good-model"]["topics"]["Risk Management"]["accuracy"] == 50.0
    assert (models["weak-model"]["accuracy"], models["weak-model"]["execution_rate"]) == (0.0, 50.0)
    assert models["weak-model"]["unknown_ids"] == ["v-9"] and models["weak-model"]["missing"] == ["v-2", "v-3"]
    statuses = {(item["model"], item["question_id"]): item["status"] for item in doc["items"]}
    assert statuses[("weak-model", "v-1")] == "no_code"
    gold = {row["question_id"]: row for row in doc["gold"]}
    assert gold["v-3"]["type"] == "int64" and gold["v-0"]["type"] == "float"

    assert main(args + ["--by-topic", "--divergences"]) == 0
    text = capsys.readouterr().out
    assert "good-model" in text.splitlines()[2] and "  Risk Management" in text and "power_of_ten 1" in text

    names = ("leaderboard.json", "items.jsonl", "leaderboard.txt", "index.html", "model-good-model.html")
    assert main(args + ["--out", str(tmp_path / "a")]) == 0
    err = capsys.readouterr().err
    for name in names:  # every file named, not only the folder
        assert f"progexec score-python: wrote {tmp_path / 'a' / name}\n" in err, err
    first = {name: (tmp_path / "a" / name).read_bytes() for name in names}
    assert main(args + ["--out", str(tmp_path / "a")]) == 0
    capsys.readouterr()
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == first[name], name
    index = (tmp_path / "a" / "index.html").read_text()
    assert "href='model-weak-model.html'" in index
    page = (tmp_path / "a" / "model-good-model.html").read_text()
    assert "return 5.75" in page and "power_of_ten" in page


def test_bad_gold_and_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = financemath_gold()
    gold[1]["python_solution"] = "def solution():\n    return 1 / 0"
    (tmp_path / "gold.json").write_text(json.dumps(gold))
    write_models(tmp_path / "runs")
    board = score_runs(FINANCEMATH, load_records(tmp_path / "gold.json"),
                       [("m", load_records(tmp_path / "runs" / "good-model.json"))], jobs=1, budget=BUDGET)
    assert [question.problem for question in board.gold] == [None, "bad_gold", None, None]
    assert not board.models[0].items[1].official and board.models[0].items[1].executed
    (tmp_path / "runs" / "good-model.jsonl").write_text("")
    base = ["score-python", "--gold", str(tmp_path / "gold.json"), "--no-progress"]
    assert main(base + ["--pred", str(tmp_path / "runs")]) == 2                 # two files, one model name
    assert main(base + ["--pred", str(tmp_path / "nothing-here")]) == 2
    (tmp_path / "empty.json").write_text("[]")
    assert main(["score-python", "--gold", str(tmp_path / "empty.json"), "--pred", str(tmp_path / "empty.json")]) == 2
    assert detect({"id": 1, "answer": 2.0}) is MATHQA_PYTHON
