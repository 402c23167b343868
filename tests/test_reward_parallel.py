"""``progexec reward --jobs/--engine``: byte-identical output to the serial run, and the gold set's rewards.

The input is the committed ConvFinQA gold set (real Claude Sonnet answers, with the expected reward
under each policy written on each line by hand-checked rules, not by this code).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from progexec.cli import main

GOLD_SET = Path(__file__).parent / "data" / "rewards" / "convfinqa_sonnet.jsonl.gz"


@pytest.fixture(scope="module")
def gold_input(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, object]]]:
    lines = gzip.decompress(GOLD_SET.read_bytes()).decode("utf-8").splitlines()
    path = tmp_path_factory.mktemp("reward") / "in.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, [json.loads(line) for line in lines]


def test_two_processes_write_the_serial_bytes_and_the_expected_rewards(
        gold_input: tuple[Path, list[dict[str, object]]], tmp_path: Path) -> None:
    path, items = gold_input
    outputs = {}
    for name, flags in {"serial": [], "jobs2": ["--jobs", "2", "--chunk-size", "97"],
                        "process1": ["--engine", "process", "--jobs", "1", "--chunk-size", "500"]}.items():
        out = tmp_path / f"{name}.jsonl"
        assert main(["reward", str(path), "--policy", "numeric", "--quiet", "--out", str(out), *flags]) == 0
        outputs[name] = out.read_bytes()
    assert outputs["jobs2"] == outputs["serial"] == outputs["process1"]
    records = [json.loads(line) for line in outputs["serial"].decode("utf-8").splitlines()]
    assert [record["line"] for record in records] == list(range(1, len(items) + 1))
    expected = [item["expected"]["numeric"]["score"] for item in items]  # type: ignore[index]
    assert [record["score"] for record in records] == expected


def test_bad_scale_out_flags_are_usage_errors(gold_input: tuple[Path, list[dict[str, object]]]) -> None:
    path, _ = gold_input
    assert main(["reward", str(path), "--jobs", "0"]) == 2
    assert main(["reward", str(path), "--engine", "process", "--ray-address", "127.0.0.1:1"]) == 2
    assert main(["reward", str(path), "--chunk-size", "0"]) == 2
