"""The divergence report as one line of text: what ``report`` prints on standard error."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO

from .json_report import summary
from .model import Report
from ..core.plural import plural


def render(report: Report) -> str:
    """Programs, the divergent count per rounder and the programs with findings, on one line (no newline)."""
    figures = summary(report)
    divergent = ", ".join(f"{name} {count}" for name, count in figures["divergent"].items())
    return (f"report: {plural(figures['programs'], 'program')}; divergent from the official answer: {divergent}; "
            f"{plural(figures['programs_with_findings'], 'program')} with findings")


@dataclass(frozen=True, slots=True)
class TextReporter:
    """The one-line summary, with its newline."""

    report_type: str = "text"

    def report(self, model: Report, outfile: TextIO) -> None:
        outfile.write(render(model) + "\n")
