"""``progexec reward``: one output line per input line, in order, bad lines typed, chunking invisible."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from progexec.cli import main
from progexec.reward.batch import OUTPUT_KEYS, score_lines

GOLD = {"answer": 0.10826, "program": "divide(3.8, 35.1)"}
LINES = [
    json.dumps({"id": "ok", "completion": "Answer: 10.83%", "gold": GOLD}),
    "this is not json",
    "",
    json.dumps({"id": 7, "completion": "Program: divide(3.8, 35.1)", "gold": GOLD, "policy": "official"}),
    json.dumps([1, 2]),
    json.dumps({"id": "no-gold", "completion": "Answer: 1"}),
    json.dumps({"id": "bad-completion", "completion": 5, "gold": GOLD}),
    json.dumps({"id": "label", "completion": "Answer: 0.1083", "gold": json.dumps(GOLD)}),
    json.dumps({"id": "bad-policy", "completion": "Answer: 0.1083", "gold": GOLD, "policy": "judge"}),
    json.dumps({"id": "gold-policy", "completion": "Answer: 0.1083", "gold": dict(GOLD, policy="helm")}),
    '{"id": NaN, "completion": "x", "gold": {}}',
]
EXPECTED_STATUS = ["ok", "bad_input", "ok", "bad_input", "bad_input", "bad_input", "ok", "bad_policy",
                   "wrong", "bad_input"]


def _run(tmp_path: Path, lines: list[str], *args: str, raw: bytes = b"") -> list[dict[str, object]]:
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    source.write_bytes(("\n".join(lines) + "\n").encode() + raw)
    assert main(["reward", str(source), "--out", str(out), "--quiet", *args]) == 0
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def test_every_line_in_order_with_its_number(tmp_path: Path) -> None:
    records = _run(tmp_path, LINES)
    assert [record["status"] for record in records] == EXPECTED_STATUS
    assert [record["line"] for record in records] == [1, 2, *range(4, len(LINES) + 1)]  # a blank line is no record
    assert all(tuple(record) == OUTPUT_KEYS for record in records)
    assert records[0]["id"] == "ok" and records[2]["id"] == 7
    assert "line 2" in str(records[1]["reason"])
    assert records[8]["policy"] == "helm"  # the gold's policy when the line names none


def test_the_default_policy_does_not_override_a_line_or_gold_policy(tmp_path: Path) -> None:
    records = _run(tmp_path, LINES, "--policy", "official")
    assert records[0]["policy"] == "official" and records[0]["status"] == "no_program"
    assert records[2]["policy"] == "official" and records[8]["policy"] == "helm"


def test_a_line_that_is_not_utf8_is_bad_input(tmp_path: Path) -> None:
    records = _run(tmp_path, LINES[:1], raw=b"\xff\xfe{}\n")
    assert [record["status"] for record in records] == ["ok", "bad_input"]
    assert "UTF-8" in str(records[1]["reason"])


@pytest.mark.parametrize("size", [1, 2, 3, 5])
def test_chunks_joined_in_order_are_the_serial_output(size: int) -> None:
    serial = score_lines(LINES)
    chunked: list[str] = []
    for start in range(0, len(LINES), size):
        chunked += score_lines(LINES[start:start + size], first_line=start + 1)
    assert chunked == serial


def test_reruns_are_byte_identical(tmp_path: Path) -> None:
    first = _run(tmp_path, LINES)
    assert _run(tmp_path, LINES) == first
    out = tmp_path / "out.jsonl"
    assert out.read_bytes() == ("\n".join(score_lines(LINES)) + "\n").encode()


def test_a_missing_input_is_a_usage_error(tmp_path: Path) -> None:
    assert main(["reward", str(tmp_path / "absent.jsonl"), "--quiet"]) == 2
