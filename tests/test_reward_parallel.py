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


def test_workers_get_raw_lines_and_the_parent_decodes_only_the_judged_records(
        gold_input: tuple[Path, list[dict[str, object]]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from progexec import jsonrecords
    from progexec.cli import reward_cmd
    from progexec.inputkinds import JUDGED_RECORDS
    from progexec.core.limits import DEFAULT_LIMITS

    path, items = gold_input
    lines = path.read_text(encoding="utf-8").splitlines()
    over = "x" * (DEFAULT_LIMITS.max_line_chars + 1)
    source = tmp_path / "mixed.jsonl"
    source.write_text("\n".join([*lines[:200], "", over, "   ", *lines[200:]]) + "\r\n", encoding="utf-8")
    decoded: list[int] = []
    real = jsonrecords.decode
    monkeypatch.setattr(jsonrecords, "decode", lambda text, number, where: decoded.append(number) or
                        real(text, number, where))
    chunks = list(reward_cmd.read_chunks(str(source), 64))
    assert decoded == list(range(1, JUDGED_RECORDS + 1))  # the judged window only; the rest is the workers' work
    assert all(type(chunk) is tuple for chunk in chunks)
    assert [chunk[0] for chunk in chunks] == list(range(1, len(lines) + 4, 64))
    texts = [text for _, chunk in chunks for text in chunk]
    assert len(texts) == len(lines) + 3 and texts[200:203] == ["", texts[201], "   "]
    assert isinstance(texts[201], jsonrecords.Record) and texts[201].error == \
        f"line 202 is over {DEFAULT_LIMITS.max_line_chars} characters (max_line_chars)"
    assert all(type(text) is str for index, text in enumerate(texts) if index != 201)
    out = tmp_path / "out.jsonl"
    assert main(["reward", str(source), "--quiet", "--out", str(out), "--jobs", "2", "--chunk-size", "64"]) == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(records) == len(items) + 1  # the blank lines are not records; the over-long one is bad_input
    assert records[200]["line"] == 202 and records[200]["status"] == "bad_input"
    assert [record["line"] for record in records[201:]] == list(range(204, len(lines) + 4))
    expected = [item["expected"]["numeric"]["score"] for item in items]  # type: ignore[index]
    assert [record["score"] for record in records[:200] + records[201:]] == expected


def test_a_json_list_reaches_the_workers_as_text_and_scores_as_its_lines(
        gold_input: tuple[Path, list[dict[str, object]]], tmp_path: Path) -> None:
    """The same records as a JSON list, a broken element and a non-object among them: the workers are sent the
    elements' text (a decoded record only where the reader found it unusable), and every run writes the
    expected reward of each good element, in order, with one unreadable record per bad one."""
    from progexec.cli.reward_cmd import read_chunks
    from progexec.jsonrecords import Record
    from progexec.textchunks import TextChunk

    _, items = gold_input
    elements = [json.dumps(item) for item in items[:60]] + ["42", '{"id": "broken", "completion": '] + \
        [json.dumps(item) for item in items[60:]]
    path = tmp_path / "in.json"
    path.write_text("[\n" + ",\n".join(elements) + "\n]\n", encoding="utf-8")
    chunks = list(read_chunks(str(path), 97))
    assert chunks and all(isinstance(chunk, TextChunk) for chunk in chunks)
    sent = [entry for chunk in chunks if isinstance(chunk, TextChunk) for entry in chunk.entries]
    assert all(entry.error is not None for entry in sent if isinstance(entry, Record))
    outputs = {}
    for name, flags in {"serial": [], "jobs2": ["--jobs", "2", "--chunk-size", "97"]}.items():
        out = tmp_path / f"{name}.jsonl"
        assert main(["reward", str(path), "--policy", "numeric", "--quiet", "--out", str(out), *flags]) == 0
        outputs[name] = out.read_bytes()
    assert outputs["jobs2"] == outputs["serial"]
    records = [json.loads(line) for line in outputs["serial"].decode("utf-8").splitlines()]
    assert [record["line"] for record in records] == list(range(1, len(items) + 3))
    assert [(record["status"], record["score"]) for record in records[60:62]] == [("bad_input", 0.0)] * 2
    expected = [item["expected"]["numeric"]["score"] for item in items]  # type: ignore[index]
    assert [record["score"] for record in records[:60] + records[62:]] == expected


def test_a_ray_run_sends_larger_chunks_unless_told() -> None:
    """``--chunk-size`` when given; else 5,000 lines per task on Ray (docs/reward-integrations.md: a Ray task costs
    milliseconds) and 1,000 on local processes or serially."""
    from progexec.cli.reward_cmd import chunk_lines
    from progexec.parallel import ParallelOptions

    assert chunk_lines(ParallelOptions.resolve("ray", 2), None) == 5000
    assert chunk_lines(ParallelOptions.resolve("process", 2), None) == 1000
    assert chunk_lines(ParallelOptions.resolve(None, None), None) == 1000
    assert chunk_lines(ParallelOptions.resolve("ray", 2), 7) == 7
