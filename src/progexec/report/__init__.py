"""The divergence report: one model, one module per format (JSON, Markdown, HTML)."""

from ..records import FORMAT_VERSION
from .model import Report, build_report

__all__ = ["FORMAT_VERSION", "Report", "build_report"]
