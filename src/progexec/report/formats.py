"""Every reporter of every run model, by format: the public ``render_*`` and ``write_*`` functions.

A model is a divergence :class:`~progexec.report.model.Report` (``progexec report``) or a scoring
run (:class:`~progexec.report.score_model.ScoreRun`, or a bare ``ScoreReport`` from
``progexec.score``); each format is one reporter, the same one the command line uses.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Union

from ..core.errors import OptionError
from ..score.results import ScoreReport
from .model import Report
from .reporter import Reporter, render, write
from .score_model import ScoreRun, as_score_run

Model = Union[Report, ScoreRun, ScoreReport]
"""What the public functions accept."""

REPORT_TYPES = ("json", "markdown", "html", "text")


UnknownFormatError = OptionError
"""The documented name of a report type no reporter writes (an :class:`~progexec.errors.OptionError`; the message says what and where)."""


def reporter_for(model: Model, report_type: str) -> tuple[Reporter[Any], Report | ScoreRun]:
    """The reporter of ``report_type`` for ``model``'s job, and the model it takes."""
    if isinstance(model, Report):
        from . import html_report, json_report, markdown, text_report
        table: dict[str, Reporter[Any]] = {"json": json_report.JsonReporter(), "markdown": markdown.MarkdownReporter(),
                                           "html": html_report.HtmlReporter(), "text": text_report.TextReporter()}
        chosen: Report | ScoreRun = model
    elif isinstance(model, (ScoreRun, ScoreReport)):
        from . import score_html, score_json, score_markdown, score_text
        table = {"json": score_json.JsonReporter(), "markdown": score_markdown.MarkdownReporter(),
                 "html": score_html.HtmlReporter(), "text": score_text.TextReporter()}
        chosen = as_score_run(model)
    else:
        raise OptionError(f"no reporter for a {type(model).__name__}: pass a Report, a ScoreRun or a ScoreReport")
    if report_type not in table:
        raise OptionError(f"unknown report type {report_type!r}; choose from {', '.join(REPORT_TYPES)}")
    return table[report_type], chosen


def render_as(model: Model, report_type: str) -> str:
    """``model`` in the format ``report_type`` (``json``, ``markdown``, ``html``, ``text``) as a string."""
    reporter, chosen = reporter_for(model, report_type)
    return render(reporter, chosen)


def write_as(model: Model, path: str | Path, report_type: str) -> Path:
    """Write ``model`` in the format ``report_type`` to ``path``; return the path."""
    reporter, chosen = reporter_for(model, report_type)
    return write(reporter, chosen, path)


def render_json(model: Model) -> str:
    """The JSON document (report.json or score.json) as text."""
    return render_as(model, "json")


def render_markdown(model: Model) -> str:
    """The Markdown page (report.md or score.md) as text."""
    return render_as(model, "markdown")


def render_html(model: Model) -> str:
    """The self-contained HTML page (report.html or score.html) as text."""
    return render_as(model, "html")


def render_text(model: Model) -> str:
    """The terminal summary the command prints."""
    return render_as(model, "text")


def write_json(model: Model, path: str | Path) -> Path:
    """Write the JSON document to ``path``."""
    return write_as(model, path, "json")


def write_markdown(model: Model, path: str | Path) -> Path:
    """Write the Markdown page to ``path``."""
    return write_as(model, path, "markdown")


def write_html(model: Model, path: str | Path) -> Path:
    """Write the HTML page to ``path`` (open it in a browser; it fetches nothing)."""
    return write_as(model, path, "html")
