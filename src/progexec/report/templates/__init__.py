"""HTML pages from the Jinja2 templates shipped in this directory (and check-reward's, beside its checker):
one environment for every page progexec writes, autoescaping on; no HTML is built in Python strings.

``render("page.html.j2", ...)`` is how every progexec page is made: a page template extends
``page.html.j2`` (the self-contained shell: inline ``interactive.css`` and ``interactive.js``)
and imports the sortable, filterable table from ``tables.html.j2``. Every value is escaped unless
a template marks it safe; nothing reads the clock or the environment, so a page renders to the
same bytes on every run.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from ...core.plural import plural

__all__ = ["Column", "Filter", "Row", "Table", "anchors", "asset", "environment", "number_key", "render", "shown"]

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")
_LOCK = threading.Lock()
_ENVIRONMENT: list[jinja2.Environment] = []
_CHECKER_TEMPLATES = Path(__file__).resolve().parent.parent.parent / "checker" / "reward" / "templates"
"""check-reward's page template (``check_reward.html.j2``), kept beside its checker and loaded by the same
environment."""


@dataclass(frozen=True, slots=True)
class Column:
    """A table column: its header, whether it sorts as numbers, extra class names for its cells."""

    title: str
    numeric: bool = False
    css: str = ""


@dataclass(frozen=True, slots=True)
class Filter:
    """A drop-down over one ``data-*`` attribute of the rows (space-separated values on each row)."""

    name: str
    label: str
    options: tuple[tuple[str, str], ...]
    """(value, label) pairs."""


@dataclass(frozen=True, slots=True)
class Row:
    """A table row: what its cells show (``value``, rendered by the page's template), an optional anchor,
    the ``data-*`` values the filters test and the text the search box reads."""

    value: Any
    anchor: str | None = None
    data: tuple[tuple[str, str], ...] = ()
    text: str = ""


@dataclass(frozen=True, slots=True)
class Table:
    """The rows and drop-downs of one table; its columns, widths and wording live in the template."""

    rows: Sequence[Row]
    filters: Sequence[Filter] = field(default_factory=tuple)


def asset(name: str) -> Markup:
    """A file of this directory inlined as is (the shared CSS and script: shipped with progexec, trusted)."""
    return Markup(resources.files(__name__).joinpath(name).read_text(encoding="utf-8"))


def anchors(prefix: str, ids: Iterable[str]) -> list[str]:
    """One HTML id per entry, unique and safe both as a URL fragment and as a CSS ``#id`` selector
    (letters, digits, ``_`` and ``-`` only): ``prefix-slug``, then ``-2``, ``-3`` on repeats."""
    taken: set[str] = set()
    result = []
    for item_id in ids:
        base = f"{prefix}-{_UNSAFE.sub('-', item_id).strip('-') or 'item'}"
        anchor, suffix = base, 1
        while anchor in taken:
            suffix += 1
            anchor = f"{base}-{suffix}"
        taken.add(anchor)
        result.append(anchor)
    return result


def shown(value: object) -> str:
    """A value as the pages show it: ``none``, ``yes``/``no``, a float's ``repr``, else ``str``."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return repr(value) if isinstance(value, float) else str(value)


def number_key(value: object) -> str:
    """A sort key the script reads with ``Number()``; empty (sorted last) for non-numbers."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return ""
    if value != value:
        return ""
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return repr(value)


def environment() -> jinja2.Environment:
    """The one template environment (built on first use): autoescape on, undefined names an error."""
    with _LOCK:
        if not _ENVIRONMENT:
            loader = jinja2.ChoiceLoader([jinja2.PackageLoader("progexec.report", "templates"),
                                          jinja2.FileSystemLoader(str(_CHECKER_TEMPLATES))])
            env = jinja2.Environment(loader=loader, autoescape=True,
                                     undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                                     keep_trailing_newline=True, auto_reload=False)
            env.globals.update(asset=asset, Column=Column)
            env.filters.update(shown=shown, number_key=number_key, plural=plural)
            _ENVIRONMENT.append(env)
        return _ENVIRONMENT[0]


def render(name: str, **context: Any) -> str:
    """The template ``name`` (a file of this directory, e.g. ``report.html.j2``) rendered with ``context``."""
    return environment().get_template(name).render(**context)
