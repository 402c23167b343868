"""The reports: one run model per job, one reporter per format (JSON, Markdown, HTML, text).

``render_html(model)`` / ``write_html(model, path)`` and their ``json``, ``markdown`` and ``text``
twins take a divergence :class:`Report` (``build_report``) or a scoring run (:class:`ScoreRun`, or
the ``ScoreReport`` that ``progexec.score`` returns); :class:`Reporter` is the protocol behind them.

``progexec.report`` is a callable front for this package (made in ``progexec/__init__.py``): calling it
builds a divergence report (``progexec.report(items)`` is :func:`build_report`), and every other name is
this package's. For a notebook, :func:`to_html` and
:func:`to_markdown` render either report as text (display the HTML with
``IPython.display.HTML``); :func:`write_score_report` writes ``score.md`` and ``score.html``.
Submodules (``progexec.report.score_report``, ``html_report``, ...) load on first use.

Layer (docs/architecture.md): above ``score`` and ``reward``. May import them and every layer below; never
``datasets`` (a dataset adds its sections through its record), ``checker``, ``integrations`` or ``cli``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.lazy import lazy_exports

if TYPE_CHECKING:
    from ..records import FORMAT_VERSION
    from .formats import (REPORT_TYPES, UnknownFormatError, render_as, render_html, render_json, render_markdown,
                          render_text, reporter_for, write_as, write_html, write_json, write_markdown)
    from .model import Report, build_report
    from .reporter import Reporter
    from .score_model import ScoreRun
    from ..score.results import ScoreReport
    from ..score.sources import GoldSource, PredictionSource

__all__ = ["FORMAT_VERSION", "REPORT_TYPES", "Report", "Reporter", "ScoreRun", "UnknownFormatError", "build_report",
           "render_as", "render_html", "render_json", "render_markdown", "render_text", "reporter_for", "to_html",
           "to_markdown", "write_as", "write_html", "write_json", "write_markdown", "write_score_report"]

_SUBMODULES = frozenset({"formats", "html_report", "json_report", "legend", "markdown", "model", "plot",
                         "reporter", "score_html", "score_json", "score_markdown", "score_model", "score_report",
                         "score_text", "score_views", "templates", "text_report"})


def to_html(report: Report | ScoreReport, gold: GoldSource | None = None,
            predictions: PredictionSource | None = None) -> str:
    """A divergence report or a scoring report as one self-contained HTML page (``report.html`` /
    ``score.html``). For a scoring report, ``gold`` and ``predictions`` (paths or records, as
    ``progexec.score`` takes them) add the program texts to each item's detail."""
    from .model import Report

    if isinstance(report, Report):
        from . import html_report

        return html_report.render(report)
    from . import score_html

    return score_html.render(_score_views(report, gold, predictions))


def to_markdown(report: Report | ScoreReport, gold: GoldSource | None = None,
                predictions: PredictionSource | None = None) -> str:
    """A divergence report or a scoring report as Markdown (``report.md`` / ``score.md``)."""
    from .model import Report

    if isinstance(report, Report):
        from . import markdown

        return markdown.render(report)
    from . import score_markdown

    return score_markdown.render(_score_views(report, gold, predictions))


def write_score_report(*args: Any, **kwargs: Any) -> Any:
    """:func:`progexec.report.score_report.write_score_report` (``score.md`` and ``score.html`` into a directory)."""
    from .score_report import write_score_report as write

    return write(*args, **kwargs)


def _score_views(report: ScoreReport, gold: GoldSource | None, predictions: PredictionSource | None) -> Any:
    from ..score.sources import gold_of, predictions_of
    from .score_views import views

    return views(report, gold_of(gold)[0] if gold is not None else (),
                 predictions_of(predictions)[0] if predictions is not None else ())


_NAMES = {"FORMAT_VERSION": "..records", "Report": ".model", "build_report": ".model", "Reporter": ".reporter",
          "ScoreRun": ".score_model", **dict.fromkeys(("REPORT_TYPES", "UnknownFormatError", "render_as", "render_html",
                                                       "render_json", "render_markdown", "render_text", "reporter_for",
                                                       "write_as", "write_html", "write_json", "write_markdown"),
                                                      ".formats")}
"""Public name -> its module: loaded on first use, so that importing this package costs nothing."""

__getattr__ = lazy_exports(__name__, _NAMES, _SUBMODULES)

