"""``check-reward``'s suite, command line and reports: the suite is a pure function of the seed and
holds what its forms promise (checked against the corpora's gold answers); the command's exits,
outputs (text, JSON with meta, HTML, JUnit), ``--cmd`` and ``--url`` callers and bounds."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterator
from pathlib import Path
from xml.etree import ElementTree

import pytest

from progexec.checker.reward.forms import FORMS, FORMS_BY_NAME
from progexec.checker.reward.suite import build_suite
from progexec.cli import main
from progexec.corpus import finqa_records
from tests.serve_harness import Served, start as start_serve
from tests.reward_zoo import numbers, span

ZOO = "tests.reward_zoo"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


# -- the suite -----------------------------------------------------------------------------------------

def test_suite_is_a_pure_function_of_the_seed() -> None:
    first, again, other = build_suite(500, 7), build_suite(500, 7), build_suite(500, 8)
    assert [case.export() for case in first] == [case.export() for case in again]
    assert [case.export() for case in first] != [case.export() for case in other]


def test_every_form_has_cases_and_its_expected_reward() -> None:
    suite = build_suite(len(FORMS) * 3, 1)
    assert {case.form for case in suite} == set(FORMS_BY_NAME)
    for case in suite:
        assert case.expected == (1.0 if FORMS_BY_NAME[case.form].correct else 0.0)
        assert case.gold["policy"] == FORMS_BY_NAME[case.form].policy


def test_correct_answers_are_the_corpus_gold_and_wrong_ones_are_far_from_it() -> None:
    """A FinQA case's answer, read back, is within 0.05 % of the dataset's exe_ans (correct forms) or
    more than 0.2 % from it (the scale, sign and rounding forms)."""
    gold_by_program = {(row["program"], json.dumps(row["table"])): row["exe_ans"] for row in finqa_records()}
    suite = build_suite(3000, 2, ["decimal", "percent", "thousands", "negative_parens", "scale_x100", "sign_flip",
                                  "rounding_off", "stray_percent"])
    checked = 0
    for case in suite:
        key = (case.gold.get("program"), json.dumps(case.gold.get("table")))
        if case.gold["dialect"] != "finqa" or key not in gold_by_program:
            continue
        gold = float(gold_by_program[key])
        text = span(case.completion)
        assert text is not None
        (value,) = numbers(text)
        if case.expected:
            assert math.isclose(value, gold, rel_tol=5e-4), case
        else:
            assert abs(value - gold) > 2e-3 * abs(gold), case
        checked += 1
    assert checked > 2000


def test_conformance_export_of_the_reward_suite_is_byte_identical(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("a", "b"):
        assert run(capsys, "conformance", "export", str(tmp_path / name), "--suite", "reward", "--cases", "300",
                   "--seed", "4")[0] == 0
    first = (tmp_path / "a" / "reward.jsonl").read_bytes()
    assert first == (tmp_path / "b" / "reward.jsonl").read_bytes()
    rows = [json.loads(line) for line in first.decode("utf-8").splitlines()]
    assert len(rows) == 300 and all(list(row) == ["completion", "gold", "expected_reward", "form"] for row in rows)
    assert {row["form"] for row in rows} == set(FORMS_BY_NAME)


# -- the command ---------------------------------------------------------------------------------------

def test_fail_on_decides_the_exit_and_outputs_carry_the_findings(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    html, junit = tmp_path / "r.html", tmp_path / "r.xml"
    code, out, err = run(capsys, "check-reward", "--python", f"{ZOO}:sign_ignored_reward", "--cases", "200",
                         "--forms", "sign_flip,negative_hyphen,decimal", "--probe-cases", "0", "--json",
                         "--html", str(html), "--junit", str(junit))
    assert code == 1
    report = json.loads(out)
    assert err.startswith("FAIL ")
    assert f"progexec check-reward: wrote {junit}\n" in err and f"progexec check-reward: wrote {html}\n" in err
    assert report["failing_classes"] == ["false_positive"]
    assert report["by_form"]["sign_flip"]["classes"]["false_positive"]["rate"] == 1.0
    assert report["by_form"]["decimal"]["classes"] == {}
    example = report["examples"]["false_positive"]["sign_flip"]
    assert {"completion", "gold", "reward", "reference", "expected_reward"} <= set(example)
    assert example["reward"] == "1.0" and example["reference"]["score"] == 0.0
    assert report["meta"]["progexec"] and "limits" in report["meta"]
    page = html.read_text(encoding="utf-8")
    assert "FAIL" in page and "sign_flip" in page and "<details" in page
    suite = ElementTree.fromstring(junit.read_text(encoding="utf-8"))
    assert suite.get("failures") == "1"
    code, out, _ = run(capsys, "check-reward", "--python", f"{ZOO}:sign_ignored_reward", "--cases", "200",
                       "--forms", "sign_flip,negative_hyphen,decimal", "--probe-cases", "0", "--fail-on", "hang")
    assert code == 0 and out.startswith("PASS ") and "false_positive" in out


def test_json_is_identical_between_runs(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("check-reward", "--python", f"{ZOO}:percent_ignored_reward", "--cases", "150", "--probe-cases", "30",
            "--json", "--seed", "9")
    first, second = run(capsys, *argv)[1], run(capsys, *argv)[1]
    assert first == second and json.loads(first)["by_class"]["false_negative"]["count"] > 0


def test_range_makes_an_out_of_range_reward_a_bad_return(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check-reward", "--python", f"{ZOO}:progexec_plain", "--cases", "60", "--forms",
                       "decimal,sign_flip", "--range", "0,0.5", "--probe-cases", "0", "--json")
    report = json.loads(out)
    assert code == 0  # bad_return is not in the default --fail-on
    assert report["by_form"]["decimal"]["classes"]["bad_return"]["rate"] == 1.0  # 1.0 is outside [0, 0.5]
    assert report["by_form"]["sign_flip"]["classes"] == {}  # 0.0 is inside


def test_cmd_with_scale_guesses_is_caught(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check-reward", "--cmd", f"{sys.executable} -m tests.reward_cmd_zoo scale", "--cases",
                       "80", "--forms", "scale_x100,decimal", "--json")
    report = json.loads(out)
    assert code == 1 and report["signature"] == "jsonl"
    assert report["by_form"]["scale_x100"]["classes"]["false_positive"]["rate"] == 1.0
    assert any("does not apply" in note for note in report["notes"])  # no thread or pool probe for --cmd


def test_cmd_running_progexec_passes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check-reward", "--cmd", f"{sys.executable} -m tests.reward_cmd_zoo", "--cases",
                       "200", "--json")
    report = json.loads(out)
    assert code == 0 and report["cases"] == 200 and report["failing_classes"] == []
    assert sum(entry["count"] for entry in report["by_class"].values()) == 0
    assert report["probes"]["fresh"]["cases"] > 0


@pytest.fixture()
def served() -> Iterator[Served]:
    pytest.importorskip("uvicorn")  # progexec serve needs the serve extra
    server = start_serve()
    try:
        yield server
    finally:
        server.stop()


def test_url_calls_an_openrlhf_server_from_threads_and_processes(served: Served,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    url = f"http://127.0.0.1:{served.port}/get_reward"
    code, out, _ = run(capsys, "check-reward", "--url", url, "--cases", "200", "--range", "0,1", "--fail-on", "all",
                       "--json")
    report = json.loads(out)
    assert code == 0, report["examples"]
    assert set(report["probes"]) == {"reorder", "fresh", "thread", "pool"}


def test_url_must_be_loopback_unless_allowed(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "check-reward", "--url", "http://192.0.2.1:8000/get_reward", "--cases", "5")
    assert code == 2 and "--allow-remote" in err


@pytest.mark.parametrize(("argv", "message"), [
    (["--python", "nocolon"], "MODULE:FUNC"),
    (["--python", "tests.no_such_module:f"], "cannot start"),
    (["--python", f"{ZOO}:correct_reward", "--forms", "decimal,nope"], "unknown form 'nope'"),
    (["--python", f"{ZOO}:correct_reward", "--range", "1"], "--range"),
    (["--python", f"{ZOO}:correct_reward", "--fail-on", "gamed"], "unknown class 'gamed'"),
    (["--python", f"{ZOO}:correct_reward", "--probes", "twice"], "unknown probe"),
    (["--python", f"{ZOO}:correct_reward", "--cases", "0"], "at least 1"),
])
def test_usage_errors_exit_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "check-reward", *argv)
    assert code == 2 and message in err


def test_the_run_budget_is_a_backstop_that_fails_the_run(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check-reward", "--python", f"{ZOO}:correct_reward", "--cases", "50", "--budget",
                       "1e-9", "--json")
    report = json.loads(out)
    assert code == 1 and report["incomplete"].startswith("the run budget")
    assert report["not_run"] == 50 and report["cases"] == 0
