"""``progexec score`` runs exactly the scorers selected; the verdict line names them; ``--out`` and stdout agree
(docs/scoring.md, "Peer scorers")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from progexec.cli import main

DATA = Path(__file__).parent / "data" / "predictions"
ANSWERS = DATA / "zarifaziz-claude-sonnet-4-6_convfinqa-dev_predictions.jsonl.gz"
"""Answer-only predictions (a Claude Sonnet run on ConvFinQA dev): no program for ``official`` to execute."""
EXAMPLE = str(DATA / "finqa_example_predictions.json.gz")


def _verdict(err: str) -> str:
    return next(line for line in err.splitlines() if line.startswith(("PASS ", "FAIL ")))


def test_answer_scorers_alone_on_an_answer_only_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = ["score", "--gold", "convfinqa:dev", "--pred", str(ANSWERS),
             "--scorer", "helm-float-equiv", "--scorer", "pot", "--no-progress"]
    assert main([*words, "--json"]) == 0
    captured = capsys.readouterr()
    record = json.loads(captured.out)
    assert list(record["scorers"]) == ["helm-float-equiv", "pot"] and record["headline"] == "helm-float-equiv"
    assert record["would_abort"] == [] and record["gold_errors"] == []
    line = _verdict(captured.err)
    assert line.startswith("PASS score: n = 1490, helm-float-equiv execution accuracy ")
    assert "; pot execution accuracy " in line and "official" not in line
    for name, figures in record["scorers"].items():
        assert f"{name} execution accuracy {figures['execution_accuracy']:.4f}" in line
    assert main([*words, "--out", str(tmp_path / "out")]) == 0  # it refused before
    captured = capsys.readouterr()
    written = json.loads((tmp_path / "out" / "score.json").read_text())
    assert written["scorers"] == record["scorers"] and written["headline"] == record["headline"]
    assert _verdict(captured.err) == line
    markdown = (tmp_path / "out" / "score.md").read_text()
    assert "Helm-float-equiv execution accuracy" in markdown and "| official |" not in markdown
    lines = [json.loads(text) for text in (tmp_path / "out" / "items.jsonl").read_text().splitlines()]
    assert all(set(item["scorers"]) == {"helm-float-equiv", "pot"} for item in lines if item["status"] == "scored")


def test_one_peer_scorer_alone_runs_alone(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--gold", "finqa:test", "--pred", EXAMPLE, "--scorer", "helm-fin-qa", "--json"]) == 0
    captured = capsys.readouterr()
    record = json.loads(captured.out)
    assert list(record["scorers"]) == ["helm-fin-qa"] and record["would_abort"] == []
    assert "official" not in _verdict(captured.err) and "helm-fin-qa execution accuracy" in _verdict(captured.err)


def test_the_default_is_official_alone_with_its_published_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--gold", "finqa:test", "--pred", EXAMPLE]) == 0
    line = _verdict(capsys.readouterr().err)
    # the official evaluator's own figures on its example predictions (docs/scoring.md)
    assert line == "PASS score: n = 1050, official execution accuracy 0.7000, program accuracy 0.6876"


def test_all_scorers_are_all_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--gold", "finqa:test", "--pred", EXAMPLE, "--scorer", "all"]) == 0
    line = _verdict(capsys.readouterr().err)
    for name in ("official", "helm-fin-qa", "helm-float-equiv", "pot", "unitxt", "unitxt-2024"):
        assert f"{name} execution accuracy" in line
