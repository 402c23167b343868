"""report.json: the machine-readable report (``format_version`` says which shape)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, TextIO

from ..oracle.classify import Analysis
from ..oracle.reference import ExactAnswer
from ..records import FORMAT_VERSION
from .model import Report


def _answer(value: Any) -> Any:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value != value:
        return "nan"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return repr(value)
    return value


def _exact(answer: ExactAnswer | None) -> dict[str, Any] | None:
    if answer is None:
        return None
    record: dict[str, Any] = {"status": answer.status.label, "decided": answer.decided}
    if isinstance(answer.rounded, bool):
        record["rounded"] = "yes" if answer.rounded else "no"
    elif answer.rounded is not None:
        record["rounded"] = str(answer.rounded)
        record["rounded_float"] = float(answer.rounded)
    if answer.precision_bits is not None:
        record["interval_bits"] = answer.precision_bits
    if answer.message:
        record["message"] = answer.message
    return record


def entry(analysis: Analysis) -> dict[str, Any]:
    """One program with findings, every value a JSON value."""
    record: dict[str, Any] = {
        "id": analysis.id,
        "program": analysis.program,
        "status": analysis.status.label,
        "official": _answer(analysis.official),
    }
    if analysis.raw is not None:
        record["raw"] = repr(analysis.raw)
        record["raw_hex"] = analysis.raw.hex()
    record["answers"] = {name: _answer(value) for name, value in analysis.answers.items()}
    if analysis.has_gold:
        record["gold"] = _answer(analysis.gold)
    record["exact_decimal"] = _exact(analysis.exact_decimal)
    record["exact_float"] = _exact(analysis.exact_float)
    record["ulps_to_boundary"] = analysis.ulps_to_boundary
    record["findings"] = [
        {"kind": f.kind.label, "severity": f.kind.severity, "message": f.message(), "details": dict(f.details)}
        for f in analysis.findings
    ]
    return record


def summary(report: Report) -> dict[str, Any]:
    return {
        "programs": report.programs,
        "statuses": report.statuses(),
        "divergent": report.divergent(),
        "findings": report.finding_counts(),
        "gold": report.gold_summary(),
        "programs_with_findings": len(report.with_findings()),
        "stopped_by_clock": report.stopped_by_clock(),
    }


def summary_record(report: Report) -> dict[str, Any]:
    """What ``report --json`` prints: the summary, with the run's ``meta``."""
    return {**summary(report), **({"meta": report.meta} if report.meta is not None else {})}


def render(report: Report) -> str:
    """The whole report.json text (sorted keys where order carries no meaning; no timestamps)."""
    document: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        **({"meta": report.meta} if report.meta is not None else {}),
        "source": report.source,
        "summary": summary(report),
        "programs": [entry(analysis) for analysis in report.with_findings()],
        "refused": [
            {"id": a.id, "program": a.program, "status": a.status.label, "code": int(a.status), "message": a.message}
            for a in report.refused()
        ],
    }
    return json.dumps(document, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


@dataclass(frozen=True, slots=True)
class JsonReporter:
    """report.json."""

    report_type: str = "json"

    def report(self, model: Report, outfile: TextIO) -> None:
        outfile.write(render(model))
