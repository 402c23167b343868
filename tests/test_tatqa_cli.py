"""progexec exec / report / score on TAT-QA files: the official figures, one line per arithmetic question,
the report's classes; gzip and standard input as for every input; bad input as exit 2, never a crash."""

from __future__ import annotations

import gzip
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from progexec.cli import main
from progexec.datasets.tatqa import read_questions

SAMPLE = str(Path(__file__).parent / "data" / "predictions" / "tatqa_sample_prediction.json.gz")


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(data))))


def test_score_prints_the_official_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--gold", "tatqa:dev", "--pred", SAMPLE, "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Exact-match accuracy 45.92\nF1 score 58.88\nScale score 90.95\n45.92   &   58.88\n" in out


def test_score_json_items_and_out_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    items = tmp_path / "items.jsonl"
    assert main(["score", "--gold", "tatqa:dev", "--pred", SAMPLE, "--json", "--items", str(items),
                 "--out", str(tmp_path / "out"), "--no-progress"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["printed"] == {"exact_match": "45.92", "f1": "58.88", "scale_score": "90.95"}
    assert record["meta"]["inputs"][0]["name"] == "tatqa:dev" and record["meta"]["inputs"][0]["sha256"]
    lines = [json.loads(line) for line in items.read_text().splitlines()]
    assert len(lines) == 1668 and sum(line["em"] for line in lines) / 1668 == record["exact_match"]
    assert {path.name for path in (tmp_path / "out").iterdir()} == {"score.json", "items.jsonl", "score.md",
                                                                    "score.html"}
    assert (tmp_path / "out" / "score.html").read_text().count("<tr data-reason=") == 1668


def test_score_reads_predictions_from_standard_input(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    _stdin(monkeypatch, Path(SAMPLE).read_bytes())  # gzip, recognised by its magic bytes
    assert main(["score", "--gold", "tatqa:dev", "--pred", "-", "--json", "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["printed"]["exact_match"] == "45.92"


def test_score_exits_1_where_the_official_script_stops(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    uid = next(read_questions("tatqa:test")).uid
    pred = tmp_path / "pred.json"
    pred.write_text(json.dumps({uid: [["a", 1], ""]}))
    assert main(["score", "--gold", "tatqa:test", "--pred", str(pred), "--json", "--no-progress"]) == 1
    assert uid in json.loads(capsys.readouterr().out)["official_aborted"]


@pytest.mark.parametrize("content", ["{not json", "[1, 2]"])
def test_bad_prediction_files(tmp_path: Path, content: str) -> None:
    pred = tmp_path / "pred.json"
    pred.write_text(content)
    assert main(["score", "--gold", "tatqa:test", "--pred", str(pred), "--no-progress"]) == 2


def test_exec_writes_one_line_per_arithmetic_question(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "exec.jsonl"
    assert main(["exec", "tatqa:test", "--out", str(out), "--no-progress"]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 699 and all(line["match"] for line in lines)
    assert "964 questions of other types counted, not executed" in capsys.readouterr().err


def test_exec_on_gzip_from_standard_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    context = {"table": {"table": [["", "2019"]]}, "paragraphs": [], "questions": [
        {"uid": "p", "answer": 6.67, "answer_type": "arithmetic", "answer_from": "table", "scale": "percent",
         "derivation": "(4.00 - 3.75)/3.75"},
        {"uid": "bad", "answer": 1, "answer_type": "arithmetic", "answer_from": "table", "scale": "",
         "derivation": "1 +* 2"},
        {"uid": "s", "answer": ["x"], "answer_type": "span", "answer_from": "text", "scale": "", "derivation": ""}]}
    _stdin(monkeypatch, gzip.compress(json.dumps([context, "not a context"]).encode()))
    assert main(["exec", "-", "--no-progress"]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(line["id"], line["status"], line.get("rule")) for line in lines] == [
        ("p", "ok", "times_100"), ("bad", "syntax_error", None), ("<stdin>-1", "bad_input", None)]
    assert lines[0]["findings"] == ["percent_scale"] and lines[0]["match"] is False
    assert "column" in lines[1]["message"]


def test_report_counts_the_classes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "tatqa:dev", "--out", str(tmp_path), "--json", "--no-progress"]) == 0
    summary: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert summary["classes"] == {"percent_scale": 225, "accounting_negative": 2, "rounding": 0,
                                  "derivation_error": 1, "unparseable": 0}
    assert summary["arithmetic"] == 718 and summary["executes"] == 717
    document = json.loads((tmp_path / "report.json").read_text())
    assert len(document["derivations"]) == 718 and document["meta"]["inputs"][0]["name"] == "tatqa:dev"
    assert "percent_scale" in (tmp_path / "report.md").read_text()
    assert "<table" in (tmp_path / "report.html").read_text()


def test_report_outputs_are_byte_identical_on_rerun(tmp_path: Path) -> None:
    for name in ("a", "b"):
        assert main(["report", "tatqa:test", "--out", str(tmp_path / name), "--no-progress"]) == 0
    for name in ("report.json", "report.md", "report.html"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_the_registry_entry() -> None:
    from progexec.core.registry import dataset_names as dialect_names, get_dataset as get_dialect

    dialect = get_dialect("tatqa")
    assert "tatqa" in dialect_names() and dialect.round_digits is None and dialect.score is not None
    assert dialect.parse("(4.00 - 3.75)/3.75").to_text() == "subtract(4.00, 3.75), divide(#0, 3.75)"


def test_run_a_derivation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--dialect", "tatqa", "--json", "13 + (110)"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == -97.0  # the gold answer of that test question
    assert main(["run", "--dialect", "tatqa", "--json", "1 +"]) == 1
    assert json.loads(capsys.readouterr().out)["status"] == "syntax_error"


def test_score_with_the_gold_on_standard_input(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from importlib import resources

    _stdin(monkeypatch, resources.files("progexec.data").joinpath("tatqa_dev.json.gz").read_bytes())
    assert main(["score", "--gold", "-", "--pred", SAMPLE, "--dialect", "tatqa", "--json", "--no-progress"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["printed"] == {"exact_match": "45.92", "f1": "58.88", "scale_score": "90.95"}


def _question(uid: str, **fields: Any) -> dict[str, Any]:
    base = {"uid": uid, "answer": 1, "answer_type": "arithmetic", "answer_from": "table", "scale": "",
            "derivation": "1"}
    return {**base, **fields}


HOSTILE = [_question("deep", derivation="(" * 30000 + "1" + ")" * 30000), _question("long", derivation="1+" * 20000 + "1"),
           _question("big", derivation="9" * 5000 + "/3"), _question("number", derivation=5),
           _question("null", derivation=None), _question("no-answer", answer=None), _question("zero", derivation="1/0"),
           _question("percent", derivation="5%%"), _question("digits", derivation="\u0661\u0662 + 3"),
           _question("date", answer_type="date"), "not a question", {"no": "uid"}]


def test_hostile_questions_never_crash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = tmp_path / "gold.json"
    empty = {"table": {"table": []}, "paragraphs": [], "questions": []}  # usable contexts with no question, so
    # that the file is mostly usable (an input whose first records are mostly unusable is refused, exit 2)
    gold.write_text(json.dumps([{"table": {"table": [[1, 2]]}, "paragraphs": [{"text": 5}], "questions": HOSTILE},
                                empty, empty, [1], None]))
    assert main(["exec", str(gold), "--no-progress"]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    statuses = {line["id"]: line["status"] for line in lines}
    assert statuses["deep"] == statuses["long"] == statuses["big"] == "limit_exceeded"
    assert statuses["number"] == statuses["null"] == statuses["percent"] == "syntax_error"
    assert statuses["zero"] == "divide_by_zero" and statuses["digits"] == "ok"  # float() reads Arabic-Indic digits
    assert sum(1 for status in statuses.values() if status == "bad_input") == 4 and "date" not in statuses
    assert main(["report", str(gold), "--out", str(tmp_path / "r"), "--json", "--no-progress"]) == 0
    summary = json.loads(capsys.readouterr().out)
    # "deep", "long" and "big" are executed and refused by counted bounds (max_steps, max_literal_chars), not
    # stopped by Python's recursion limit
    assert summary["not_executed"] == {"bad_input": 4, "date": 1}
    assert main(["score", "--gold", str(gold), "--pred", str(gold), "--no-progress"]) == 2  # as the official: a KeyError


def test_a_prediction_list_is_refused_naming_the_file_and_the_shape(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """The official tatqa_eval.py finds no uid in a list (``uid in list``) and scores every question 0 without a
    word; progexec refuses it (exit 2) naming the file and the {uid: [answer, scale]} object it expects."""
    uid = next(read_questions("tatqa:test")).uid
    pred = tmp_path / "pred.json"
    pred.write_text(json.dumps([[uid, ["1", ""]]]))
    assert main(["score", "--gold", "tatqa:test", "--pred", str(pred), "--no-progress"]) == 2
    error = capsys.readouterr().err
    assert str(pred) in error and "{uid: [answer, scale]}" in error


@pytest.mark.parametrize("value", [[[1, "a"], ""], "abc", 7, {"a": 1, "b": 2, "c": 3}, ["12.5", None]])
def test_a_prediction_the_official_script_cannot_read_is_bad_input_naming_its_uid(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], value: object) -> None:
    """A list answer mixing a number and a string (the official sorted() raises TypeError), a value that is not a
    list (``answer, scale = value`` raises), a number with a null scale (``None.lower()`` raises): the official run
    stops there, so progexec marks that question bad_input naming its uid and exits 1; the others are scored."""
    questions = list(read_questions("tatqa:test"))
    broken = next(q.uid for q in questions if q.answer_type == "arithmetic")
    pred = tmp_path / "pred.json"
    pred.write_text(json.dumps({broken: value}))
    items = tmp_path / "items.jsonl"
    assert main(["score", "--gold", "tatqa:test", "--pred", str(pred), "--items", str(items), "--no-progress"]) == 1
    records = [json.loads(line) for line in items.read_text().splitlines()]
    assert len(records) == len(questions)
    bad = [record for record in records if record["reason"] == "bad_input"]
    assert [record["uid"] for record in bad] == [broken] and broken in bad[0]["error"]
    assert {record["reason"] for record in records if record["uid"] != broken} == {"missing"}
