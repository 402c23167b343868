"""``progexec score``: JSON figures, --items lines, --compare, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from progexec.cli import main

DATA = Path(__file__).parent / "data" / "predictions"
EXAMPLE = str(DATA / "finqa_example_predictions.json.gz")


def test_json_prints_the_official_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--gold", "finqa:test", "--pred", EXAMPLE, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["n"] == 1050
    assert record["execution_accuracy"] == 0.7
    assert record["program_accuracy"] == 0.6876190476190476
    assert record["coverage"]["missing_predictions"] == 97
    assert "denominator" in record


def test_all_scorers_compare_and_items(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    items = tmp_path / "items.jsonl"
    assert main(["score", "--gold", "finqa:test", "--pred", EXAMPLE, "--scorer", "all", "--json",
                 "--compare", "--items", str(items)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert set(record["scorers"]) == {"official", "helm-fin-qa", "helm-float-equiv", "pot", "unitxt", "unitxt-2024"}
    assert record["scorers"]["helm-float-equiv"]["program_accuracy"] is None
    pairs = {(tuple(row["scorers"]), row["measure"]) for row in record["compare"]}
    assert (("official", "pot"), "execution") in pairs
    lines = [json.loads(line) for line in items.read_text().splitlines()]
    scored = [line for line in lines if line["status"] == "scored"]
    assert len(scored) == 1050
    assert sum(line["scorers"]["official"]["execution"] for line in scored) == 735
    assert sum(line["status"] == "no_prediction" for line in lines) == 97
    first = scored[0]
    assert first["id"] == "ETR/2016/page_23.pdf-2" and first["gold"] == 94.0


def test_table_output_names_the_denominator(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--gold", "finqa:test", "--pred", EXAMPLE]) == 0
    out = capsys.readouterr().out
    assert "program accuracy 0.6876190476190476" in out and "n = 1050" in out


def test_abort_item_exits_1_and_is_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = [{"id": "r", "table": [], "qa": {"program": "add(0.123647, 0.519502), add(#0, 1.832786)",
                                            "exe_ans": 2.47593}}]
    (tmp_path / "gold.json").write_text(json.dumps(gold))
    (tmp_path / "pred.json").write_text(json.dumps(
        [{"id": "r", "predicted": "add(0.519502, 1.832786), add(0.123647, #0)"}]))
    code = main(["score", "--gold", str(tmp_path / "gold.json"), "--pred", str(tmp_path / "pred.json"), "--json"])
    assert code == 1
    record = json.loads(capsys.readouterr().out)
    assert record["would_abort"] == ["r"]
    assert record["execution_accuracy"] == 0.0 and record["program_accuracy"] == 1.0


@pytest.mark.parametrize("argv", [
    ["score", "--gold", "finqa:nope", "--pred", EXAMPLE],
    ["score", "--gold", "finqa:test", "--pred", "/no/such/file.json"],
    ["score", "--gold", "finqa:test", "--pred", EXAMPLE, "--scorer", "bleu"],
    ["score", "--pred", EXAMPLE],
])
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
