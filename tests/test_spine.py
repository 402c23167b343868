"""The item spine (issue 12): one reader registry, one runner, limits as a value, the public API.

Each test names the behaviour of the issue it pins; expected values come from the datasets' gold
answers, the official semantics (SPEC) or the official scripts' documented behaviour.
"""

from __future__ import annotations

import gzip
import json
import math
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from progexec.datasets import get_dataset
import progexec
from progexec import readers
from progexec.corpus import finqa_records
from progexec.core.item import Item
from progexec.core.limits import LIMIT_DOCS, ItemTimeLimitExceeded, Limits, check_deadline, run_with_time_limit, using
from progexec.runner import execute

PREDICTIONS = Path(__file__).parent / "data" / "predictions"


def _progexec(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "progexec", *args], input=stdin, capture_output=True, timeout=600)


def _finqa_file(tmp_path: Path, records: list[dict[str, Any]], bom: bool = False) -> Path:
    data = [{"id": r["id"], "table": r["table"], "qa": {"program": r["program"], "exe_ans": r["exe_ans"]}}
            for r in records]
    path = tmp_path / "test.json"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + json.dumps(data, indent=2).encode("utf-8"))
    return path


def _test_split() -> list[dict[str, Any]]:
    return [record for record in finqa_records() if record["split"] == "test"]


def test_public_api_is_curated() -> None:
    for name in ("run", "read", "score", "report", "ProgexecError", "__version__", "execute", "Limits"):
        assert name in progexec.__all__ and hasattr(progexec, name)
    result = _progexec("--version")
    assert result.returncode == 0 and result.stdout.decode().strip() == f"progexec {progexec.__version__}"
    from progexec.core.errors import OfficialAbort, OptionError, ProgramSyntaxError, SetupError

    for error in (progexec.InputError, OptionError, SetupError, OfficialAbort, ProgramSyntaxError):
        assert issubclass(error, progexec.ProgexecError)


def test_run_answers_the_seed_chain_with_the_official_verdict() -> None:
    # SPEC worked example: (34.8 - 1.2) / 34.8 * 100 rounded to 5 places
    execution = progexec.run("subtract(34.8, 1.2), divide(#0, 34.8), multiply(#1, const_100)")
    assert execution.official.valid and execution.official.value == 96.55172


def test_gold_file_path_is_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """load_gold re-read the whole gold file once per gold item (quadratic)."""
    from progexec.score import load_gold

    path = _finqa_file(tmp_path, _test_split()[:50])
    opened: list[str] = []
    real = readers.open_source
    monkeypatch.setattr(readers, "open_source", lambda source, limits=None: opened.append(str(source)) or
                        real(source, limits))
    gold = load_gold(str(path))
    assert len(gold) == 50 and opened == [str(path)]


def test_score_with_a_gold_file_equals_the_embedded_split(tmp_path: Path) -> None:
    path = _finqa_file(tmp_path, _test_split())
    pred = PREDICTIONS / "finqa_example_predictions.json.gz"
    by_file = progexec.score(path, pred)
    by_name = progexec.score("finqa:test", pred)
    for report in (by_file, by_name):  # the official evaluate.py figures for this prediction set
        assert report.scorers["official"].execution_accuracy == 0.7
        assert report.scorers["official"].program_accuracy == 0.6876190476190476


