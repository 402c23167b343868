"""Write the scoring report: ``score.md`` (plain text) and ``score.html`` (sortable, filterable, self-contained)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..score.results import GoldItem, Prediction, ScoreReport
from . import score_html, score_markdown
from .score_views import views


def write_score_report(report: ScoreReport, items: Sequence[GoldItem], out_dir: Path,
                       predictions: Sequence[Prediction] = ()) -> tuple[Path, Path]:
    """Write ``score.md`` and ``score.html`` into ``out_dir`` (created if needed); return their paths.

    ``items`` are the gold items the report was scored against and ``predictions`` the
    prediction records; both only supply program texts for the detail views.
    """
    data = views(report, items, predictions)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = (out_dir / "score.md", out_dir / "score.html")
    for path, text in zip(paths, (score_markdown.render(data), score_html.render(data))):
        path.write_text(text, encoding="utf-8", newline="\n")
    return paths
