"""The divergence report: the corpus figures the issue states, gold files, determinism."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from progexec.cli import main
from progexec.datasets.finqa import finqa_items
from progexec.readers import read
from progexec.oracle.classify import FindingKind
from progexec.report import build_report, html_report, json_report, markdown

DATA = Path(__file__).parent / "data"
SIX_NAIVE = {"HII/2011/page_100.pdf-3", "RE/2010/page_42.pdf-4", "CAT/2017/page_69.pdf-2",
             "IP/2012/page_84.pdf-2", "ETR/2017/page_143.pdf-2", "HIG/2011/page_53.pdf-1"}


@pytest.fixture(scope="module")
def corpus_report():  # type: ignore[no-untyped-def]
    return build_report(finqa_items(), "the embedded FinQA corpus (test, dev, train)")


def test_corpus_counts_match_the_issue(corpus_report) -> None:  # type: ignore[no-untyped-def]
    divergent = corpus_report.divergent()
    assert corpus_report.programs == 8148
    assert (divergent["naive"], divergent["half_up"], divergent["per_step"]) == (6, 5, 130)
    assert divergent["exact"] == 0
    naive = {a.id for a in corpus_report.analyses if FindingKind.NAIVE_DIFFERS in a.kinds}
    assert naive == SIX_NAIVE
    half_up = {a.id for a in corpus_report.analyses if FindingKind.HALF_UP_DIFFERS in a.kinds}
    assert len(half_up & naive) == 1 and "RE/2010/page_42.pdf-4" in half_up
    # items without an id in the public copy are named by split and index
    assert any(item_id.startswith("train-") for item_id in half_up)
    assert corpus_report.gold_summary() == {"with_gold": 8148, "matching": 8148, "mismatching": 0}


def test_six_naive_values_are_the_seed_raw_values(corpus_report) -> None:  # type: ignore[no-untyped-def]
    seed = {"HII/2011/page_100.pdf-3": (3.268485, 3.26849), "RE/2010/page_42.pdf-4": (1.276875, 1.27687),
            "CAT/2017/page_69.pdf-2": (-0.771875, -0.77187), "IP/2012/page_84.pdf-2": (0.115625, 0.11563),
            "ETR/2017/page_143.pdf-2": (0.128525, 0.12853), "HIG/2011/page_53.pdf-1": (0.178125, 0.17813)}
    for analysis in corpus_report.analyses:
        if analysis.id in seed:
            raw, gold = seed[analysis.id]
            assert round(analysis.raw, 6) == raw and analysis.official == gold == analysis.gold
            assert FindingKind.PRODUCT_DOUBLE_ROUNDING in analysis.kinds


def test_exact_binary_ties_are_m_over_64(corpus_report) -> None:  # type: ignore[no-untyped-def]
    for analysis in corpus_report.analyses:
        if FindingKind.EXACT_BINARY_TIE in analysis.kinds:
            m = analysis.raw * 64
            assert m == int(m) and int(m) % 2 == 1  # SPEC §5: only x = m/64, m odd


def _small_report():  # type: ignore[no-untyped-def]
    return build_report(read(DATA / "report_small.jsonl"), "report_small.jsonl")


def test_markdown_report_matches_the_reviewed_gold_file() -> None:
    assert markdown.render(_small_report()) == (DATA / "golden" / "report_small.md").read_text(encoding="utf-8")


def test_json_report_matches_the_reviewed_gold_file() -> None:
    assert json_report.render(_small_report()) == (DATA / "golden" / "report_small.json").read_text(encoding="utf-8")


def test_json_report_shape_and_every_input_present() -> None:
    document = json.loads(json_report.render(_small_report()))
    assert document["format_version"] == 2  # records.FORMAT_VERSION, with its change log
    assert document["summary"]["programs"] == 8
    assert set(document["summary"]["divergent"]) >= {"naive", "half_up", "per_step"}
    listed = {entry["id"] for entry in document["programs"]} | {entry["id"] for entry in document["refused"]}
    assert {"tie-1.640625", "naive-0.115625", "chain", "refused", "line-8", "wrong-gold"} <= listed


def test_html_report_is_self_contained_with_a_plot() -> None:
    html = html_report.render(_small_report())
    assert html.startswith("<!DOCTYPE html>") and "<svg" in html and "</html>" in html
    # one file: the only script and style are inline, nothing is fetched
    assert "src=" not in html and "<link" not in html and "@import" not in html and "url(" not in html
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "") and "https://" not in html
    assert html.count("<script>") == 1 and html.count("<style>") == 1


def test_html_report_links_resolve_and_headline_lists_the_final_value_divergences() -> None:
    html = html_report.render(_small_report())
    ids = set(re.findall(r' id="([^"]+)"', html))
    targets = set(re.findall(r'href="#([^"]+)"', html))
    assert targets and targets <= ids  # every plot point, id link and section link lands on an element
    headline = html[html.index('id="headline-table"'):]
    headline = headline[:headline.index("</table>")]
    # the small file's final-value divergences (tests/data/golden/report_small.json): the tie and the naive case
    assert re.findall(r'<tr id="top-[^"]+"', headline) == ['<tr id="top-tie-1-640625"', '<tr id="top-naive-0-115625"']
    # every program with findings or refused has its own row anchor in the main table
    for anchor in ("tie-1-640625", "naive-0-115625", "chain", "refused", "wrong-gold", "line-8"):
        assert f'<tr id="p-{anchor}"' in html


def test_every_finding_kind_has_a_legend_line_and_a_section() -> None:
    html = html_report.render(_small_report())
    text = markdown.render(_small_report())
    for kind in FindingKind:
        assert f'id="legend-{kind.label}"' in html and f"| `{kind.label}` | {kind.severity} | " in text
        section = "rounder" if kind.label in ("exact", "naive", "half_up", "numpy", "per_step") else "kind"
        assert f'id="{section}-{kind.label}"' in html


def test_cli_report_twice_gives_identical_files(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    assert main(["report", str(DATA / "report_small.jsonl"), "--out", str(first)]) == 0
    assert main(["report", str(DATA / "report_small.jsonl"), "--out", str(second)]) == 0
    for name in ("report.json", "report.md", "report.html"):
        assert (first / name).read_bytes() == (second / name).read_bytes()


def test_report_is_independent_of_hash_seed(tmp_path: Path) -> None:
    outputs = []
    for seed in ("0", "12345"):
        out = tmp_path / seed
        subprocess.run([sys.executable, "-m", "progexec", "report", str(DATA / "report_small.jsonl"),
                        "--out", str(out)], check=True, env={"PYTHONHASHSEED": seed, "PATH": ""},
                       capture_output=True)
        outputs.append([(out / name).read_bytes() for name in ("report.json", "report.md", "report.html")])
    assert outputs[0] == outputs[1]


def test_committed_corpus_report_is_reproduced_byte_for_byte(corpus_report) -> None:  # type: ignore[no-untyped-def]
    committed = Path(__file__).parent.parent / "reports" / "finqa"
    assert json_report.render(corpus_report) == (committed / "report.json").read_text(encoding="utf-8")
    assert markdown.render(corpus_report) == (committed / "report.md").read_text(encoding="utf-8")
    assert html_report.render(corpus_report) == (committed / "report.html").read_text(encoding="utf-8")
