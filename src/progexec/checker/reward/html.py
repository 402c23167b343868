"""The HTML report of ``check-reward``: the JSON report rendered by its template through the one template
environment of :mod:`progexec.report.templates` (the template lives beside this module)."""

from __future__ import annotations

from typing import Any, Optional

from ...core.errors import SetupError
from ...report.templates import render
from .check import RewardReport
from .output import as_json

TEMPLATE = "check_reward.html.j2"


def as_html(report: RewardReport, meta: Optional[dict[str, Any]] = None) -> str:
    """One self-contained page: verdict, classes, forms (rates per class), examples one click away."""
    return render(TEMPLATE, report=as_json(report, meta), verdict=report.passed())
