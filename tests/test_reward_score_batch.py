"""``progexec.reward.score_batch``: the trainers' batch API gives, per input, the record ``progexec reward`` writes."""

from __future__ import annotations

import gzip
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from progexec.cli import main
from progexec.reward import GoldRecordError, score_batch

GOLD_SET = Path(__file__).parent / "data" / "rewards" / "convfinqa_sonnet.jsonl.gz"
LINES = gzip.decompress(GOLD_SET.read_bytes()).decode("utf-8").splitlines()[:300]


def _cli(tmp_path: Path, text: str, policy: str) -> list[dict[str, Any]]:
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    source.write_text(text, encoding="utf-8")
    assert main(["reward", str(source), "--policy", policy, "--quiet", "--out", str(out)]) == 0
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("policy", ["official", "numeric", "helm"])
def test_lines_records_and_bytes_give_what_progexec_reward_writes(tmp_path: Path, policy: str) -> None:
    written = _cli(tmp_path, "\n".join(LINES) + "\n", policy)
    assert [record["score"] for record in written] == [json.loads(line)["expected"][policy]["score"]
                                                       for line in LINES]
    assert score_batch(LINES, policy) == written
    assert score_batch([json.loads(line) for line in LINES], policy) == written
    assert score_batch([line.encode("utf-8") for line in LINES], policy) == written


def test_chunks_numbered_from_first_line_join_to_the_whole(tmp_path: Path) -> None:
    whole = score_batch(LINES)
    parts = [record for start in range(0, len(LINES), 64)
             for record in score_batch(LINES[start:start + 64], first_line=start + 1)]
    assert parts == whole
    assert pickle.loads(pickle.dumps(score_batch)) is score_batch


def test_nothing_is_dropped_and_each_bad_input_names_its_line(tmp_path: Path) -> None:
    inputs: list[Any] = [LINES[0], "", "{not json", 7, {"id": "x", "completion": 3, "gold": {"answer": "1"}}]
    out = score_batch(inputs)
    assert [record["line"] for record in out] == [1, 2, 3, 4, 5]
    assert [record["status"] for record in out][1:] == ["bad_input"] * 4
    assert out[1]["reason"] == "line 2 is blank: not an input record"
    assert out[2]["reason"].startswith("line 3") and out[3]["reason"].startswith("line 4")
    assert out[4]["reason"] == "line 5: completion must be a string, got int" and out[4]["id"] == "x"
    cli = _cli(tmp_path, LINES[0] + "\n{not json\n", "numeric")
    assert cli[1]["reason"].replace("line 2", "line 3") == out[2]["reason"]  # the reader's own words


def test_an_unknown_policy_is_refused() -> None:
    with pytest.raises(GoldRecordError, match="oficial"):
        score_batch(LINES[:1], "oficial")
