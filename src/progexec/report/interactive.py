"""The string-built tables and ``{{field}}`` pages that came before the Jinja2 templates.

Superseded by :mod:`progexec.report.templates` (report.html and score.html are rendered there);
kept only for the pages not yet moved to a template (docs/architecture.md, "HTML pages"), and
removed when the last one has. Anchors and sort keys are the templates' own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from importlib import resources

from .templates import anchors, number_key
from ..core.plural import plural

__all__ = ["Cell", "Column", "Filter", "Row", "anchors", "fill", "link", "number_key", "table", "text"]


def _asset(name: str) -> str:
    return resources.files("progexec.report").joinpath(f"templates/{name}").read_text(encoding="utf-8")


def fill(template_name: str, fields: dict[str, str]) -> str:
    """The named template with every ``{{field}}`` replaced; ``{{css}}`` and ``{{script}}`` are the shared assets."""
    values = {"css": _asset("interactive.css"), "script": _asset("interactive.js"), **fields}
    return re.sub(r"\{\{(\w+)\}\}", lambda match: values[match.group(1)], _asset(template_name))


@dataclass(frozen=True, slots=True)
class Column:
    """A table column: its header and whether it sorts as numbers."""

    title: str
    numeric: bool = False
    css: str = ""
    """Extra class names for the column's cells (``nowrap``, ``id``, ``wide-text``)."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell: escaped-already HTML and, when the shown text is not it, the sort key."""

    html: str
    sort: str | None = None


@dataclass(frozen=True, slots=True)
class Row:
    """A table row: cells, an optional anchor, ``data-*`` values the filters test, the text the search box reads."""

    cells: Sequence[Cell | str]
    anchor: str | None = None
    data: tuple[tuple[str, str], ...] = ()
    text: str = ""


@dataclass(frozen=True, slots=True)
class Filter:
    """A drop-down over one ``data-*`` attribute (space-separated values on each row)."""

    name: str
    label: str
    options: tuple[tuple[str, str], ...]


def text(value: object) -> Cell:
    """A cell showing ``value`` escaped."""
    return Cell(escape(str(value)))


def link(anchor: str, label: str) -> str:
    return f'<a href="#{anchor}">{escape(label)}</a>'


def table(table_id: str, columns: Sequence[Column], rows: Sequence[Row], *, filters: Sequence[Filter] = (),
          search: str = "filter rows", compact: bool = False, empty: str = "None.",
          widths: Sequence[int] = (), heading: str = "") -> str:
    """A sortable table with a search box (and drop-downs) above it; ``empty`` when there are no rows.

    ``widths`` (percentages, one per column) fixes the layout, so long values wrap instead of
    widening the page. ``heading`` (HTML) goes on one line with the search box, to save height."""
    if not rows:
        return f"{heading}<p>{escape(empty)}</p>"
    controls = [f'<div class="controls{" headed" if heading else ""}" data-table="{table_id}">{heading}',
                f'<input type="search" placeholder="{escape(search)}" aria-label="{escape(search)}">']
    for choice in filters:
        options = "".join(f'<option value="{escape(value)}">{escape(label)}</option>' for value, label in choice.options)
        controls.append(f'<label>{escape(choice.label)} <select name="{escape(choice.name)}">'
                        f'<option value="">any</option>{options}</select></label>')
    controls.append(f'<span class="count">{plural(len(rows), "row")}</span></div>')
    head = "".join(f'<th class="sortable num" aria-sort="none" data-type="num">{escape(column.title)}</th>'
                   if column.numeric else f'<th class="sortable" aria-sort="none">{escape(column.title)}</th>'
                   for column in columns)
    body = []
    for row in rows:
        attributes = f' id="{row.anchor}"' if row.anchor else ""
        attributes += "".join(f' data-{name}="{escape(value)}"' for name, value in row.data)
        if row.text:
            attributes += f' data-text="{escape(row.text.lower())}"'
        cells = []
        for column, cell in zip(columns, row.cells):
            cell = cell if isinstance(cell, Cell) else Cell(cell)
            names = " ".join(filter(None, ("num" if column.numeric else "", column.css)))
            classes = f' class="{names}"' if names else ""
            sort = f' data-sort="{escape(cell.sort)}"' if cell.sort is not None else ""
            cells.append(f"<td{classes}{sort}>{cell.html}</td>")
        body.append(f"<tr{attributes}>{''.join(cells)}</tr>")
    css = ' class="compact"' if compact else (' class="fixed"' if widths else "")
    columns_html = "<colgroup>" + "".join(f'<col style="width:{width}%">' for width in widths) + "</colgroup>" \
        if widths else ""
    return "\n".join(["".join(controls), f'<div class="wide"><table id="{table_id}"{css}>{columns_html}<thead><tr>'
                      f"{head}</tr></thead><tbody>", *body, "</tbody></table></div>"])
