"""The divergence report: one model, one module per format (JSON, Markdown, HTML)."""

from .model import FORMAT_VERSION, Report, build_report

__all__ = ["FORMAT_VERSION", "Report", "build_report"]
