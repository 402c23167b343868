"""Scoring stays bounded on predictions the official script could never finish or read."""

from __future__ import annotations

import json
from pathlib import Path

from progexec.cli import main
from progexec.score.equivalence import Why, equal_program


def test_exponential_reference_expansion_is_refused_before_any_tree_is_built() -> None:
    # the official symbol_recur expands #i twice per step: 2**60 calls for this prediction
    gold = ["subtract(", "5829", "5735", ")", "EOF"]
    pred = ["subtract(", "5829", "5735", ")"]
    for index in range(60):
        pred += ["add(", f"#{index}", f"#{index}", ")"]
    match = equal_program(gold, pred + ["EOF"])
    assert not match.equal and match.why is Why.TOO_LARGE


def test_unicode_line_separator_inside_a_string_does_not_split_a_record(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    record = {"id": "ETR/2016/page_23.pdf-2", "predicted": ["subtract(", "5829", "5735", ")", "EOF"],
              "note": "a\u2028b"}
    path = tmp_path / "pred.jsonl"
    path.write_text(json.dumps(record, ensure_ascii=False) + "\n" + json.dumps(record, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    assert main(["score", "--gold", "finqa:test", "--pred", str(path), "--json"]) in (0, 1)
    summary = json.loads(capsys.readouterr().out)
    assert summary["n"] == 2 and summary["coverage"]["unreadable"] == []
    assert summary["scorers"]["official"]["execution_correct"] == 2  # exe_ans of that item is 94.0


def test_exponential_program_on_the_first_side_is_refused_too() -> None:
    # unitxt calls equal_program with the arguments swapped: the prediction is then the first side
    first = ["subtract(", "5829", "5735", ")"]
    for index in range(60):
        first += ["add(", f"#{index}", f"#{index}", ")"]
    match = equal_program(first + ["EOF"], ["subtract(", "5829", "5735", ")", "EOF"])
    assert not match.equal and match.why is Why.TOO_LARGE
