"""Inputs a command cannot read are refused with exit 2 and one line naming the file, what it is and
what was wanted; the "mostly unusable" rule is judged on the first records, before anything is written."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from progexec.cli import main
from progexec.inputkinds import JUDGED_RECORDS, PREDICTIONS, REWARD_INPUTS, describe, judge
from progexec.jsonrecords import Record
from progexec.readers import read
from progexec.core.errors import InputError

PROGRAM = {"id": "a", "program": "add(1, 2)", "exe_ans": 3.0}
FINQA_ITEM = {"id": "f-1", "qa": {"program": "add(1, 2)", "exe_ans": 3.0, "question": "q"}, "table": [],
              "pre_text": [], "post_text": []}


def _lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_reward_on_a_finqa_file_says_what_it_is_and_what_it_wants(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "finqa_test.json"
    path.write_text(json.dumps([FINQA_ITEM] * 3), encoding="utf-8")
    assert main(["reward", str(path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"progexec reward: error: {path}: this is a JSON array of FinQA dataset items (with qa); "
                            "expected reward inputs {id, completion, gold} (JSON Lines or a JSON list) (3 of the "
                            "first 3 records cannot be used;")


def test_exec_and_report_refuse_csv_and_write_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _lines(tmp_path / "preds.csv", ["id,program", "1,add(1 2)", "2,add(2 3)"])
    out = tmp_path / "out.jsonl"
    assert main(["exec", str(path), "--out", str(out)]) == 2
    assert not out.exists()
    assert main(["report", str(path), "--out", str(tmp_path / "report")]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 2 and all("preds.csv: this is CSV text" in line for line in errors)


def test_the_gold_where_predictions_belong_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([FINQA_ITEM]), encoding="utf-8")
    assert main(["score", "--gold", str(gold), "--pred", str(gold)]) == 2
    assert "are --gold and --pred swapped?" in capsys.readouterr().err


def test_more_than_half_unusable_is_refused_half_is_not() -> None:
    good = Record(1, "line 1", {"id": "a", "completion": "x", "gold": {}})
    bad = Record(2, "line 2", error="line 2 is not JSON (Expecting value at column 1)")
    judge("half.jsonl", "lines", [good, bad] * 50, REWARD_INPUTS)  # 50 of 100: read, as a stream
    with pytest.raises(InputError, match="51 of the first 100 records cannot be used"):
        judge("most.jsonl", "lines", [good] * 49 + [bad] * 51, REWARD_INPUTS)


def test_bad_records_past_the_judged_window_are_bad_input(tmp_path: Path) -> None:
    lines = [json.dumps(dict(PROGRAM, id=f"p{n}")) for n in range(JUDGED_RECORDS)] + ["not json"] * 150
    items = list(read(_lines(tmp_path / "late.jsonl", lines)))
    assert len(items) == JUDGED_RECORDS + 150 and sum(item.error is not None for item in items) == 150


def test_a_json_list_element_kind_is_described() -> None:
    records = [Record(1, "item 1", FINQA_ITEM)]
    assert describe("list", records) == "a JSON array of FinQA dataset items (with qa)"
    with pytest.raises(InputError, match="swapped") as refused:
        judge("gold.json", "list", records, PREDICTIONS)
    assert (refused.value.source, refused.value.seen, refused.value.expected) == (
        "gold.json", "a JSON array of FinQA dataset items (with qa)", PREDICTIONS.what)


def test_a_gzip_of_a_brace_and_spaces_is_refused_by_its_ratio(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "preds.jsonl.gz"
    path.write_bytes(gzip.compress(b"{\n" + b" " * (12 * 2**20), 6))  # about 12 KB
    assert main(["exec", str(path)]) == 2
    assert main(["score", "--gold", "finqa:test", "--pred", str(path)]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert "max_gzip_ratio" in errors[0]
    assert "max_line_chars" in errors[1] or "max_gzip_ratio" in errors[1]


def test_a_document_given_where_records_are_read_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "conv_preds.json"
    path.write_text(json.dumps({"k1": [PROGRAM], "k2": [PROGRAM]}, indent=2), encoding="utf-8")
    assert main(["exec", str(path)]) == 2
    assert "one JSON document spread over lines, not JSON Lines" in capsys.readouterr().err
