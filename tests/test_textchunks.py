"""What ``--jobs`` sends its workers: record text, never Items, and from it the very Items the readers give.

The parent cuts each input into chunks of record text (:mod:`progexec.textchunks`); a worker builds the Items.
Every case here is read both ways and must give the same Items, in the same order, with the same errors and
places, including the hostile elements the element-at-a-time reader is built for, placed after the first
records so that the parent cuts the list into runs around them.
"""

from __future__ import annotations

import json
import pickle
import threading
from pathlib import Path

import pytest

from progexec import parallel
from progexec.cli import main
from progexec.core.limits import Limits, using
from progexec.jsoncodec import list_splitter
from progexec.jsonrecords import ElementRun
from progexec.readers import read
from progexec.textchunks import TextChunk, chunk_items, read_chunks

GOOD = [json.dumps({"id": f"q{number}", "program": f"add({number}, 2)", "table": [["a", str(number)]],
                    "exe_ans": number + 2.0}) for number in range(400)]

HOSTILE = {
    "unbalanced": '{"x":[}',
    "cut short": '{"id": "q", "program": "add(1, 2)" ',
    "raw newline in a string": '{"a": "unterminated\n',
    "not a value": "tru",
    "nested past the recursion limit": "[" * 5000 + "]" * 5000,
    "a 5,000-digit integer": '{"id": "big", "n": ' + "9" * 5000 + "}",
    "a 30-digit integer": '{"id": "wide", "program": "add(1, 2)", "n": 123456789012345678901234567890}',
    "an escaped lone surrogate": '{"id": "sur", "program": "add(1, 2)", "note": "\\ud800"}',
    "an escaped emoji": '{"id": "emoji", "program": "add(1, 2)", "note": "\\ud83d\\ude00"}',
    "NaN": '{"id": "nan", "program": "add(1, 2)", "exe_ans": NaN}',
    "1e400": '{"id": "inf", "program": "add(1, 2)", "exe_ans": 1e400}',
    "the next element's head inside a string": '{"id": "s", "program": "add(1, 2)", "note": "}, {\\"id\\": 1"}',
    "nested objects with the same first key": '{"id": "n", "program": "add(1, 2)", "rows": [{"id": 1}, {"id": 2}]}',
    "deep but readable": '{"id": "deep", "program": "add(1, 2)", "x": ' + "[" * 600 + "]" * 600 + "}",
}


def _both_ways(path: Path, size: int, limits: Limits | None = None) -> None:
    with using(limits or Limits()):
        serial = [(item.id, item.program, item.table, item.gold, item.error, item.source) for item in read(path)]
        chunks = list(read_chunks([str(path)], size))
        parallel_items = [(item.id, item.program, item.table, item.gold, item.error, item.source)
                          for chunk in chunks for item in chunk_items(chunk)]
    assert parallel_items == serial


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("layout", [", ", ",\n "])
def test_a_list_with_a_hostile_element_gives_the_readers_items(tmp_path: Path, name: str, layout: str) -> None:
    path = tmp_path / "list.json"
    path.write_text("[" + layout.join(GOOD[:150] + [HOSTILE[name]] + GOOD[150:]) + "]", encoding="utf-8")
    _both_ways(path, 64)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_json_lines_with_a_hostile_line_give_the_readers_items(tmp_path: Path, name: str) -> None:
    path = tmp_path / "lines.jsonl"
    text = "\n".join(GOOD[:150] + ["", HOSTILE[name].replace("\n", " ")] + GOOD[150:]) + "\n"
    path.write_text(text, encoding="utf-8")
    _both_ways(path, 33)


def test_an_element_over_the_line_bound_is_still_one_bad_record(tmp_path: Path) -> None:
    path = tmp_path / "list.json"
    huge = json.dumps({"id": "huge", "program": "add(1, 2)", "table": [["x", "1" * 5000]]})
    path.write_text("[" + ", ".join(GOOD[:200] + [huge] + GOOD[200:]) + "]", encoding="utf-8")
    _both_ways(path, 50, Limits(max_line_chars=2000))


@pytest.mark.skipif(list_splitter() is None, reason="runs need the fast extra (msgspec)")
def test_the_parent_sends_text_and_runs_not_items(tmp_path: Path) -> None:
    path = tmp_path / "list.json"
    path.write_text("[" + ",\n".join(GOOD) + "]", encoding="utf-8")
    chunks = list(read_chunks([str(path)], 100))
    entries = [entry for chunk in chunks if isinstance(chunk, TextChunk) for entry in chunk.entries]
    runs = [entry for entry in entries if isinstance(entry, ElementRun)]
    assert sum(run.count for run in runs) == len(GOOD) - 101  # not the first 100 (judged) nor the last
    assert all(run.count <= 100 for run in runs) and all(len(chunk.entries) for chunk in chunks)
    assert sum(run.count for run in runs) + len(entries) - len(runs) == len(GOOD)
    assert b"progexec.core.item" not in pickle.dumps(chunks)


def test_exec_gives_the_serial_bytes_on_two_processes_with_hostile_elements(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "list.json"
    path.write_text("[" + ", ".join(GOOD[:120] + list(HOSTILE.values()) + GOOD[120:]) + "]", encoding="utf-8")
    outputs = []
    for extra in ([], ["--jobs", "2", "--chunk-size", "37"]):
        out = tmp_path / f"out{len(extra)}.jsonl"
        summary = tmp_path / f"summary{len(extra)}.json"
        code = main(["exec", str(path), "--quiet", "--out", str(out), f"--summary={summary}", *extra])
        outputs.append((out.read_bytes(), summary.read_bytes(), code))
    capsys.readouterr()
    assert outputs[0] == outputs[1] and outputs[0][2] == 1  # 1: the NaN and infinite gold answers do not match
    lines = [json.loads(line) for line in outputs[0][0].splitlines()]
    assert [line["id"] for line in lines if line["status"] == "ok"][:120] == [f"q{number}" for number in range(120)]
    assert len(lines) == len(list(read(path)))  # one line per item read, none dropped or merged


def test_workers_are_forked_only_from_a_process_of_one_thread() -> None:
    if not parallel.fork_is_safe():
        pytest.skip("this process already runs other threads, or this system forks no workers")
    assert parallel._context().get_start_method() == "fork"
    release = threading.Event()
    thread = threading.Thread(target=release.wait)
    thread.start()
    try:
        assert not parallel.fork_is_safe()
        assert parallel._context().get_start_method() != "fork"
    finally:
        release.set()
        thread.join()


def test_a_scoring_worker_not_forked_from_the_run_refuses_positions_it_does_not_have() -> None:
    from progexec.core.errors import OptionError
    from progexec.score.scoring import score_span

    with pytest.raises(OptionError, match="not forked from the run"):
        score_span((0, 3), ("official",), Limits())
