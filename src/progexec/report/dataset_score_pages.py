"""score.md and score.html for a dialect scored by its own official scorer (MultiHiertt, MathQA, ...).

Both pages show what ``score`` prints (the dialect's table and headline) and one row per gold question
(its ``--items`` record), so ``score --out DIR`` writes for every dataset the four files FinQA's run writes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..core.limits import current
from ..records import json_value



def _columns(questions: Sequence[dict[str, Any]]) -> list[str]:
    columns: list[str] = []
    for record in questions:
        for key in record:
            if key not in columns and len(columns) < current().score_page_columns:
                columns.append(key)
    return columns


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(json_value(value), ensure_ascii=False, sort_keys=True)


def _cell(value: Any) -> str:
    return _text(value).replace("|", "\\|").replace("\n", " ")


def render_markdown(title: str, gold: str, pred: str, headline: str, table: Sequence[str],
                    questions: Sequence[dict[str, Any]]) -> str:
    """The score.md text: the run, the dialect's own table, then one row per question."""
    columns = _columns(questions)
    lines = [f"# progexec scoring report: {title}", "", f"Gold {gold}; predictions {pred}. {headline}.", "", "```",
             *table, "```", "", f"## Questions: {len(questions)}", ""]
    if columns:
        lines += ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
        lines += ["| " + " | ".join(_cell(record.get(key, "")) for key in columns) + " |" for record in questions]
    return "\n".join(lines) + "\n"


def render_html(title: str, gold: str, pred: str, headline: str, table: Sequence[str],
                questions: Sequence[dict[str, Any]]) -> str:
    """The score.html page (``dataset_score.html.j2``, a section of the shared page), the same content as score.md."""
    from .templates import Column, Row, Table, render

    columns = _columns(questions)
    rows = [Row(tuple(_text(record.get(key, "")) for key in columns)) for record in questions]
    return render("dataset_score.html.j2", title=title, gold=gold, pred=pred, headline=headline,
                  lines="\n".join(table), columns=[Column(column) for column in columns], table=Table(rows),
                  count=len(questions))


__all__ = ["render_html", "render_markdown"]
