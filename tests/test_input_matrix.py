"""Every command that reads a file, on the same hostile inputs: the same behaviour everywhere.

Rows: exec, report, score (predictions), reward, mathqa-python, score-python (gold). Columns: the
same records plain, as a JSON list, gzip-compressed, behind a BOM, from ``-``, with blank lines, with
an over-long line, over ``max_input_bytes``, a JSON list element over the line bound, a broken list
element, a broken first line, hostile lines (a 5,000-digit integer, a lone surrogate, an id above
1e308), CSV, and records of another command's kind. The expected behaviour is the one rule of
docs/architecture.md: every record counted, a bad one as one bad_input, blank lines no record, the
whole input refused with exit 2 (naming the file, what it is and what was wanted) when it is not
what the command reads (CSV, records of another command's kind, more than ``max_input_bytes``); ``meta`` in every JSON document each command writes (the checkers too).
"""

from __future__ import annotations

import gzip
import io
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from progexec.cli import main
from progexec.datasets.mathqa.corpus import mathqa_records

LINE_BOUND = 4000
HUGE_TEXT = "x" * (LINE_BOUND + 10)


@dataclass(frozen=True)
class Command:
    """One command, its kind of records, and how to read its counts (records seen, bad ones) back."""

    name: str
    good: list[dict[str, Any]]
    argv: Callable[[str, Path], list[str]]
    counts: Callable[[Path, str], tuple[int, int]]


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _summary(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    assert document["format_version"] == 2 and "limits" in document["meta"]
    return document


def _exec_counts(out: Path, stdout: str) -> tuple[int, int]:
    summary = _summary(out / "summary.json")
    lines = _lines(out / "out.jsonl")
    assert summary["records"] == len(lines)
    return len(lines), sum(line["status"] == "bad_input" for line in lines)


def _report_counts(out: Path, stdout: str) -> tuple[int, int]:
    document = json.loads(stdout)
    assert "meta" in document and document["format_version"] == 2
    assert "meta" in json.loads((out / "report.json").read_text(encoding="utf-8"))
    return document["programs"], document["statuses"].get("bad_input", 0)


def _score_counts(out: Path, stdout: str) -> tuple[int, int]:
    document = json.loads(stdout)
    assert "meta" in document
    return document["coverage"]["n_predictions"], len(document["coverage"]["unreadable"])


def _reward_counts(out: Path, stdout: str) -> tuple[int, int]:
    summary = _summary(out / "summary.json")
    lines = _lines(out / "out.jsonl")
    assert summary["records"] == len(lines)
    return len(lines), sum(line["status"] == "bad_input" for line in lines)


def _mathqa_counts(out: Path, stdout: str) -> tuple[int, int]:
    summary = _summary(out / "summary.json")
    assert len(_lines(out / "out.jsonl")) == summary["kept"]
    return summary["records"], summary["records"] - summary["kept"]  # the good records are all kept


def _score_python_counts(out: Path, stdout: str) -> tuple[int, int]:
    document = json.loads(stdout)
    assert "meta" in document and document["format_version"] == 2
    return len(document["items"]), document["kinds"].get("bad_input", 0)


def _mathqa_good() -> list[dict[str, Any]]:
    records = mathqa_records("test")
    return [dict(records[index]) for index in (0, 1, 2)]  # three problems the release keeps


def _score_python_argv(source: str, out: Path) -> list[str]:
    pred = out / "pred.jsonl"
    pred.write_text("".join(json.dumps({"id": f"p{n}", "code": f"answer = {n}"}) + "\n" for n in range(3)),
                    encoding="utf-8")
    return ["score-python", "--gold", source, "--pred", str(pred), "--json", "--jobs", "1", "--unsafe-no-isolation"]


def _score_argv(source: str, out: Path) -> list[str]:
    gold = out / "gold.json"
    gold.write_text(json.dumps([{"id": f"g{n}", "qa": {"program": f"add({n}, 1)", "exe_ans": n + 1.0}, "table": []}
                                for n in range(3)]), encoding="utf-8")
    return ["score", "--gold", str(gold), "--pred", source, "--json"]


GOLD = {"answer": 0.10826, "program": "divide(3.8, 35.1)"}
COMMANDS = [
    Command("exec", [{"id": f"e{n}", "program": f"add({n}, 1)", "exe_ans": n + 1.0} for n in range(3)],
            lambda source, out: ["exec", source, "--out", str(out / "out.jsonl"), "--quiet",
                                 "--summary", str(out / "summary.json")], _exec_counts),
    Command("report", [{"id": f"r{n}", "program": f"add({n}, 1)"} for n in range(3)],
            lambda source, out: ["report", source, "--out", str(out), "--json"], _report_counts),
    Command("score", [{"id": f"g{n}", "predicted": f"add({n}, 1)"} for n in range(3)], _score_argv, _score_counts),
    Command("reward", [{"id": f"w{n}", "completion": "Answer: 10.83%", "gold": GOLD} for n in range(3)],
            lambda source, out: ["reward", source, "--out", str(out / "out.jsonl"), "--quiet",
                                 "--summary", str(out / "summary.json")], _reward_counts),
    Command("mathqa-python", _mathqa_good(),
            lambda source, out: ["mathqa-python", source, "--out", str(out / "out.jsonl"), "--quiet",
                                 "--summary", str(out / "summary.json")], _mathqa_counts),
    Command("score-python", [{"id": f"p{n}", "answer": n} for n in range(3)], _score_python_argv,
            _score_python_counts),
]
WRONG_KIND = {"exec": "reward", "report": "reward", "score": "mathqa-python", "reward": "exec", "mathqa-python": "exec",
              "score-python": "reward"}


def _jsonl(records: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(record) + "\n" for record in records)


def _big(record: dict[str, Any]) -> dict[str, Any]:
    return dict(record, padding=HUGE_TEXT)


# variant -> (input bytes from the good records, extra arguments, expected: (records, bad) or "refused")
def _variants(command: Command) -> dict[str, tuple[bytes, list[str], tuple[int, int] | str]]:
    good = command.good
    text = _jsonl(good)
    as_list = json.dumps(good, indent=1)
    wrong = next(other for other in COMMANDS if other.name == WRONG_KIND[command.name])
    hostile = ('{"id": ' + "9" * 5000 + "}\n" + json.dumps(dict(good[0]))[:-1] + ', "note": "\\ud800"}\n'
               + json.dumps(dict(good[1]))[:-1] + ', "extra": 1e309}\n')
    return {
        "plain": (text.encode(), [], (3, 0)),
        "list": (as_list.encode(), [], (3, 0)),
        "gzip": (gzip.compress(text.encode()), [], (3, 0)),
        "bom": (b"\xef\xbb\xbf" + text.encode(), [], (3, 0)),
        "blank lines": (("\n" + text.replace("\n", "\n\n  \n")).encode(), [], (3, 0)),
        "over-long line": ((text + json.dumps(_big(good[0])) + "\n").encode(),
                           ["--limit", f"max_line_chars={LINE_BOUND}"], (4, 1)),
        "over max_input_bytes": (text.encode(), ["--limit", "max_input_bytes=64"], "refused"),
        "list element over the line bound": (json.dumps([good[0], _big(good[1]), good[1], good[2]]).encode(),
                                             ["--limit", f"max_line_chars={LINE_BOUND}"], (4, 1)),
        "broken list element": (("[" + ", ".join([json.dumps(good[0]), '{"x":[}', *map(json.dumps, good[1:])])
                                 + "]").encode(), [], (4, 1)),
        "broken first line": (('{"id": "broken", ' + "\n" + text).encode(), [], (4, 1)),
        "hostile lines": ((text + hostile).encode(), [], (6, -1)),
        "csv": (b"id,program,answer\n1,add(1 2),3\n2,add(2 3),5\n", [], "refused"),
        "wrong kind": (_jsonl(wrong.good).encode(), [], "refused"),
    }


CASES = [(command, variant) for command in COMMANDS for variant in _variants(command)]


@pytest.mark.parametrize(("command", "variant"), CASES, ids=[f"{c.name}-{v}" for c, v in CASES])
def test_every_command_reads_hostile_input_the_same_way(command: Command, variant: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    data, extra, expected = _variants(command)[variant]
    source = tmp_path / "input.data"
    source.write_bytes(data)
    code = main(command.argv(str(source), tmp_path) + extra)
    captured = capsys.readouterr()
    if expected == "refused":
        assert code == 2, captured.err
        assert captured.err.count("\n") == 1 and str(tmp_path) in captured.err  # one line naming the file
        if variant == "over max_input_bytes":
            assert "max_input_bytes" in captured.err  # (score names its gold: the first file it reads)
        else:
            assert "input.data: this is " in captured.err and "; expected " in captured.err
        return
    assert code == 0, captured.err
    records, bad = command.counts(tmp_path, captured.out)
    assert isinstance(expected, tuple)
    if expected[1] >= 0:
        assert (records, bad) == expected
    else:  # hostile lines: the 5,000-digit integer and the lone surrogate are bad_input, nothing is lost
        assert records == 6 and 2 <= bad <= 3


@pytest.mark.parametrize("command", COMMANDS, ids=[c.name for c in COMMANDS])
def test_standard_input_reads_like_a_file(command: Command, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    data = gzip.compress(_jsonl(command.good).encode())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(data))))
    assert main(command.argv("-", tmp_path)) == 0
    assert command.counts(tmp_path, capsys.readouterr().out) == (3, 0)


