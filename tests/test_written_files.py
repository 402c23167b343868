"""``--out`` writes the documented files for every dataset ``score`` supports, and every file a command writes
is named on stderr as ``progexec <command>: wrote <path>`` (README.md; tests/test_cli_help.py checks exec,
reward, report, FinQA score and conformance export)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from progexec.cli import main

DATA = Path(__file__).parent / "data"
TATQA_SAMPLE = str(DATA / "predictions" / "tatqa_sample_prediction.json.gz")
SCORE_FILES = ("score.json", "items.jsonl", "score.md", "score.html")


def _named(err: str, command: str, path: Path) -> bool:
    return f"progexec {command}: wrote {path}\n" in err


def _multihiertt(tmp_path: Path) -> tuple[Path, Path]:
    """Two MultiHiertt questions (a program and a span) and predictions scoring EM 1 and F1 1 on both, as
    MultiHiertt's evaluate.py scores them (docs/multihiertt.md)."""
    gold = tmp_path / "dev.json"
    gold.write_text(json.dumps([{"uid": "a", "qa": {"question": "q", "answer": 8.0, "program": "add(5, 3)"}},
                                {"uid": "b", "qa": {"question": "q", "answer": "apple", "program": ""}}]))
    pred = tmp_path / "pred.json"
    pred.write_text(json.dumps([{"uid": "a", "predicted_ans": "8", "predicted_program": ["add(", "4", "4", ")", "EOF"]},
                                {"uid": "b", "predicted_ans": "an apple", "predicted_program": []}]))
    return gold, pred


def test_multihiertt_score_out_writes_the_four_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, pred = _multihiertt(tmp_path)
    assert main(["score", "--gold", str(gold), "--pred", str(pred), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    out = tmp_path / "out"
    assert main(["score", "--gold", str(gold), "--pred", str(pred), "--out", str(out),
                 "--items", str(tmp_path / "items.jsonl")]) == 0  # it wrote nothing and exited 0 before
    err = capsys.readouterr().err
    for name in SCORE_FILES:
        assert (out / name).is_file() and _named(err, "score", out / name), (name, err)
    assert _named(err, "score", tmp_path / "items.jsonl") and "score: wrote one line" not in err
    written = json.loads((out / "score.json").read_text())
    assert (written["exact_match"], written["f1"]) == (1.0, 1.0)
    assert {key: value for key, value in written.items() if key != "meta"} == \
        {key: value for key, value in printed.items() if key != "meta"}
    lines = (out / "items.jsonl").read_text()
    assert lines == (tmp_path / "items.jsonl").read_text() and len(lines.splitlines()) == 2
    assert "exact match 1.0000, F1 1.0000" in (out / "score.md").read_text()
    assert (out / "score.html").read_text().startswith("<!DOCTYPE html>")


def test_tatqa_score_out_names_its_four_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t"
    assert main(["score", "--gold", "tatqa:dev", "--pred", TATQA_SAMPLE, "--out", str(out), "--no-progress"]) == 0
    err = capsys.readouterr().err
    for name in SCORE_FILES:
        assert (out / name).is_file() and _named(err, "score", out / name), (name, err)


def test_tatqa_report_names_its_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "tatqa:dev", "--out", str(tmp_path / "r"), "--no-progress"]) == 0
    err = capsys.readouterr().err
    for name in ("report.json", "report.md", "report.html"):
        assert _named(err, "report", tmp_path / "r" / name), (name, err)


def test_rows_names_its_file_with_the_prefix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rows.jsonl"
    assert main(["rows", str(DATA / "rows" / "mathqa_test_3.json"), "--for", "verl", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert _named(err, "rows", out) and "progexec rows: 3 verl rows\n" in err
    assert not any(line.startswith("rows:") for line in err.splitlines())


def test_mathqa_python_names_its_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m.jsonl"
    assert main(["mathqa-python", str(DATA / "rows" / "mathqa_test_3.json"), "--out", str(out), "--no-progress"]) == 0
    assert _named(capsys.readouterr().err, "mathqa-python", out)


def test_conformance_export_of_the_reward_suite_names_only_what_it_wrote(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "export", str(tmp_path / "s"), "--suite", "reward", "--cases", "5"]) == 0
    err = capsys.readouterr().err
    written = sorted(path for path in (tmp_path / "s").iterdir())
    assert [path.name for path in written] == ["reward.jsonl"]
    assert [line for line in err.splitlines() if ": wrote " in line] == \
        [f"progexec conformance: wrote {tmp_path / 's' / 'reward.jsonl'}"]


def test_check_rounder_and_check_evaluator_name_their_junit_files(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    junit = tmp_path / "rounder.xml"
    assert main(["check-rounder", "--python", "builtins:round", "--cases", "200", "--no-progress",
                 "--junit", str(junit)]) == 0
    assert junit.is_file() and _named(capsys.readouterr().err, "check-rounder", junit)
    junit = tmp_path / "evaluator.xml"
    main(["check-evaluator", "--cmd", "true", "--cases", "20", "--no-progress",  # a port that answers nothing
          "--junit", str(junit)])
    assert junit.is_file() and _named(capsys.readouterr().err, "check-evaluator", junit)


def test_tatqa_score_json_is_the_same_wherever_and_however_spread_it_is_written(tmp_path: Path) -> None:
    """``meta.arguments`` leaves out where output goes and how the work is spread (``OUTPUT_OPTIONS``), for the
    TAT-QA scorer as for every other: two runs writing elsewhere, one with ``--jobs``, give the same score.json
    (the TAT-QA branch recorded the raw command line, its ``--out`` folder included)."""
    first, second = tmp_path / "first", tmp_path / "second"
    assert main(["score", "--gold", "tatqa:dev", "--pred", TATQA_SAMPLE, "--out", str(first), "--no-progress"]) == 0
    assert main(["score", "--gold", "tatqa:dev", "--pred", TATQA_SAMPLE, "--out", str(second), "--jobs", "2",
                 "--no-progress"]) == 0
    record = json.loads((first / "score.json").read_text(encoding="utf-8"))
    assert record["meta"]["arguments"] == ["score", "--gold", "tatqa:dev", "--pred", TATQA_SAMPLE]
    assert (first / "score.json").read_bytes() == (second / "score.json").read_bytes()
