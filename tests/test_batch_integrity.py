"""Batch integrity (issue 7): `progexec exec` and `progexec report` never drop an item, never show a
traceback for bad input, keep their documented exit codes, and give every item a typed status.

The hostile input is generated here (seeded, so reproducible): random text, JSON that is not an
object, token soup, hostile tables, huge exponents, long programs, deep nesting, bytes that are not
UTF-8. CI runs a few thousand lines; set PROGEXEC_HOSTILE_LINES=50000 to run the big file by hand.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HOSTILE_LINES = int(os.environ.get("PROGEXEC_HOSTILE_LINES", "2000"))
SEED = 20261130
OPS = ["add", "subtract", "multiply", "divide", "exp", "greater", "table_max", "table_min", "table_sum",
       "table_average", "foo", "Add", ""]
ATOMS = ["1", "2.5", "-3", "0", "1e308", "1e-320", "nan", "inf", "5%", "1,000", "const_100", "const_m1", "const_x",
         "#0", "#1", "#7", "#-1", "abc", "1.2.3", "%", "revenue", "net income", "none", "\u22125", "\u0661",
         "( 5 )", "1e999999", "100000000", "1e9", "", " "]
CELLS = ["1", "$ 1,200", "5%", "-", "n/a", "( 5 )", "", "1e308", "nan", "\u22125", "12 ( 3 )", "7" * 401]


def _soup_text(rng: random.Random) -> str:
    pieces = [rng.choice(OPS + ATOMS + ["(", ")", ",", ", ", "), ", " "]) for _ in range(rng.randint(0, 25))]
    return "".join(pieces)


def _program_text(rng: random.Random, steps: int) -> str:
    out = []
    for index in range(steps):
        op = rng.choice(OPS[:10])
        if op.startswith("table_"):
            out.append(f"{op}({rng.choice(['revenue', 'cost', '#0', 'missing'])}, none)")
        else:
            a = rng.choice(ATOMS[:20]) if index == 0 or rng.random() < 0.5 else f"#{rng.randrange(index)}"
            b = rng.choice(ATOMS[:20])
            out.append(f"{op}({a}, {b})")
    return ", ".join(out)


def _table(rng: random.Random) -> Any:
    kind = rng.randrange(10)
    if kind == 0:
        return rng.choice(["nope", 5, {"revenue": ["1"]}, [1, 2], [["revenue", 5]], [[None, "1"]], [["a"], "row"]])
    rows: list[list[str]] = []
    for _ in range(rng.randint(0, 5)):
        if rng.random() < 0.1:
            rows.append([])
        else:
            rows.append([rng.choice(["revenue", "cost", "total", "revenue"]),
                         *(rng.choice(CELLS) for _ in range(rng.randint(0, 4)))])
    return rows


def hostile_lines(count: int, seed: int = SEED) -> list[bytes]:
    """``count`` hostile JSON Lines (as bytes: some are not UTF-8). Items with an id use ``h<N>``."""
    rng = random.Random(seed)
    lines: list[bytes] = []
    for number in range(count):
        kind = number % 20
        record: Any
        if kind == 0:
            lines.append("".join(chr(rng.randint(32, 0x2FFF)) for _ in range(rng.randint(1, 40)))
                         .replace("\u2028", " ").replace("\u2029", " ").replace("\x85", " ").encode("utf-8", "replace"))
            continue
        if kind == 1:
            lines.append(json.dumps(rng.choice([5, "text", None, [1, 2], True, 1.5])).encode())
            continue
        if kind == 2:
            lines.append(b'{"id": "h%d", "program": "add(1, \xff\xfe)"}' % number if rng.random() < 0.5
                         else b"\xff\xfe garbage")
            continue
        if kind == 3:
            lines.append(b"[" * rng.choice([10, 100_000]))
            continue
        if kind == 4:
            lines.append(b'{"id": "\\ud800", "program": "add(1, 2)"}' if rng.random() < 0.5
                         else b'{"id": "h%d", "program": "add(1, \\udc80)"}' % number)
            continue
        record = {"id": f"h{number}"} if rng.random() < 0.8 else {}
        if kind == 5:
            record["program"] = rng.choice([None, 5, {"op": "add"}, ["add(", 1, 2, ")", "EOF"], [], True])
        elif kind == 6:
            tokens = [rng.choice([f"{op}(" for op in OPS] + ATOMS + [")", "EOF", "(", "|"]) for _ in range(rng.randint(0, 13))]
            record["program"] = tokens + (["EOF"] if rng.random() < 0.7 else [])
        elif kind == 7:
            record["program"] = f"exp({rng.choice(['3', '10', '1.0000001', '-8', '0', '2'])}, " \
                                f"{rng.choice(['100000000', '1e9', '1e15', '-1', '0.5', '1e-9', '400'])})"
        elif kind == 8:
            steps = rng.choice([30, 30, 30, 30, 2000, 10_001])
            if steps == 10_001:
                record["program"] = ["add(", "1", "1", ")"] * steps + ["EOF"]
            else:
                record["program"] = "add(1.0001, 1.0001), " + ", ".join(
                    f"multiply(#{i}, 1.0001)" for i in range(steps))
        elif kind == 9:
            record["program"] = "add(" + rng.choice(["1", "a ( ", "1,", "("]) * rng.choice([401, 30_000, 60_000]) + ", 1)"
        elif kind == 10:
            record["table"] = _table(rng)
            record["program"] = _program_text(rng, rng.randint(1, 4))
        elif kind == 11:
            record["program"] = _program_text(rng, rng.randint(1, 6))
            record["exe_ans"] = rng.choice([3.0, "yes", None, {"x": 1}, [1]])
        elif kind == 12:
            record["id"] = rng.choice([{"x": 1}, [1], None, 7, 1.5, True, ""])
            record["program"] = "add(1, 2)"
        elif kind == 13:
            record["program"] = "add(1, 2)"
            record["dialect"] = rng.choice(["convfinqa", "klingon", 5, None, ["finqa"]])
        else:
            record["program"] = _soup_text(rng)
            if rng.random() < 0.3:
                record["table"] = _table(rng)
        lines.append(json.dumps(record, ensure_ascii=rng.random() < 0.5).encode("utf-8"))
    return lines


def expected_ids(lines: list[bytes]) -> list[str]:
    """The id each line must get: its own when it is a JSON object with a usable one, else ``line-N``."""
    ids = []
    for number, line in enumerate(lines, start=1):
        try:
            record = json.loads(line.decode("utf-8"))
            json.dumps(record, ensure_ascii=False).encode("utf-8")
        except (UnicodeError, ValueError, RecursionError):
            ids.append(f"line-{number}")
            continue
        raw = record.get("id") if isinstance(record, dict) else None
        ids.append(str(raw) if raw is not None and not isinstance(raw, (dict, list)) else f"line-{number}")
    return ids


def _progexec(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "progexec", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=1200)


@pytest.fixture(scope="module")
def hostile_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[bytes]]:
    lines = hostile_lines(HOSTILE_LINES)
    path = tmp_path_factory.mktemp("hostile") / "hostile.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path, lines


def _no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout, result.stderr[-2000:]


def test_exec_keeps_every_item_with_a_typed_status(hostile_file: tuple[Path, list[bytes]], tmp_path: Path) -> None:
    path, lines = hostile_file
    out = tmp_path / "out.jsonl"
    result = _progexec("exec", str(path), "--out", str(out))
    _no_traceback(result)
    assert result.returncode in (0, 1), result.stderr[-2000:]
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(records) == len(lines)
    assert [record["id"] for record in records] == expected_ids(lines)
    for record in records:
        assert 1400 <= record["code"] <= 1419
        assert (record["code"] == 1400) == (record["status"] == "ok")
        if record["code"] != 1400:
            assert record["value"] is None and record["message"]
    statuses = {record["status"] for record in records}
    assert {"bad_input", "syntax_error", "limit_exceeded", "ok", "overflow"} <= statuses


def test_report_keeps_every_item(hostile_file: tuple[Path, list[bytes]], tmp_path: Path) -> None:
    path, lines = hostile_file
    result = _progexec("report", str(path), "--out", str(tmp_path / "report"), "--json")
    _no_traceback(result)
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads((tmp_path / "report" / "report.json").read_text(encoding="utf-8"))
    summary = json.loads(result.stdout)
    assert summary["programs"] == report["summary"]["programs"] == len(lines)
    assert sum(report["summary"]["statuses"].values()) == len(lines)
    refused = report["refused"]  # every refused item is listed, in input order, with its status and message
    assert len(refused) == len(lines) - report["summary"]["statuses"].get("ok", 0)
    expected = iter(expected_ids(lines))
    assert all(entry["id"] in expected for entry in refused)  # a subsequence: order kept, nothing invented
    assert all(1401 <= entry["code"] <= 1419 and entry["message"] for entry in refused)


def test_time_limit_gives_limit_exceeded_and_drops_nothing(tmp_path: Path) -> None:
    lines = hostile_lines(60, seed=7)
    path = tmp_path / "small.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    out = tmp_path / "out.jsonl"
    result = _progexec("exec", str(path), "--out", str(out), "--limit", "item_time_limit=0.000001")
    _no_traceback(result)
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [record["id"] for record in records] == expected_ids(lines)
    assert any(record["status"] == "limit_exceeded" and "time limit" in record["message"] for record in records)
    report = _progexec("report", str(path), "--out", str(tmp_path / "r"), "--json", "--limit", "item_time_limit=1e-6")
    _no_traceback(report)
    assert json.loads(report.stdout)["programs"] == len(lines)


def test_step_limit_is_configurable(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps({"id": "a", "program": ", ".join(["add(1, 1)"] * 5)}) + "\n", encoding="utf-8")
    result = _progexec("exec", str(path), "--limit", "max_steps=3", "--quiet")
    assert json.loads(result.stdout)["status"] == "limit_exceeded"
    assert json.loads(_progexec("exec", str(path), "--quiet").stdout)["status"] == "ok"


@pytest.mark.parametrize("args", [
    ["exec", "/nonexistent/file.jsonl"],
    ["exec", "--limit", "no_such_limit=1"],
    ["exec", "--limit", "max_steps=-1"],
    ["exec", "--limit", "max_steps"],
    ["report", "/nonexistent/file.jsonl", "--out", "/tmp/progexec-never-written"],
    ["exec", "--no-such-option"],
])
def test_usage_errors_exit_2_with_one_line(args: list[str]) -> None:
    result = _progexec(*args)
    _no_traceback(result)
    assert result.returncode == 2
    assert result.stderr.strip()


def test_whole_file_that_is_not_a_program_file_is_a_usage_error(tmp_path: Path) -> None:
    for content in (b"[1, 2]", b"5", b"[" * 100_000, b'"text"'):
        path = tmp_path / "doc.json"
        path.write_bytes(content)
        result = _progexec("exec", str(path))
        _no_traceback(result)
        assert result.returncode == 2, content[:20]


def test_internal_error_is_one_line_with_a_debug_hint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from progexec import runner
    from progexec.cli import main

    def broken(item: Any, *rest: Any) -> Any:
        raise ValueError("simulated bug")

    monkeypatch.setattr(runner, "execute_unbounded", broken)
    monkeypatch.setattr(runner, "fast_outcome", lambda *args, **kwargs: None)  # the general path, not the fast one
    path = tmp_path / "p.jsonl"
    path.write_text('{"id": "a", "program": "add(1, 2)"}\n', encoding="utf-8")
    assert main(["exec", str(path), "--out", str(tmp_path / "o.jsonl")]) == 3
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and "--debug" in error[0] and "Traceback" not in error[0]
    with pytest.raises(ValueError):
        main(["--debug", "exec", str(path), "--out", str(tmp_path / "o.jsonl")])


def test_score_survives_hostile_predictions(tmp_path: Path) -> None:
    lines = [json.dumps({"id": "ETR/2016/page_23.pdf-2", "predicted": t}) for t in
             (["add(", "1", "2", ")", "EOF"], "exp(3, 100000000)", ["table_sum(", "#0", "none", ")", "EOF"], 5,
              ["add(", 5], "a ( " * 5000)]
    lines += ["not json", "5", '{"predicted": "add(1, 2)"}', json.dumps({"id": {"x": 1}, "predicted": "add(1, 2)"})]
    path = tmp_path / "pred.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = _progexec("score", "--gold", "finqa:test", "--pred", str(path), "--json")
    _no_traceback(result)
    assert result.returncode in (0, 1), result.stderr
    summary = json.loads(result.stdout)
    coverage = summary["coverage"]
    assert coverage["n_predictions"] == len(lines)  # every line is a record: scored, unknown or unreadable
    assert summary["n"] >= 4 and len(coverage["unreadable"]) >= 4


@pytest.mark.parametrize("line", ["[" * 100_000, '{"id": "\\ud800", "predicted": "add(1, 2)"}'],
                         ids=["deep-nesting", "lone-surrogate"])
def test_score_keeps_deeply_nested_and_non_unicode_lines(tmp_path: Path, line: str) -> None:
    path = tmp_path / "pred.jsonl"
    path.write_text('{"id": "ETR/2016/page_23.pdf-2", "predicted": "add(1, 2)"}\n' + line + "\n", encoding="utf-8")
    result = _progexec("score", "--gold", "finqa:test", "--pred", str(path), "--json")
    _no_traceback(result)
    assert result.returncode in (0, 1), result.stderr
    assert json.loads(result.stdout)["coverage"]["n_predictions"] == 2  # the bad line is kept, as unreadable


def test_run_with_time_limit_stops_work_and_restores_the_clock() -> None:
    import signal

    from progexec.core.limits import ItemTimeLimitExceeded, get_limit, parse_assignment, run_with_time_limit, set_limit

    def endless() -> None:
        while True:
            pass

    def own_handler(signum: int, frame: Any) -> None:
        raise AssertionError("the caller's handler must not fire")

    previous = signal.signal(signal.SIGALRM, own_handler)
    try:
        assert run_with_time_limit(lambda: 42, 5.0) == 42
        with pytest.raises(ItemTimeLimitExceeded):
            run_with_time_limit(endless, 0.05)
        assert signal.getsignal(signal.SIGALRM) is own_handler
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        assert run_with_time_limit(lambda: "no clock", 0) == "no clock"
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert parse_assignment("interval-precisions=128,256") == ("interval_precisions", (128, 256))
    old = set_limit("max_steps", 7)
    try:
        assert get_limit("max_steps") == 7
    finally:
        set_limit("max_steps", old)
