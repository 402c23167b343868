"""report.html: one self-contained page (inline CSS and SVG, no scripts, no external files)."""

from __future__ import annotations

import re
from html import escape
from importlib import resources

from ..oracle.classify import ALL_VARIANTS, FindingKind
from .json_report import _answer
from .markdown import VARIANT_TITLES
from .model import Report
from .plot import render_svg


def _template() -> str:
    return resources.files("progexec.report").joinpath("templates/report.html").read_text(encoding="utf-8")


def _show(value: object) -> str:
    return escape(repr(value) if isinstance(value, float) else str(_answer(value)))


def _rows(report: Report) -> str:
    rows = []
    for a in report.with_findings():
        kinds = ", ".join(f.kind.label for f in a.findings)
        messages = "<br>".join(escape(f.message()) for f in a.findings)
        answers = " ".join(f"{escape(name)}={_show(value)}" for name, value in a.answers.items())
        rows.append(f"<tr><td>{escape(a.id)}</td><td><code>{escape(a.program)}</code></td>"
                    f"<td>{_show(a.raw) if a.raw is not None else ''}</td><td>{_show(a.official)}</td>"
                    f"<td>{escape(kinds)}</td><td class=small>{answers}<br>{messages}</td></tr>")
    return "\n".join(rows)


def render(report: Report) -> str:
    divergent = report.divergent()
    counts = report.finding_counts()
    gold = report.gold_summary()
    summary = "\n".join(f"<tr><td>{escape(VARIANT_TITLES[name])}</td><td>{divergent[name]}</td></tr>"
                        for name in ALL_VARIANTS)
    findings = "\n".join(f"<tr><td>{escape(kind.label)}</td><td>{kind.severity}</td><td>{counts[kind.label]}</td></tr>"
                         for kind in FindingKind)
    statuses = "\n".join(f"<tr><td>{escape(name)}</td><td>{count}</td></tr>"
                         for name, count in report.statuses().items())
    fields = {
        "source": escape(report.source),
        "programs": str(report.programs),
        "gold": f"{gold['matching']} of {gold['with_gold']}",
        "summary_rows": summary,
        "finding_rows": findings,
        "status_rows": statuses,
        "plot": render_svg(report),
        "program_rows": _rows(report),
    }
    return re.sub(r"\{\{(\w+)\}\}", lambda match: fields[match.group(1)], _template())
