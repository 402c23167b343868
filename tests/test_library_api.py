"""The library's front door: ``progexec.score`` on records in memory and on paths alike, the report
writers as public functions, the subpackages reachable through their callable names, statuses
printed as labels, and the notebook example of docs/scoring.md run as written."""

from __future__ import annotations

import json
import re
import sys
import types
from pathlib import Path
from typing import Any

import pytest

import progexec
from progexec.core.status import Status
from progexec.core.limits import DEFAULT_LIMITS
from progexec.report import to_html, to_markdown
from progexec.score import score_sources

ROOT = Path(__file__).resolve().parent.parent
PREDICTIONS = ROOT / "tests" / "data" / "predictions" / "finqa_example_predictions.json.gz"
GOLD = [{"id": "a", "program": "divide(3.8, 35.1)", "exe_ans": 0.10826},
        {"id": "b", "program": "subtract(5829, 5735)", "exe_ans": 94.0},
        {"id": "c", "program": "table_sum(revenue, none)", "table": [["revenue", "10", "20"]], "exe_ans": 30.0}]
PREDS = [{"id": "a", "predicted": "divide(3.8, 35.1)"}, {"id": "b", "predicted": "subtract(5735, 5829)"},
         {"id": "c", "predicted": ["table_sum(", "revenue", "none", ")", "EOF"]}]


def test_no_attribute_naming_a_subpackage_is_a_plain_function() -> None:
    for name in ("score", "report"):
        attribute = getattr(progexec, name)
        package = sys.modules[f"progexec.{name}"]
        assert attribute.__name__ == f"progexec.{name}" and callable(attribute)
        # a callable front, not a package that changed its own class: the package stays a plain module
        assert type(package) is types.ModuleType and not callable(package)
    from progexec.report.score_report import write_score_report

    assert progexec.report.score_report.write_score_report is write_score_report  # the README's path
    assert progexec.score.load_gold is progexec.score.loading.load_gold
    with pytest.raises(AttributeError):
        progexec.report.no_such_module  # noqa: B018


def test_score_takes_records_in_memory_and_gives_what_the_file_gives(tmp_path: Path) -> None:
    in_memory = progexec.score(GOLD, PREDS)  # type: ignore[operator]  # the callable package
    gold_file, pred_file = tmp_path / "gold.json", tmp_path / "preds.jsonl"
    gold_file.write_text(json.dumps(GOLD), encoding="utf-8")
    pred_file.write_text("".join(json.dumps(record) + "\n" for record in PREDS), encoding="utf-8")
    from_files = progexec.score(gold_file, str(pred_file))  # type: ignore[operator]  # the callable package
    # a is right, b subtracts the wrong way round (-94), c sums the row (30): 2 of 3, as the official script counts
    figures = (in_memory.scorers["official"].execution_accuracy, from_files.scorers["official"].execution_accuracy)
    assert figures == (2 / 3, 2 / 3)
    assert [item.id for item in in_memory.items] == [item.id for item in from_files.items] == ["a", "b", "c"]
    assert score_sources(GOLD, PREDS).scorers["official"].program_accuracy == 2 / 3


def test_score_on_records_matches_the_official_example_figures() -> None:
    """The official example predictions, read into a list first, give the official script's 0.7 / 0.6876."""
    import gzip

    records = json.loads(gzip.decompress(PREDICTIONS.read_bytes()))
    result = progexec.score("finqa:test", records)  # type: ignore[operator]  # the callable package
    assert result.scorers["official"].execution_accuracy == 0.7
    assert result.scorers["official"].program_accuracy == 0.6876190476190476


def test_score_accepts_items_and_convfinqa_n_best_mappings() -> None:
    items = list(progexec.read("finqa:test"))[:20]
    predictions = {item.id: [{"id": item.id, "predicted": item.program}] for item in items}
    result = progexec.score(items, predictions)  # type: ignore[operator]  # the callable package
    assert result.n == 20 and result.scorers["official"].execution_accuracy == 1.0


@pytest.mark.parametrize(("gold", "predictions", "message"), [
    (GOLD, [], "no predictions"),
    (GOLD, [{"id": "zzz", "predicted": "add(1, 2)"}], ""),
    (GOLD, [{"x": object()}], "not JSON data"),
])
def test_unusable_records_raise_a_progexec_error(gold: Any, predictions: Any, message: str) -> None:
    with pytest.raises(progexec.ProgexecError) as raised:
        progexec.score(gold, predictions)  # type: ignore[operator]  # the callable package
    assert message in str(raised.value)
    assert "progexec-score-" not in str(raised.value)  # no temporary path in a message


def test_the_report_writers_are_public_and_render_both_reports() -> None:
    result = progexec.score(GOLD, PREDS)  # type: ignore[operator]  # the callable package
    page = to_html(result, gold=GOLD, predictions=PREDS)
    assert page.startswith("<!DOCTYPE html>") and "subtract(5735, 5829)" in page  # the prediction's text
    assert to_markdown(result).startswith("# progexec scoring report")
    divergence = progexec.report(progexec.read("finqa:test"))  # type: ignore[operator]  # the callable package
    assert to_markdown(divergence) == progexec.report.markdown.render(divergence)
    assert to_html(divergence) == progexec.report.html_report.render(divergence)


def test_the_notebook_example_in_the_docs_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "docs" / "scoring.md").read_text(encoding="utf-8")
    section = text.split("## In a notebook", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert code is not None
    monkeypatch.chdir(tmp_path)
    exec(compile(code.group(1), "docs/scoring.md", "exec"), {})  # its asserts are the checks


def test_statuses_print_as_their_labels() -> None:
    execution = progexec.run("divide(5, 0)")
    assert str(execution.outcome.status) == "divide_by_zero" and f"{Status.OK}" == "ok"
    assert int(Status.OK) == 1400 and f"{Status.OK:d}" == "1400" and Status(1407) is Status.DIVIDE_BY_ZERO
    assert json.dumps({"code": Status.OK}) == '{"code": 1400}'  # JSON keeps the code


def test_the_documented_per_item_clock_is_the_default() -> None:
    text = (ROOT / "docs" / "scoring.md").read_text(encoding="utf-8")
    assert f"{DEFAULT_LIMITS.item_time_limit:g} s by default" in text and "1 s by" not in text
