"""Readers that lose nothing: a bad list element, a broken first line, a whole document, a gzip bomb.

Each case is a repro of a reading failure: the element or line at fault is one bad record naming its
place, every other record is kept, and work stays bounded.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
from pathlib import Path

import pytest

from progexec.cli import main
from progexec.jsonrecords import ElementScanner, decode_marked, iter_json_list, records_from_text, unreadable_reason
from progexec.core.limits import Limits
from progexec.readers import open_source, read, read_records, source_from_bytes
from progexec.core.errors import InputError
from progexec.reward.batch import score_item

GOOD = [{"id": name, "program": f"add(1, {number})", "exe_ans": 1.0 + number}
        for number, name in enumerate("abcdef", start=1)]


def _list_text(elements: list[str]) -> str:
    return "[" + ", ".join(elements) + "]"


def _ids(path: Path, limits: Limits | None = None) -> list[tuple[str, str | None]]:
    return [(item.id, item.error) for item in read(path, limits)]


@pytest.mark.parametrize("broken", ['{"x":[}', '{"id": "q", "program": "add(1, 2)" ', '{"a": "unterminated\n',
                                    "tru", "}", '{"a": 1}}', "[" * 5000 + "]" * 5000, '{"n": ' + "9" * 5000 + "}"])
def test_a_bad_list_element_is_one_bad_record_and_reading_goes_on(tmp_path: Path, broken: str) -> None:
    elements = [json.dumps(record) for record in GOOD]
    path = tmp_path / "list.json"
    path.write_text(_list_text(elements[:2] + [broken] + elements[2:]), encoding="utf-8")
    items = list(read(path))
    good = [item.id for item in items if item.error is None]
    assert good == [record["id"] for record in GOOD]  # every good element kept, in order
    bad = [item for item in items if item.error is not None]
    assert 1 <= len(bad) <= 2 and all("item" in (item.error or "") for item in bad)


def test_exec_keeps_every_element_after_a_broken_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "list.json"
    elements = [json.dumps(record) for record in GOOD]
    path.write_text(_list_text(elements[:2] + ['{"x":[}'] + elements[2:]), encoding="utf-8")
    assert main(["exec", str(path), "--quiet"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["status"] for line in lines] == ["ok", "ok", "bad_input", "ok", "ok", "ok", "ok"]
    assert [line["value"] for line in lines if line["status"] == "ok"] == [record["exe_ans"] for record in GOOD]


def test_an_element_over_the_line_bound_is_skipped_without_holding_it(tmp_path: Path) -> None:
    huge = json.dumps({"id": "huge", "program": "add(1, 2)", "table": [["x", "1" * 5000]]})
    path = tmp_path / "list.json"
    path.write_text(_list_text([json.dumps(GOOD[0]), huge, json.dumps(GOOD[1])]), encoding="utf-8")
    items = _ids(path, Limits(max_line_chars=1000))
    assert [item for item, error in items if error is None] == ["a", "b"]
    assert [error for _, error in items if error] == ["item 2 is over 1000 characters (max_line_chars)"]


def test_an_over_long_element_spanning_many_chunks_is_skipped(tmp_path: Path) -> None:
    huge = json.dumps({"id": "huge", "program": "add(1, 2)", "note": "x" * 3_000_000})
    path = tmp_path / "list.json"
    path.write_text(_list_text([json.dumps(GOOD[0]), huge, json.dumps(GOOD[1])]), encoding="utf-8")
    items = _ids(path, Limits(max_line_chars=10_000))
    assert [item for item, error in items if error is None] == ["a", "b"]


def test_the_scanner_matches_brackets_tolerantly() -> None:
    text = '{"x":[}, {"id": 2}]'
    assert ElementScanner().feed(text, 0) == text.index(",")
    assert ElementScanner().feed('"a,b", 1', 0) == 5  # a comma inside a string is not a separator
    assert ElementScanner().feed('"ab\n, 1]', 0) == 4  # a raw newline ends a broken string
    assert ElementScanner().feed('{"a": "b\n, 1]', 0) == 12  # ... and the ] with no [ open closes the list
    scanner = ElementScanner()
    assert scanner.feed('{"a": [1, 2', 0) is None and scanner.feed("]}, next", 0) == 2  # fed in pieces


def test_a_json_lines_file_with_a_broken_first_line_is_json_lines(tmp_path: Path) -> None:
    path = tmp_path / "preds.jsonl"
    lines = ['{"id": "a", "predicted": "add(1, 2)"'] + [json.dumps({"id": name, "predicted": "add(1, 2)"})
                                                          for name in "bcd"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    records = list(read_records(path))
    assert [record.where for record in records] == ["line 1", "line 2", "line 3", "line 4"]
    assert records[0].error is not None and [record.value["id"] for record in records[1:]] == ["b", "c", "d"]


def test_a_document_spread_over_lines_is_still_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "conv.json"
    path.write_text(json.dumps({"k1": [{"id": "a", "predicted": "x"}], "k2": [{"id": "b"}]}, indent=2),
                    encoding="utf-8")
    records = list(read_records(path))
    assert len(records) == 1 and records[0].where == "the document" and set(records[0].value) == {"k1", "k2"}


def test_a_whole_document_is_bounded_by_the_line_bound(tmp_path: Path) -> None:
    path = tmp_path / "doc.json"
    path.write_text("{\n" + '"x": "' + "y" * 50_000 + '"\n}\n', encoding="utf-8")
    with pytest.raises(InputError, match="max_line_chars"):
        list(read_records(path, Limits(max_line_chars=10_000)))


def test_a_gzip_bomb_is_refused_by_its_ratio_early(tmp_path: Path) -> None:
    path = tmp_path / "bomb.jsonl.gz"
    path.write_bytes(gzip.compress(b"{\n" + b" " * (40 * 2**20), 9))  # 40 MiB from about 40 KB
    limits = Limits(gzip_ratio_after_bytes=2**20)
    source = open_source(path, limits)
    with pytest.raises(InputError, match="max_gzip_ratio") as refused:
        while source.read(1 << 20):
            pass
    assert "bomb.jsonl.gz" in str(refused.value) and refused.value.bound == "max_gzip_ratio"
    assert main(["exec", str(path), "--limit", "gzip_ratio_after_bytes=1048576"]) == 2


def test_real_gzip_data_passes_the_ratio_bound() -> None:
    from importlib import resources

    data = resources.files("progexec.data").joinpath("finqa.jsonl.gz").read_bytes()
    source = source_from_bytes(data, "finqa.jsonl.gz", Limits(gzip_ratio_after_bytes=0, max_gzip_ratio=10))
    assert sum(len(chunk) for chunk in iter(lambda: source.read(1 << 20), "")) > 2_000_000


def test_other_compressions_are_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "preds.jsonl.bz2"
    path.write_bytes(bz2.compress(b'{"id": "a", "program": "add(1, 2)"}\n'))
    with pytest.raises(InputError, match="bzip2"):
        list(read(path))


def test_records_from_text_follow_the_file_rules() -> None:
    text = '\ufeff{"id": 1}\n\n{"id": ' + "9" * 5000 + '}\n{"id": "\\ud800"}\n{"id": 2}\n'
    records = list(records_from_text(text))
    assert [record.number for record in records] == [1, 3, 4, 5]  # the blank line is no record
    assert [record.error is None for record in records] == [True, False, False, True]


@pytest.mark.parametrize(("value", "reason"), [("1" + "0" * 5000, "5001 digits"), ('"\\ud800"', "Unicode")])
def test_a_body_with_one_unusable_item_keeps_the_others(value: str, reason: str) -> None:
    gold = {"answer": 5}
    body = ('{"items": [{"id": "a", "completion": "Answer: 5", "gold": {"answer": 5}}, '
            f'{{"id": {value}, "completion": "x", "gold": {{"answer": 5}}}}]}}')
    items = decode_marked(body.encode())["items"]
    assert unreadable_reason(items[0]) is None and reason in (unreadable_reason(items[1]) or "")
    assert score_item(items[0], 1)["status"] == "ok"
    assert score_item(items[1], 2)["status"] == "bad_input" and score_item(items[1], 2)["id"] is None
    assert gold == {"answer": 5}


def test_a_body_that_is_not_json_is_an_input_error() -> None:
    with pytest.raises(InputError, match="not JSON"):
        decode_marked(b'{"items": [')


def test_iter_json_list_reads_from_a_pipe_without_a_size() -> None:
    data = _list_text([json.dumps(record) for record in GOOD]).encode()
    source = source_from_bytes(gzip.compress(data), "<pipe>")
    assert [record.value["id"] for record in iter_json_list(source)] == list("abcdef")
    assert io.BytesIO(data).read(1) == b"["


def test_reward_keeps_going_past_a_huge_integer_a_huge_id_and_a_lone_surrogate(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = {"answer": 0.10826}
    good = json.dumps({"id": "ok", "completion": "Answer: 10.83%", "gold": gold})
    lines = [good,
             '{"id": "n", "completion": "x", "gold": {"answer": ' + "9" * 5000 + "}}",
             '{"id": 1e309, "completion": "Answer: 10.83%", "gold": {"answer": 0.10826}}',
             '{"id": 1' + "0" * 400 + ', "completion": "Answer: 10.83%", "gold": {"answer": 0.10826}}',
             '{"id": "s", "completion": "Answer: \\ud800", "gold": {"answer": 0.10826}}',
             good]
    path = tmp_path / "hostile.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["reward", str(path), "--out", str(out), "--quiet"]) == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [record["status"] for record in records] == ["ok", "bad_input", "bad_input", "bad_input", "bad_input", "ok"]
    assert [record["line"] for record in records] == [1, 2, 3, 4, 5, 6]
    assert "id must be" in records[2]["reason"] and "id must be" in records[3]["reason"]


def test_json_lines_of_dataset_items_are_read_as_dataset_items(tmp_path: Path) -> None:
    item = {"id": "f-1", "qa": {"program": "add(1, 2)", "exe_ans": 3.0}, "table": []}
    path = tmp_path / "finqa.jsonl"
    path.write_text(json.dumps(item) + "\n" + json.dumps(dict(item, id="f-2")) + "\n", encoding="utf-8")
    items = list(read(path))
    assert [(entry.id, entry.program, entry.gold, entry.error) for entry in items] == [
        ("f-1", "add(1, 2)", 3.0, None), ("f-2", "add(1, 2)", 3.0, None)]


def test_a_first_line_longer_than_the_look_ahead_is_json_lines(tmp_path: Path) -> None:
    long = json.dumps({"id": "a", "predicted": "add(1, 2)", "note": "x" * 100_000})
    path = tmp_path / "preds.jsonl"
    path.write_text(long + "\n" + json.dumps({"id": "b", "predicted": "add(1, 2)"}) + "\n", encoding="utf-8")
    assert [record.value["id"] for record in read_records(path)] == ["a", "b"]


# ---------------------------------------------------------------- a stray quote in one element

def _stray(name: str, number: int) -> str:
    """The element of the attack: a program string closed early, so a quote is left over."""
    return '{"id":"%s","program":"add(1, %d), "x":1}' % (name, number)


def _mixed(layout: str, broken: set[int]) -> str:
    """Eight elements, those in ``broken`` with a stray quote; one per line or all on one line."""
    names = "abcdefgh"
    elements = [_stray(name, number) if number in broken else json.dumps({"id": name, "program": f"add(1, {number})"})
                for number, name in enumerate(names, start=1)]
    return "[\n" + ",\n".join(elements) + "\n]\n" if layout == "lines" else "[" + ", ".join(elements) + "]"


@pytest.mark.parametrize("layout", ["lines", "one line"])
@pytest.mark.parametrize("broken", [{2}, {1}, {8}, {2, 3}, {2, 5, 7}, {1, 8}, {6, 7, 8}, {1, 2, 3, 4, 5, 6, 7}])
def test_a_stray_quote_never_absorbs_the_next_element(layout: str, broken: set[int]) -> None:
    records = list(records_from_text(_mixed(layout, broken)))
    assert [record.number for record in records] == list(range(1, 9))  # one record per element, none merged
    assert {record.number for record in records if record.error} == broken
    assert [record.value["id"] for record in records if record.error is None] == \
        [name for number, name in enumerate("abcdefgh", start=1) if number not in broken]


def test_a_one_line_list_says_how_many_elements_it_could_not_read() -> None:
    text = "[" + ", ".join([json.dumps({"id": "a", "program": "add(1, 1)"})] + [_stray(n, 2) for n in "bcd"]) + "]"
    errors = [record.error or "" for record in records_from_text(text)][1:]
    assert len(errors) == 3 and all("items 2-4 (3 elements" in error for error in errors)


@pytest.mark.parametrize("layout", ["lines", "one line"])
def test_exec_names_each_element_with_a_stray_quote_and_keeps_the_rest(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], layout: str) -> None:
    path = tmp_path / "list.json"
    path.write_text(_mixed(layout, {2, 3, 8}), encoding="utf-8")
    assert main(["exec", str(path), "--quiet"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["status"] for line in lines] == ["ok", "bad_input", "bad_input", "ok", "ok", "ok", "ok", "bad_input"]
    assert [line["value"] for line in lines if line["status"] == "ok"] == [2.0, 5.0, 6.0, 7.0, 8.0]  # add(1, n)


@pytest.mark.parametrize("layout", ["lines", "one line"])
def test_stray_quotes_across_chunk_boundaries_lose_nothing(tmp_path: Path, layout: str) -> None:
    """A list of 3 MB (past the reader's 1 MiB chunks) with every seventh element broken, and a run of
    four broken ones: each element is one record in order, the broken ones exactly the bad_input ones."""
    count = 30_000
    broken = {number for number in range(1, count + 1) if number % 7 == 0} | {100, 101, 102, 103}
    elements = [_stray(f"n{number}", number) if number in broken else
                json.dumps({"id": f"n{number}", "program": f"add(1, {number})", "note": "x" * 60})
                for number in range(1, count + 1)]
    path = tmp_path / "big.json"
    path.write_text("[\n" + ",\n".join(elements) + "\n]\n" if layout == "lines" else "[" + ", ".join(elements) + "]",
                    encoding="utf-8")
    items = list(read(path))
    assert len(items) == count
    assert {index for index, item in enumerate(items, start=1) if item.error is not None} == broken
    assert [item.id for item in items if item.error is None] == \
        [f"n{number}" for number in range(1, count + 1) if number not in broken]


@pytest.mark.parametrize("broken", ['{"x":[}', '{"id": "q", "rows": [{"a": 1}, {"b": 2}], "program": "add(1, 2)" '])
def test_runs_of_broken_elements_are_one_record_each(broken: str) -> None:
    """Unbalanced brackets (a [ never closed) and a record never closed holding a list of objects: each
    broken element is one record, the objects inside it are never read as elements."""
    elements = [json.dumps(GOOD[0])] + [broken] * 5 + [json.dumps(GOOD[1])] + [broken] * 3
    records = list(records_from_text("[" + ", ".join(elements) + "]"))
    assert [record.number for record in records] == list(range(1, 11))
    assert [record.value["id"] for record in records if record.error is None] == ["a", "b"]