def test_a_slow_sympy_import_never_turns_equal_programs_into_gold_errors() -> None:
    """On a loaded machine the per-item clock fired inside the lazy ``import sympy``: sympy stayed
    half-loaded and every later pair that needed it was a gold error (30/30 idle, 0/30 loaded). Here the
    import is made to take longer than the item clock itself; no pair may become a gold error, and every
    equal pair is counted equal unless the run reports that the clock stopped it (on a loaded machine one
    ``simplify`` can outlive a 1 s clock: the run must say so, never count it silently)."""
    code = ("import importlib.abc, sys, time\n"
            "class Slow(importlib.abc.MetaPathFinder):\n"
            "    def find_spec(self, name, path, target=None):\n"
            "        if name == 'sympy':\n"
            "            time.sleep(1.5)\n"
            "        return None\n"
            "sys.meta_path.insert(0, Slow())\n"
            "from progexec.limits import Limits, using\n"
            "from progexec.grammar.tokens import official_tokenize as tok\n"
            "from progexec.score import GoldItem, Prediction, score_predictions\n"
            "gold = [GoldItem(f'g{n}', tuple(tok(f'add({n}, 2), multiply(#0, 3)')), None, float((n + 2) * 3))"
            " for n in range(30)]\n"
            "preds = [Prediction(f'g{n}', tuple(tok(f'multiply({n}, 3), multiply(2, 3), add(#0, #1)')), position=n)"
            " for n in range(30)]\n"
            "with using(Limits(item_time_limit=1.0)):\n"
            "    report = score_predictions(gold, preds)\n"
            "print(report.scorers['official'].program_correct, len(report.gold_error_ids),"
            " len(report.stopped_by_clock_ids))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    equal, gold_errors, stopped = (int(word) for word in result.stdout.split())
    assert gold_errors == 0 and equal + stopped == 30


def test_nan_and_infinite_gold_are_an_item_status(tmp_path: Path) -> None:
    path = tmp_path / "nan.jsonl"
    path.write_text('{"id": "a", "program": "add(1, 2)", "exe_ans": NaN}\n'
                    '{"id": "b", "program": "add(1, 2)", "exe_ans": Infinity}\n'
                    '{"id": "c", "program": "add(1, 2)", "exe_ans": 3.0}\n', encoding="utf-8")
    result = _progexec("exec", str(path))
    assert result.returncode == 1, result.stderr
    lines = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert [line["id"] for line in lines] == ["a", "b", "c"]
    assert [line["match"] for line in lines] == [False, False, True]
    assert lines[0]["reason"] == lines[1]["reason"] == "gold_not_finite"


def test_stdin_and_dash(tmp_path: Path) -> None:
    path = _finqa_file(tmp_path, _test_split()[:20])
    for args in (["exec", "-"], ["exec", "/dev/stdin"]):
        result = _progexec(*args, stdin=path.read_bytes())
        assert result.returncode == 0, result.stderr
        assert len(result.stdout.splitlines()) == 20
    gz = gzip.compress(path.read_bytes())
    result = _progexec("exec", "-", stdin=gz)
    assert result.returncode == 0 and len(result.stdout.splitlines()) == 20


def test_exec_and_report_agree_on_the_gold_match(tmp_path: Path) -> None:
    """subtract(5829,5735): the official tokenizer splits on ", " only, so the official evaluator calls it
    invalid; with gold 94 it is a mismatch in exec and in the report alike."""
    path = tmp_path / "one.jsonl"
    path.write_text('{"id": "x", "program": "subtract(5829,5735)", "exe_ans": 94}\n', encoding="utf-8")
    exec_line = json.loads(_progexec("exec", str(path)).stdout)
    assert exec_line["match"] is False and exec_line["reason"] == "official_invalid"
    report = progexec.report(progexec.read(path))
    assert report.gold_summary() == {"with_gold": 1, "matching": 0, "mismatching": 1}
    assert report.finding_counts()["gold_mismatch"] == 1


def test_table_program_without_table_counts_the_same_in_both_gold_figures() -> None:
    record = next(r for r in finqa_records() if r["program"].startswith("table_"))
    items = [Item(record["id"], record["program"], None, record["exe_ans"], True, dialect=get_dataset("finqa"))]
    report = progexec.report(items)
    assert report.gold_summary()["mismatching"] == report.finding_counts()["gold_mismatch"] == 1


def test_program_length_bound_reaches_the_mathqa_parser() -> None:
    with using(Limits(max_program_chars=10)):
        execution = progexec.run("add(n0,n1)|multiply(#0,n2)|", dialect="mathqa", problem="1 2 3")
    assert execution.status is progexec.Status.LIMIT_EXCEEDED or "max_program_chars" in execution.outcome.message
    assert progexec.run("add(n0,n1)|multiply(#0,n2)|", dialect="mathqa", problem="1 2 3").outcome.value == 9.0


def test_interval_precision_bound_is_read_from_the_limits() -> None:
    from progexec.grammar.parse import parse_program
    from progexec.oracle.reference import exact_answer

    program = parse_program("exp(2, 0.5)")  # irrational: decided by intervals
    with using(Limits(interval_precisions=(64,))):
        assert exact_answer(program).precision_bits == 64
    assert exact_answer(program).precision_bits == 128


def test_every_bound_is_registered_and_settable_on_every_command() -> None:
    for name in ("max_expanded_nodes", "max_factorial_arg", "max_sandbox_code_chars", "interval_precisions",
                 "max_symbolic_nodes", "max_input_bytes"):
        assert name in LIMIT_DOCS
    for command in ("run", "exec", "report", "score"):
        help_text = _progexec(command, "--help").stdout.decode()
        assert "--limit" in help_text and "exit codes" in help_text


def test_score_refuses_inputs_that_would_score_zero(tmp_path: Path) -> None:
    gold = _finqa_file(tmp_path, _test_split()[:30])
    csv = tmp_path / "pred.csv"
    csv.write_text("id,predicted\nETR/2016/page_23.pdf-2,add(1 2)\n", encoding="utf-8")
    empty = tmp_path / "empty.json"
    empty.write_text("[]", encoding="utf-8")
    dev_pred = PREDICTIONS / "humblef00ls-finqanet-bert-base_dev_predictions.json.gz"
    cases = [(["--gold", str(gold), "--pred", str(csv)], "this is CSV text"),
             (["--gold", str(gold), "--pred", str(empty)], "no predictions"),
             (["--gold", "finqa:test", "--pred", str(dev_pred)], "finqa:dev"),
             (["--gold", str(PREDICTIONS / "finqa_example_predictions.json.gz"), "--pred", str(gold)], "swapped")]
    for args, message in cases:
        result = _progexec("score", *args)
        assert result.returncode == 2, (args, result.stdout[-300:])
        assert message in result.stderr.decode(), result.stderr


def test_broken_pipe_keeps_the_exit_code(tmp_path: Path) -> None:
    path = tmp_path / "many.jsonl"
    path.write_text("".join(f'{{"id": "{n}", "program": "add({n}, 1)", "exe_ans": 0}}\n' for n in range(20000)),
                    encoding="utf-8")
    process = subprocess.Popen([sys.executable, "-m", "progexec", "exec", str(path)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    assert process.stdout is not None
    process.stdout.readline()
    process.stdout.close()  # the reader goes away, as `| head -1` does
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 1, stderr  # every gold is 0: a mismatch, whoever reads the output
    assert b"Traceback" not in stderr


def test_table_sum_adds_left_to_right() -> None:
    """The official loop's ``sum(row)`` on the Pythons that made exe_ans adds one cell at a time:
    1e16 + 1 rounds back to 1e16, so the row 1e16, 1, -1e16 sums to 0 (a compensated sum gives 1)."""
    table = [["row", "1e16", "1", "-1e16"]]
    execution = progexec.run("table_sum(row, none)", table)
    assert execution.outcome.value == 0.0 and execution.official.value == 0.0
    assert progexec.run("table_average(row, none)", table).official.value == 0.0


def test_readers_keep_every_item_of_hostile_input(tmp_path: Path) -> None:
    path = tmp_path / "hostile.jsonl"
    path.write_text("\n".join([
        '{"id": "a", "program": "add(1, 2)"}',
        '{"id": "big", "program": "add(1, 2)", "exe_ans": ' + "9" * 5000 + "}",
        "[" * 100_000,
        '{"id": "b", "program": "add(1, 2)"}',
    ]) + "\n", encoding="utf-8")
    items = list(progexec.read(path))
    assert [item.id for item in items] == ["a", "line-2", "line-3", "b"]
    assert items[1].error and "line 2" in items[1].error and items[2].error and "line 3" in items[2].error
    deep_first = tmp_path / "deep.jsonl"
    deep_first.write_text("[" * 100_000 + '\n{"id": "b", "program": "add(1, 2)"}\n', encoding="utf-8")
    assert [item.id for item in progexec.read(deep_first)] == ["line-1", "b"]


def test_bom_finqa_file_keeps_its_ids(tmp_path: Path) -> None:
    records = _test_split()[:5]
    items = list(progexec.read(_finqa_file(tmp_path, records, bom=True)))
    assert [item.id for item in items] == [record["id"] for record in records]
    assert all(execute(item).match for item in items)


def test_finqa_list_with_a_deeply_nested_element_keeps_the_rest(tmp_path: Path) -> None:
    good = json.dumps({"id": "g", "table": [], "qa": {"program": "add(1, 2)", "exe_ans": 3.0}})
    path = tmp_path / "finqa.json"
    path.write_text("[" + good + ", " + "[" * 50_000 + "]" * 50_000 + ", " + good.replace('"g"', '"h"') + "]",
                    encoding="utf-8")
    items = list(progexec.read(path))
    assert [item.id for item in items] == ["g", "finqa-1", "h"] and items[1].error


def test_gzip_bomb_is_refused_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "bomb.jsonl.gz"
    path.write_bytes(gzip.compress(b" " * 5_000_000))
    result = _progexec("exec", str(path), "--limit", "max_input_bytes=1000000")
    assert result.returncode == 2 and b"max_input_bytes" in result.stderr


def test_deadline_works_off_the_main_thread() -> None:
    def endless() -> None:
        while True:
            check_deadline()

    outcome: list[str] = []

    def worker() -> None:
        try:
            run_with_time_limit(endless, 0.05)
        except ItemTimeLimitExceeded:
            outcome.append("stopped")

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join(30)
    assert outcome == ["stopped"]


def test_same_answers_from_eight_threads_as_serial() -> None:
    records = _test_split()[:200]
    items = [Item(r["id"], r["program"], r["table"], r["exe_ans"], True, dialect=get_dataset("finqa")) for r in records]

    def answers(item: Item) -> tuple[Any, ...]:
        execution = execute(item)
        return execution.official.value, execution.match, execution.status

    serial = [answers(item) for item in items]
    assert all(match for _, match, _ in serial)
    with ThreadPoolExecutor(8) as pool:
        assert list(pool.map(answers, items)) == serial
        limited = list(pool.map(lambda item: execute(item, Limits(max_steps=1)).status, items))
    assert limited == [progexec.Status.LIMIT_EXCEEDED if len(r["program"].split("),")) > 1 else
                       progexec.Status.OK for r in records]
    pred = PREDICTIONS / "finqa_example_predictions.json.gz"
    with ThreadPoolExecutor(8) as pool:
        figures = list(pool.map(lambda _: progexec.score("finqa:test", pred).scorers["official"].execution_accuracy,
                                range(8)))
    assert figures == [0.7] * 8
    assert not math.isnan(figures[0])


def test_report_reads_mathqa_and_agrees_with_exec_on_the_option_match() -> None:
    from itertools import islice

    items = list(islice(progexec.read("mathqa:test"), 300))
    matches = [execute(item).match for item in items]
    summary = progexec.report(items).gold_summary()
    assert summary["with_gold"] == sum(match is not None for match in matches)
    assert summary["matching"] == sum(match is True for match in matches) > 150


def test_report_from_eight_threads_equals_serial() -> None:
    from progexec.report import json_report

    records = [r for r in finqa_records() if "exp(" in r["program"]][:8] + _test_split()[:24]
    items = [Item(r["id"], r["program"], r["table"], r["exe_ans"], True, dialect=get_dataset("finqa")) for r in records]
    serial = json_report.render(progexec.report(items))
    with ThreadPoolExecutor(8) as pool:
        assert set(pool.map(lambda _: json_report.render(progexec.report(items)), range(8))) == {serial}


def test_every_bound_is_documented() -> None:
    text = (Path(__file__).parent.parent / "docs" / "robustness.md").read_text(encoding="utf-8")
    assert [name for name in LIMIT_DOCS if f"| `{name}` |" not in text] == []


def test_exec_and_score_give_the_serial_bytes_on_two_processes(tmp_path: Path) -> None:
    gold = _finqa_file(tmp_path, _test_split()[:300])
    pred = PREDICTIONS / "finqa_example_predictions.json.gz"
    outputs: dict[str, list[bytes]] = {"exec": [], "items": []}
    for jobs in ("1", "2"):
        exec_out, items_out = tmp_path / f"exec{jobs}.jsonl", tmp_path / f"items{jobs}.jsonl"
        assert _progexec("exec", str(gold), "--jobs", jobs, "--chunk-size", "50", "--out", str(exec_out)).returncode == 0
        result = _progexec("score", "--gold", "finqa:test", "--pred", str(pred), "--scorer", "all", "--jobs", jobs,
                           "--chunk-size", "100", "--items", str(items_out))
        assert result.returncode in (0, 1), result.stderr
        outputs["exec"].append(exec_out.read_bytes())
        outputs["items"].append(items_out.read_bytes())
    assert outputs["exec"][0] == outputs["exec"][1] and len(outputs["exec"][0].splitlines()) == 300
    assert outputs["items"][0] == outputs["items"][1]


def test_a_bound_reached_in_mathqa_is_limit_exceeded_naming_it_as_in_finqa(tmp_path: Path) -> None:
    mathqa = tmp_path / "mathqa.json"
    mathqa.write_text(json.dumps([{"Problem": "a 5 b 7", "options": "a ) 12 , b ) 3", "correct": "a",
                                   "linear_formula": "add(n0,n1)|multiply(#0,const_2)|"}]), encoding="utf-8")
    finqa = _finqa_file(tmp_path, _test_split()[:1])
    for path in (mathqa, finqa):
        result = _progexec("exec", str(path), "--limit", "max_program_chars=10")
        line = json.loads(result.stdout.decode().splitlines()[0])
        assert line["status"] == "limit_exceeded" and "max_program_chars" in line["message"], (path, line)


def test_a_clock_that_stops_items_fails_the_run_and_says_so(tmp_path: Path) -> None:
    """A clock that fires turns figures into lower bounds: the run says so (summary, verdict, JSON) and
    exits 1, never PASS (with item_time_limit = 1 ns the clock stops every item, on any machine)."""
    records = [{"id": f"g{n}", "table": [], "qa": {"program": f"add({n}, 2), multiply(#0, 3)",
                                                     "exe_ans": float((n + 2) * 3)}} for n in range(5)]
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps(records), encoding="utf-8")
    pred = tmp_path / "pred.json"
    pred.write_text(json.dumps([{"id": f"g{n}", "predicted": ["multiply(", str(n), "3", ")", "multiply(", "2", "3",
                                                              ")", "add(", "#0", "#1", ")", "EOF"]}
                                for n in range(5)]), encoding="utf-8")
    scored = _progexec("score", "--gold", str(gold), "--pred", str(pred), "--json", "--limit", "item_time_limit=1e-9")
    assert scored.returncode == 1
    document = json.loads(scored.stdout)
    assert document["stopped_by_clock"] == 5 and document["figures_are_lower_bounds"] is True
    assert b"FAIL" in scored.stderr and b"stopped_by_clock" in scored.stderr
    executed = _progexec("exec", str(gold), "--limit", "item_time_limit=1e-9")
    assert executed.returncode == 1 and b"stopped_by_clock: 5" in executed.stderr
    reported = _progexec("report", str(gold), "--out", str(tmp_path / "r"), "--json", "--limit", "item_time_limit=1e-9")
    assert reported.returncode == 1 and json.loads(reported.stdout)["stopped_by_clock"] == 5
    calm = _progexec("score", "--gold", str(gold), "--pred", str(pred), "--json")
    assert calm.returncode == 0 and json.loads(calm.stdout)["stopped_by_clock"] == 0


def test_errors_are_one_root_with_three_kinds_that_say_where() -> None:
    """Every error progexec raises on purpose derives from ProgexecError, and an unusable input is one kind,
    InputError, that carries where it was found as attributes (not only in its text)."""
    from progexec.core.errors import InputError, OptionError, ProgramSyntaxError, SetupError
    from progexec.core.limits import parse_assignment
    from progexec.core.registry import get_dataset as get_dialect
    from progexec.integrations._gold import AdapterInputError
    from progexec.isolation.bwrap import IsolationUnavailable
    from progexec.readers import InputError as ReadersInputError, read
    from progexec.reward.gold import GoldRecord, GoldRecordError
    from progexec.score.loading import load_gold

    assert ReadersInputError is InputError
    # the documented names are the kinds themselves: one class per way a caller reacts
    assert AdapterInputError is InputError and GoldRecordError is InputError and IsolationUnavailable is SetupError
    assert issubclass(ProgramSyntaxError, InputError)
    with pytest.raises(InputError) as gold:
        GoldRecord.from_mapping({"answer": []})
    assert gold.value.kind == "input"
    with pytest.raises(InputError):
        load_gold("/nonexistent/progexec-gold.json")
    with pytest.raises(OptionError) as dialect:
        get_dialect("finqq")
    assert dialect.value.kind == "option" and "finqa" in str(dialect.value)
    with pytest.raises(OptionError):
        parse_assignment("no_such_bound=3")
    with pytest.raises(InputError) as raised:
        list(read("/nonexistent/progexec-input.json"))
    assert raised.value.source == "/nonexistent/progexec-input.json" and raised.value.seen == "no such file"
    with pytest.raises(ProgramSyntaxError) as syntax:
        progexec.grammar.parse_program("add(1, 2")
    assert isinstance(syntax.value, InputError) and syntax.value.line == 1 and syntax.value.column >= 1
