"""The TAT-QA divergence report: every arithmetic derivation executed, its findings counted and listed.

A report is built from the derivation results of a dataset (:mod:`progexec.datasets.tatqa.execute`); the
other answer types are counted, not executed. ``render_json``, ``render_markdown`` and
``render_html`` give report.json, report.md and report.html (the HTML with the shared sortable,
filterable tables of the shared page template, :mod:`progexec.report.templates`). Outputs are deterministic.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TextIO

from ...records import FORMAT_VERSION
from ...report.templates import Filter, Row, Table, render
from ...report.reporter import Reporter
from .execute import DerivationResult, Finding
from .scoring import TatqaScore
from ...core.plural import plural

TITLE = "TAT-QA derivations"


@dataclass(slots=True)
class TatqaReport:
    """What every format shows. ``results`` keeps input order; ``other_types`` counts the questions not executed."""

    source: str
    results: list[DerivationResult] = field(default_factory=list)
    other_types: Counter[str] = field(default_factory=Counter)
    meta: dict[str, Any] | None = None

    @property
    def arithmetic(self) -> int:
        return len(self.results)

    def classes(self) -> dict[str, int]:
        """Finding label -> number of derivations with it (every class listed, zeros included)."""
        counts = {finding.label: 0 for finding in Finding}
        for result in self.results:
            for finding in result.findings:
                counts[finding.label] += 1
        return counts

    def executes(self) -> int:
        """Derivations whose float64 value matches the gold answer under one of the rules."""
        return sum(1 for result in self.results if result.executes)

    def as_written(self) -> int:
        """Derivations whose float64 value matches the gold answer as written (no x100, accounting reading)."""
        return sum(1 for result in self.results if result.match)

    def rules(self) -> dict[str, int]:
        return dict(sorted(Counter(result.rule or "none" for result in self.results).items()))

    def summary(self) -> dict[str, Any]:
        return {"source": self.source, "arithmetic": self.arithmetic, "executes": self.executes(),
                "as_written": self.as_written(), "classes": self.classes(), "rules": self.rules(),
                "not_executed": dict(sorted(self.other_types.items()))}


def build_tatqa_report(results: Iterable[DerivationResult | str], source: str,
                       progress: Callable[[int], None] | None = None) -> TatqaReport:
    """Collect derivation results in order; a string stands for a question of that (non-arithmetic) type."""
    report = TatqaReport(source)
    for done, result in enumerate(results, start=1):
        if isinstance(result, str):
            report.other_types[result] += 1
        else:
            report.results.append(result)
        if progress is not None:
            progress(done)
    return report


def _exact(value: Fraction | None) -> str | None:
    if value is None:
        return None
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def entry(result: DerivationResult) -> dict[str, Any]:
    """One derivation in report.json."""
    record: dict[str, Any] = {"uid": result.uid, "status": result.status.label, "value": result.value,
                              "gold": result.gold}
    record.update(result.record_fields())
    record["exact"] = _exact(result.exact)
    if result.message:
        record["message"] = result.message
    return record


def render_json(report: TatqaReport) -> str:
    """report.json: the summary and every derivation with a finding (all of them under ``derivations``)."""
    document = {"format_version": FORMAT_VERSION, "dialect": "tatqa", "meta": report.meta,
                "summary": report.summary(),
                "findings": {finding.label: finding.text for finding in Finding},
                "derivations": [entry(result) for result in report.results]}
    return json.dumps(document, ensure_ascii=False, indent=1, sort_keys=False) + "\n"


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _value(value: object) -> str:
    return "" if value is None else repr(value) if isinstance(value, float) else str(value)


def _lead(report: TatqaReport) -> str:
    classes = report.classes()
    shown = ", ".join(f"`{label}` {count}" for label, count in classes.items())
    other = sum(report.other_types.values())
    return (f"Source: {report.source}. Arithmetic questions: {report.arithmetic} ({other} of other types counted, "
            f"not executed). **{report.executes()}** derivations execute to their gold answer under the rules "
            f"({report.as_written()} as written). Findings: {shown}.")


def render_markdown(report: TatqaReport) -> str:
    """report.md: the summary, then one table per finding."""
    lines = [f"# {TITLE}", "", _lead(report), "", "| finding | count | meaning |", "|---|---|---|"]
    classes = report.classes()
    lines += [f"| `{finding.label}` | {classes[finding.label]} | {finding.text} |" for finding in Finding]
    lines += ["", "Rules under which the float64 value matches: "
              + ", ".join(f"`{name}` {count}" for name, count in report.rules().items()) + ".", ""]
    for finding in Finding:
        rows = [result for result in report.results if finding in result.findings]
        lines += [f"## `{finding.label}`: {len(rows)}", ""]
        if not rows:
            lines += ["None.", ""]
            continue
        lines += ["| uid | derivation | float64 | exact | gold | scale | rule |", "|---|---|---|---|---|---|---|"]
        lines += [f"| {_cell(r.uid)} | `{_cell(r.derivation.strip())}` | {_value(r.value)} | "
                  f"{_cell(_exact(r.exact) or '')} | {_cell(r.gold)} | {_cell(r.scale)} | {r.rule or ''} |"
                  for r in rows]
        lines.append("")
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class DerivationRow:
    """What one row of the derivation table shows (plain values: the template escapes and lays them out)."""

    uid: str
    derivation: str
    value: object
    value_text: str
    exact: str
    gold: object
    scale: object
    rule: str
    findings: str


@dataclass(frozen=True, slots=True)
class TatqaPage:
    """What report.html shows: the lead (its `backticked` parts are code), the findings and every derivation."""

    lead: str
    findings: list[tuple[str, int, str]]
    table: Table


@dataclass(frozen=True, slots=True)
class TatqaScorePage:
    """What score.html of a TAT-QA score shows: the score, its sources, its table by answer type and source,
    and every question."""

    result: TatqaScore
    gold: str
    pred: str
    cells: list[Any]
    table: Table


def _row(result: DerivationResult) -> Row:
    labels = " ".join(finding.label for finding in result.findings) or "none"
    shown = DerivationRow(result.uid, result.derivation.strip(), result.value, _value(result.value),
                          _exact(result.exact) or "", result.gold, result.scale, result.rule or "", labels)
    return Row(shown, data=(("finding", labels),), text=f"{result.uid} {result.derivation}")


def render_html(report: TatqaReport) -> str:
    """report.html: one self-contained page (summary, a sortable table of every derivation, filter by finding)."""
    classes = report.classes()
    options = tuple((finding.label, finding.label) for finding in Finding) + (("none", "none"),)
    table = Table([_row(result) for result in report.results], (Filter("finding", "finding", options),))
    page = TatqaPage(_lead(report).replace("**", ""),
                     [(finding.label, classes[finding.label], finding.text) for finding in Finding], table)
    return render("tatqa.html.j2", page=page)


def render_score_html(result: TatqaScore, gold: str, pred: str) -> str:
    """score.html of a TAT-QA score: the figures, the answer type x answer source table, every question
    (sortable, filterable by reason and answer type)."""
    rows = [Row(q, data=(("reason", q.reason.label), ("type", str(q.answer_type))), text=q.uid)
            for q in result.questions]
    reasons = tuple((label, label) for label in result.reasons())
    kinds = tuple((kind, kind) for kind in sorted({str(q.answer_type) for q in result.questions}))
    table = Table(rows, (Filter("reason", "reason", reasons), Filter("type", "answer type", kinds)))
    return render("tatqa_score.html.j2", page=TatqaScorePage(result, gold, pred, sorted(result.cells.items()), table))


class _TatqaReporter:
    """A :class:`~progexec.report.reporter.Reporter` of the TAT-QA derivation report in one format."""

    def __init__(self, report_type: str, render: Callable[[TatqaReport], str]) -> None:
        self._type, self._render = report_type, render

    @property
    def report_type(self) -> str:
        return self._type

    def report(self, model: TatqaReport, outfile: TextIO) -> None:
        outfile.write(self._render(model))


REPORTERS: dict[str, Reporter[TatqaReport]] = {
    "json": _TatqaReporter("json", render_json), "markdown": _TatqaReporter("markdown", render_markdown),
    "html": _TatqaReporter("html", render_html)}
"""The TAT-QA report's reporters by format (report.json, report.md, report.html), through the one protocol."""


__all__ = ["TatqaReport", "REPORTERS", "build_tatqa_report", "entry", "render_json", "render_markdown", "render_html",
           "render_score_html"]