def test_the_checkers_json_carries_meta(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-rounder", "--python", "builtins:round", "--cases", "50", "--json"]) == 0
    rounder = json.loads(capsys.readouterr().out)
    (tmp_path / "wrong_port.py").write_text("def evaluate(program, table, dialect):\n    return (False, None)\n",
                                            encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check-evaluator", "--python", "wrong_port:evaluate", "--suite", "rules", "--cases", "20",
                 "--json"]) == 1
    evaluator = json.loads(capsys.readouterr().out)
    for document in (rounder, evaluator):
        assert document["format_version"] == 2 and "limits" in document["meta"]


def test_meta_is_the_same_wherever_the_output_goes(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text(_jsonl(COMMANDS[0].good), encoding="utf-8")
    documents = []
    for name, jobs in (("one", "1"), ("two", "2")):
        summary = tmp_path / name / "summary.json"
        assert main(["exec", str(source), "--quiet", "--out", str(tmp_path / name / "out.jsonl"),
                     f"--summary={summary}", "--jobs", jobs]) == 0
        documents.append(summary.read_bytes())
    assert documents[0] == documents[1] and b"--out" not in documents[0]


@pytest.mark.parametrize("name", ["report", "mathqa-python"])
def test_two_processes_give_the_serial_output(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    command = next(entry for entry in COMMANDS if entry.name == name)
    source = tmp_path / "in.jsonl"
    source.write_text(_jsonl(command.good * 3), encoding="utf-8")
    outputs = []
    for extra in ([], ["--jobs", "2", "--chunk-size", "2"]):
        out = tmp_path / ("parallel" if extra else "serial")
        out.mkdir()
        assert main(command.argv(str(source), out) + extra) == 0
        written = out / ("report.json" if name == "report" else "out.jsonl")
        outputs.append(written.read_bytes())
    capsys.readouterr()
    assert outputs[0] == outputs[1]


def test_score_items_end_with_a_summary_record_carrying_meta(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    command = next(entry for entry in COMMANDS if entry.name == "score")
    source = tmp_path / "pred.jsonl"
    source.write_text(_jsonl(command.good), encoding="utf-8")
    items = tmp_path / "items.jsonl"
    assert main(command.argv(str(source), tmp_path) + ["--items", str(items)]) == 0
    capsys.readouterr()
    lines = _lines(items)
    assert [line["status"] for line in lines] == ["scored"] * 3 + ["summary"]
    assert lines[-1]["format_version"] == 2 and "limits" in lines[-1]["meta"] and lines[-1]["scored"] == 3
