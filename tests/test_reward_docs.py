"""The numeric rule's examples in docs/reward.md hold: each table row is scored as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from progexec.reward import score_completion

DOC = Path(__file__).resolve().parent.parent / "docs" / "reward.md"


def _examples() -> list[tuple[str, str, float, str]]:
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- numeric-examples -->")[1].split("<!-- /numeric-examples -->")[0]
    rows = []
    for line in block.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("`"):
            continue
        completion = cells[0].strip("`").replace(" ... ", "\n")
        rows.append((completion, cells[1], float(cells[2]), cells[3]))
    return rows


EXAMPLES = _examples()


def test_the_examples_are_found() -> None:
    assert len(EXAMPLES) >= 20


@pytest.mark.parametrize(("completion", "gold", "score", "status"), EXAMPLES)
def test_numeric_example(completion: str, gold: str, score: float, status: str) -> None:
    answer: float | str = gold if re.fullmatch(r"yes|no", gold) else float(gold)
    result = score_completion(completion, {"answer": answer}, policy="numeric")
    assert (result.score, result.status.label) == (score, status), result.reason
