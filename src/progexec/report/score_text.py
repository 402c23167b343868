"""The scoring run as a terminal table (what ``score`` prints without ``--json``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO

from ..score import ScoreReport, disagreements
from .score_json import DENOMINATOR
from .score_model import ScoreRun
from ..core.plural import plural


def _ids(ids: list[str], limit: int = 5) -> str:
    shown = ", ".join(ids[:limit])
    return shown + (f", ... ({len(ids)} in all)" if len(ids) > limit else "")


def write_table(report: ScoreReport, compare: bool, out: TextIO) -> None:
    """The human-readable report: per-scorer figures, then every coverage problem with example ids."""
    out.write(f"gold {report.gold_source} ({plural(report.n_gold, 'item')}, {report.dialect}); "
              f"predictions {report.pred_source} ({plural(report.n_predictions, 'record')})\n")
    out.write(f"n = {report.n}: {DENOMINATOR}\n\n")
    out.write(f"{'scorer':<18} {'execution':>20} {'program':>20}\n")
    for name, figures in report.scorers.items():
        exe = f"{figures.execution_correct}/{figures.n} {figures.execution_accuracy:.4f}"
        prog = "-" if figures.program_correct is None else (
            f"{figures.program_correct}/{figures.n} {figures.program_accuracy:.4f}")
        out.write(f"{name:<18} {exe:>20} {prog:>20}\n")
    headline = report.scorers[report.headline]
    out.write(f"\n{report.headline}: execution accuracy {headline.execution_accuracy!r}, "
              f"program accuracy {headline.program_accuracy!r}\n")
    problems = [("predictions not in the gold (left out of n)", report.unknown_ids),
                ("repeated prediction ids (each counted)", report.duplicate_ids),
                ("gold items without a prediction", report.missing_ids),
                ("unreadable prediction records", report.unreadable),
                ("items the official script would abort on (assert)", report.would_abort_ids),
                ("items whose gold program the official script cannot symbolise", report.gold_error_ids),
                ("items stopped by the per-item clock (item_time_limit): every figure above is a lower bound",
                 report.stopped_by_clock_ids)]
    for label, ids in problems:
        if ids:
            out.write(f"{label}: {len(ids)}: {_ids(ids)}\n")
    if compare:
        out.write("\ndisagreements between scorers\n")
        for row in disagreements(report):
            pair = " vs ".join(row["scorers"])
            examples = f"  e.g. {', '.join(row['examples'])}" if row["examples"] else ""
            out.write(f"  {pair:<36} {row['measure']:<10} {row['disagree']:>6}{examples}\n")


@dataclass(frozen=True, slots=True)
class TextReporter:
    """The terminal table; ``compare`` adds the disagreements between every pair of scorers."""

    compare: bool = False
    report_type: str = "text"

    def report(self, model: ScoreRun, outfile: TextIO) -> None:
        write_table(model.report, self.compare, outfile)
