"""The reporter layer: one run model per job, one reporter per format, the public render/write functions,
the Jinja2 templates (escaping, the shared table) and the notebook example of docs/reports.md."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import jinja2
import pytest

from progexec.datasets import get_dataset
import progexec
from progexec.cli import main
from progexec.core.item import program_item
from progexec.readers import read
from progexec.report import (REPORT_TYPES, ScoreRun, UnknownFormatError, build_report, render_as, render_html,
                             render_json, render_markdown, render_text, templates, write_html, write_json,
                             write_markdown)
from progexec.report import html_report, json_report, markdown, score_html, score_json, score_markdown, score_text, text_report
from progexec.report.reporter import Reporter, render
from progexec.score import load_gold, load_predictions, score_predictions

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
SMALL = DATA / "score_small"
REPORTERS: dict[str, list[Reporter[Any]]] = {
    "report": [json_report.JsonReporter(), markdown.MarkdownReporter(), html_report.HtmlReporter(),
               text_report.TextReporter()],
    "score": [score_json.JsonReporter(), score_json.ItemsReporter(), score_markdown.MarkdownReporter(),
              score_html.HtmlReporter(), score_text.TextReporter()],
}


def _small_report() -> progexec.Report:
    return build_report(read(DATA / "report_small.jsonl"), "report_small.jsonl")


def _score_run(gold_name: str = "gold.json", pred_name: str = "pred.json") -> ScoreRun:
    gold = load_gold(str(SMALL / "gold.json"))
    predictions = load_predictions(str(SMALL / "pred.json"))
    return ScoreRun(score_predictions(gold, predictions, ["all"], gold_name, pred_name), gold, predictions)


def test_every_format_is_one_reporter_with_its_type() -> None:
    for job, reporters in REPORTERS.items():
        types = [reporter.report_type for reporter in reporters]
        assert len(types) == len(set(types)), job
        assert set(REPORT_TYPES) <= set(types), job


def test_public_functions_give_the_reviewed_gold_files() -> None:
    report = _small_report()
    assert render_markdown(report) == (DATA / "golden" / "report_small.md").read_text(encoding="utf-8")
    document = json.loads(render_json(report))
    golden = json.loads((DATA / "golden" / "report_small.json").read_text(encoding="utf-8"))
    assert document["meta"].pop("python") == "{}.{}".format(*sys.version_info[:2])  # the golden file's is 3.11
    golden["meta"].pop("python")
    assert document == golden
    assert render_markdown(_score_run()) == (DATA / "golden" / "score_small.md").read_text(encoding="utf-8")


def test_the_commands_write_what_the_public_functions_write(tmp_path: Path) -> None:
    assert main(["report", str(DATA / "report_small.jsonl"), "--out", str(tmp_path / "r")]) == 0
    report = build_report(read(str(DATA / "report_small.jsonl")), "report_small.jsonl")
    for name, writer in (("report.json", write_json), ("report.md", write_markdown), ("report.html", write_html)):
        assert (tmp_path / "r" / name).read_bytes() == writer(report, tmp_path / name).read_bytes(), name
    assert main(["score", "--gold", str(SMALL / "gold.json"), "--pred", str(SMALL / "pred.json"), "--scorer", "all",
                 "--out", str(tmp_path / "s")]) == 1  # the small set has the official script's assert case
    run = _score_run(str(SMALL / "gold.json"), str(SMALL / "pred.json"))
    for name, report_type in (("score.md", "markdown"), ("score.html", "html")):
        assert (tmp_path / "s" / name).read_text(encoding="utf-8") == render_as(run, report_type)
    lines = (tmp_path / "s" / "items.jsonl").read_text(encoding="utf-8")
    scored = [line for line in lines.splitlines(keepends=True) if json.loads(line)["status"] != "summary"]
    assert "".join(scored) == render(score_json.ItemsReporter(), run)  # the command's file adds a summary record
    assert json.loads(lines.splitlines()[-1])["status"] == "summary"
    assert [json.loads(line)["id"] for line in scored][:5] == ["abort", "right", "wrong", "twice", "twice"]


def test_a_bare_score_report_renders_without_program_texts() -> None:
    run = _score_run()
    with_programs, bare = render_html(run), render_html(run.report)
    assert "<dt>gold program</dt>" in with_programs and "<dt>gold program</dt>" not in bare
    assert render_text(run.report).startswith("gold gold.json (")


def test_score_page_lists_the_first_25_ids_of_a_coverage_problem() -> None:
    run = _score_run()
    missing = [f"gold-{index}" for index in range(30)]
    html = render_html(ScoreRun(dataclasses.replace(run.report, missing_ids=missing), run.gold, run.predictions))
    row = html[html.index('<tr id="coverage-missing"'):]
    cell = row[:row.index("</tr>")].split("<td>")[-1]  # the ids cell (the row's search text has every id)
    assert cell == ", ".join(missing[:25]) + " … (30 in all; every one is in items.jsonl)</td>"


def test_unknown_formats_and_models_are_refused() -> None:
    with pytest.raises(UnknownFormatError, match="unknown report type 'pdf'"):
        render_as(_small_report(), "pdf")
    with pytest.raises(progexec.ProgexecError, match="no reporter for a dict"):
        render_as({}, "json")  # type: ignore[arg-type]


def test_report_json_summary_carries_the_meta_of_report_json(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(DATA / "report_small.jsonl"), "--out", str(tmp_path), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    document = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert printed.pop("meta") == document["meta"] and "items_sha256" in document["meta"]
    assert printed.pop("format_version") == document["format_version"]
    assert printed == document["summary"]


def test_score_json_line_is_the_score_json_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["score", "--gold", str(SMALL / "gold.json"), "--pred", str(SMALL / "pred.json"), "--scorer", "all"]
    main([*argv, "--json", "--compare", "--out", str(tmp_path)])
    printed = capsys.readouterr().out
    assert printed.count("\n") == 1
    assert json.loads(printed) == json.loads((tmp_path / "score.json").read_text(encoding="utf-8"))


def test_html_escapes_every_value() -> None:
    hostile = '<img src=x onerror="alert(1)">'
    report = build_report([program_item("divide(1, 0)", None, get_dataset("finqa"), item_id=hostile)], hostile)  # refused: listed with its id
    html = render_html(report)
    assert hostile not in html and "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;" in html
    assert "src=" not in html.replace("src=x", "")  # the only src= is the escaped text


def test_a_page_from_the_shared_shell_and_table() -> None:
    page = templates.environment().from_string(
        '{% extends "page.html.j2" %}{% from "tables.html.j2" import table, num %}{% block body %}'
        '{% call(value) table("t", rows, [Column("name"), Column("size", true)]) %}<td>{{ value[0] }}</td>'
        '{{ num(value[1]) }}{% endcall %}{% endblock %}').render(
        title="a <b> page", rows=templates.Table([templates.Row(("x<y", 2.5), "row-1", (("kind", "a"),), "X<Y")]))
    assert page.startswith("<!DOCTYPE html>") and "<title>a &lt;b&gt; page</title>" in page
    assert page.count("<style>") == 1 and page.count("<script>") == 1
    assert '<tr id="row-1" data-kind="a" data-text="x&lt;y"><td>x&lt;y</td><td class="num" data-sort="2.5">2.5</td></tr>' \
        in page
    assert '<th class="sortable num" aria-sort="none" data-type="num">size</th>' in page
    assert templates.render("page.html.j2", title="t").count("</html>") == 1
    with pytest.raises(jinja2.UndefinedError):
        templates.render("page.html.j2")  # an undefined name is an error, never an empty string


def test_anchors_are_unique_and_safe() -> None:
    assert templates.anchors("p", ["a/b.pdf-1", "a/b.pdf-1", "", "<>"]) == ["p-a-b-pdf-1", "p-a-b-pdf-1-2",
                                                                          "p-item", "p-item-2"]


def test_the_notebook_example_runs(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "docs" / "reports.md").read_text(encoding="utf-8")
    block = text.split("<!-- notebook-example -->")[1].split("<!-- /notebook-example -->")[0]
    code = re.search(r"```python\n(.*?)```", block, re.S)
    assert code is not None
    monkeypatch.chdir(ROOT)
    namespace: dict[str, object] = {}
    exec(compile(code.group(1), "docs/reports.md", "exec"), namespace)  # noqa: S102 - the documented example
    printed = capsys.readouterr().out
    assert printed == ("report: 8 programs; divergent from the official answer: exact 0, naive 1, half_up 1, "
                       "numpy 1, per_step 1; 4 programs with findings\n")
    assert namespace["markdown"] == (DATA / "golden" / "report_small.md").read_text(encoding="utf-8")
    page = namespace["page"]
    assert isinstance(page, Path) and page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert os.path.exists(page.parent / "score.html")
