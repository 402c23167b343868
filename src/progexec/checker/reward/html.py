"""The HTML report of ``check-reward``: the JSON report rendered by a Jinja2 template shipped as package data.

Jinja2 is the ``html`` extra (``pip install 'progexec[html]'``); without it, :func:`as_html`
raises :class:`SetupError`, which the command turns into a usage error naming the extra.
"""

from __future__ import annotations

from importlib import resources
from typing import Any, Optional

from ...core.errors import SetupError
from .check import RewardReport
from .output import as_json

TEMPLATE = "check_reward.html.j2"


def _template(name: str) -> str:
    return resources.files("progexec.checker.reward").joinpath("templates").joinpath(name).read_text(encoding="utf-8")


def as_html(report: RewardReport, meta: Optional[dict[str, Any]] = None) -> str:
    """One self-contained page: verdict, classes, forms (rates per class), examples one click away."""
    try:
        import jinja2
    except ImportError:
        raise SetupError("the HTML report needs Jinja2: pip install 'progexec[html]'") from None
    environment = jinja2.Environment(loader=jinja2.FunctionLoader(_template), autoescape=True,
                                     undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    data = as_json(report, meta)
    return environment.get_template(TEMPLATE).render(report=data, verdict=report.passed())
