"""The reports: one run model per job, one reporter per format (JSON, Markdown, HTML, text).

``render_html(model)`` / ``write_html(model, path)`` and their ``json``, ``markdown`` and ``text``
twins take a divergence :class:`Report` (``build_report``) or a scoring run (:class:`ScoreRun`, or
the ``ScoreReport`` that ``progexec.score`` returns); :class:`Reporter` is the protocol behind them.
"""

from ..records import FORMAT_VERSION
from .formats import (REPORT_TYPES, UnknownFormatError, render_as, render_html, render_json, render_markdown,
                      render_text, reporter_for, write_as, write_html, write_json, write_markdown)
from .model import Report, build_report
from .reporter import Reporter
from .score_model import ScoreRun

__all__ = ["FORMAT_VERSION", "REPORT_TYPES", "Report", "Reporter", "ScoreRun", "UnknownFormatError", "build_report",
           "render_as", "render_html", "render_json", "render_markdown", "render_text", "reporter_for", "write_as",
           "write_html", "write_json", "write_markdown"]
