"""Write the scoring reports of one run into a directory: score.json, items.jsonl, score.md, score.html."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..score.results import GoldItem, Prediction, ScoreReport
from .reporter import write
from .score_html import HtmlReporter
from .score_json import ItemsReporter, JsonReporter
from .score_markdown import MarkdownReporter
from .score_model import ScoreRun


def write_score_report(report: ScoreReport, items: Sequence[GoldItem], out_dir: Path,
                       predictions: Sequence[Prediction] = ()) -> tuple[Path, Path]:
    """Write ``score.md`` and ``score.html`` into ``out_dir`` (created if needed); return their paths.

    ``items`` are the gold items the report was scored against and ``predictions`` the
    prediction records; both only supply program texts for the detail views.
    """
    run = ScoreRun(report, items, predictions)
    out_dir.mkdir(parents=True, exist_ok=True)
    return write(MarkdownReporter(), run, out_dir / "score.md"), write(HtmlReporter(), run, out_dir / "score.html")


def write_score_dir(run: ScoreRun, out_dir: Path) -> list[Path]:
    """``score --out DIR``: score.json (with the disagreements), items.jsonl, score.md and score.html, all
    from the one run model; the directory is created if needed. Raises ``OSError`` when it cannot be written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    return [write(JsonReporter(compare=True), run, out_dir / "score.json"),
            write(ItemsReporter(), run, out_dir / "items.jsonl"),
            *write_score_report(run.report, run.gold, out_dir, run.predictions)]
