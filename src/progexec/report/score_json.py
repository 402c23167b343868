"""score.json, ``score --json`` and items.jsonl: the machine-readable scoring reports."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, TextIO

from ..records import dumps, json_value
from ..score import FORMAT_VERSION, ScoreReport, disagreements
from .score_model import ScoreRun

DENOMINATOR = "predictions whose id is in the gold, repeated ids counted (the official loop's len(data))"
"""What ``n`` counts, stated in every scoring report."""


def report_record(report: ScoreReport, compare: bool, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ``--json`` object (format_version: records.FORMAT_VERSION): the headline scorer's figures (``official``
    when it ran, else the first scorer run; named by ``headline``), then per-scorer figures."""
    official = report.scorers[report.headline]
    record: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        **({"meta": meta} if meta is not None else {}),
        "gold": report.gold_source,
        "pred": report.pred_source,
        "dialect": report.dialect,
        "n": report.n,
        "denominator": DENOMINATOR,
        "headline": report.headline,
        "execution_accuracy": official.execution_accuracy,
        "program_accuracy": official.program_accuracy,
        "scorers": {name: {"n": figures.n, "execution_correct": figures.execution_correct,
                           "execution_accuracy": figures.execution_accuracy,
                           "program_correct": figures.program_correct,
                           "program_accuracy": figures.program_accuracy}
                    for name, figures in report.scorers.items()},
        "coverage": {"n_gold": report.n_gold, "n_predictions": report.n_predictions,
                     "not_in_gold": report.unknown_ids, "duplicate_ids": report.duplicate_ids,
                     "missing_predictions": len(report.missing_ids), "missing_ids": report.missing_ids,
                     "unreadable": report.unreadable},
        "would_abort": report.would_abort_ids,
        "gold_errors": report.gold_error_ids,
        "stopped_by_clock": len(report.stopped_by_clock_ids),
        "figures_are_lower_bounds": bool(report.stopped_by_clock_ids),
    }
    if compare:
        record["compare"] = disagreements(report)
    return record


def item_records(report: ScoreReport, meta: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """One record per scored item, then one per prediction not in the gold and per gold item without a prediction,
    then (with ``meta``) one ``status: summary`` record carrying ``format_version`` and ``meta`` (the lines are
    typed by ``status``, so the format allows one summary record)."""
    records: list[dict[str, Any]] = []
    for item in report.items:
        records.append({
            "id": item.id, "position": item.position, "status": "scored",
            "gold": json_value(item.gold_value), "value": json_value(item.official_value),
            "would_abort": item.would_abort, "decided_by": item.decided_by,
            **({"stopped_by_clock": True} if item.stopped_by_clock else {}),
            "scorers": {name: {"execution": verdict.execution, "program": verdict.program,
                               "execution_why": verdict.execution_why.value,
                               "program_why": verdict.program_why.value if verdict.program_why else None,
                               **({"detail": verdict.detail} if verdict.detail else {})}
                        for name, verdict in item.verdicts.items()},
        })
    records.extend({"id": item_id, "status": "not_in_gold"} for item_id in report.unknown_ids)
    records.extend({"id": item_id, "status": "no_prediction"} for item_id in report.missing_ids)
    if meta is not None:
        records.append({"status": "summary", "format_version": FORMAT_VERSION, "meta": meta, "n": report.n,
                        "scored": len(report.items), "not_in_gold": len(report.unknown_ids),
                        "no_prediction": len(report.missing_ids)})
    return records


@dataclass(frozen=True, slots=True)
class JsonReporter:
    """The run as one JSON object: indented (score.json) or on one line (``score --json``)."""

    compare: bool = True
    """Add the disagreements between every pair of scorers (``compare``)."""
    indent: int | None = 1
    report_type: str = "json"

    def report(self, model: ScoreRun, outfile: TextIO) -> None:
        record = report_record(model.report, self.compare, model.meta)
        if self.indent is None:
            outfile.write(dumps(record) + "\n")
        else:
            outfile.write(json.dumps(record, indent=self.indent, ensure_ascii=False, allow_nan=False) + "\n")


@dataclass(frozen=True, slots=True)
class ItemsReporter:
    """items.jsonl: one JSON line per item, scored or not (why each was, or was not, counted)."""

    report_type: str = "jsonl"

    def report(self, model: ScoreRun, outfile: TextIO) -> None:
        for record in item_records(model.report, model.meta):
            outfile.write(dumps(record) + "\n")
