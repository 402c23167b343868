"""The examples in docs/reward.md hold: each row of the numeric-rule, answer-format and number-form
tables is scored under the numeric policy as written."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from progexec.reward import score_completion

DOC = Path(__file__).resolve().parent.parent / "docs" / "reward.md"


MATHQA_OPTIONS = "a ) 25 , b ) 28 , c ) 30 , d ) 32 , e ) 35"
"""The options of the docs' ``mathqa:c`` gold (stated in docs/reward.md above the table)."""
BLOCKS = ("numeric-examples", "format-examples", "form-examples")


def _examples(name: str) -> list[tuple[str, str, float, str]]:
    text = DOC.read_text(encoding="utf-8")
    block = text.split(f"<!-- {name} -->")[1].split(f"<!-- /{name} -->")[0]
    rows = []
    for line in block.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("`"):
            continue
        completion = cells[0].strip("`").replace(" ... ", "\n")
        rows.append((completion, cells[1], float(cells[2]), cells[3]))
    return rows


EXAMPLES = [example for name in BLOCKS for example in _examples(name)]


@pytest.mark.parametrize("name", BLOCKS)
def test_the_examples_are_found(name: str) -> None:
    assert len(_examples(name)) >= 20
    assert f"the options `{MATHQA_OPTIONS}`" in DOC.read_text(encoding="utf-8")


def test_every_doc_example_is_a_case_of_the_committed_gold_set() -> None:
    hand = [json.loads(line) for line in (DOC.parent.parent / "tests" / "data" / "rewards" /
                                          "handwritten.jsonl").read_text(encoding="utf-8").splitlines()]
    completions = {line["completion"] for line in hand}
    for name in ("format-examples", "form-examples"):
        missing = [completion for completion, *_ in _examples(name) if completion not in completions]
        assert missing == [], name


@pytest.mark.parametrize(("completion", "gold", "score", "status"), EXAMPLES)
def test_numeric_example(completion: str, gold: str, score: float, status: str) -> None:
    record: dict[str, object] = {"answer": gold if re.fullmatch(r"yes|no", gold) else None}
    if gold.startswith("mathqa:"):
        record = {"answer": gold.removeprefix("mathqa:"), "dialect": "mathqa", "options": MATHQA_OPTIONS}
    elif record["answer"] is None:
        record["answer"] = float(gold)
    result = score_completion(completion, record, policy="numeric")
    assert (result.score, result.status.label) == (score, status), result.reason


def test_the_table_unit_examples_hold() -> None:
    section = DOC.read_text(encoding="utf-8").split("## Tables in millions")[1].split("\n## ")[0]
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in section.splitlines()
            if line.startswith("| `")]
    assert len(rows) == 5
    for completion, gold, unit, score, status in rows:
        record: dict[str, object] = {"answer": float(gold)}
        if unit != "(none)":
            record["unit"] = unit.strip("`")
        result = score_completion(completion.strip("`"), record, policy="numeric")
        assert (result.score, result.status.label) == (float(score), status), completion
