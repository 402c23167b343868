"""Every row of the quirk table in docs/tatqa.md, executed: the EM and F1 the official code gives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from progexec.datasets.tatqa.metric import score_question

DOC = Path(__file__).resolve().parent.parent / "docs" / "tatqa.md"


def _rows() -> list[tuple[str, Any, Any, float, float]]:
    text = DOC.read_text(encoding="utf-8")
    table = text.split("<!-- quirks -->")[1].split("<!-- /quirks -->")[0]
    rows = []
    for line in table.strip().splitlines()[2:]:
        quirk, gold, prediction, em, f1 = [cell.strip() for cell in line.strip("|").split(" | ")]
        rows.append((quirk, json.loads(gold.strip("`")), json.loads(prediction.strip("`")), float(em), float(f1)))
    return rows


ROWS = _rows()


def test_the_table_is_read() -> None:
    assert len(ROWS) >= 25


@pytest.mark.parametrize(("quirk", "gold", "prediction", "em", "f1"), ROWS, ids=[row[0][:50] for row in ROWS])
def test_documented_quirk(quirk: str, gold: list[Any], prediction: list[Any], em: float, f1: float) -> None:
    answer, scale, kind = gold
    question = {"uid": "q", "answer": answer, "scale": scale, "answer_type": kind, "answer_from": "table"}
    scored = score_question(question, prediction[0], prediction[1])
    assert (scored.em, scored.f1) == (em, f1), quirk
