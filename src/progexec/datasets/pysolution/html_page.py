"""The HTML leaderboard: one sortable page of models, and one page per model with every item's code,
value, gold value and both verdicts. Self-contained (inline CSS and a few lines of script), no network."""

from __future__ import annotations

import html
import re
from pathlib import Path

from .report import ranked
from .scoring import Leaderboard, ModelScore
from ...core.plural import plural

STYLE = ("body{font-family:system-ui,sans-serif;margin:1.5em;}table{border-collapse:collapse;}"
         "th,td{border:1px solid #ccc;padding:2px 6px;text-align:right;}td.l,th.l{text-align:left;}"
         "th{cursor:pointer;background:#eee;}tr.w td{background:#fff3f3;}tr.d td{background:#fff8e0;}"
         "pre{margin:0;font-size:12px;text-align:left;white-space:pre-wrap;}")
SORT_SCRIPT = """
document.querySelectorAll('th').forEach(function (th, column) {
  th.addEventListener('click', function () {
    var body = th.closest('table').tBodies[0], rows = Array.from(body.rows);
    var up = th.dataset.up !== '1'; th.dataset.up = up ? '1' : '0';
    rows.sort(function (a, b) {
      var x = a.cells[column].dataset.v || a.cells[column].textContent;
      var y = b.cells[column].dataset.v || b.cells[column].textContent;
      var nx = parseFloat(x), ny = parseFloat(y);
      var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
      return up ? c : -c;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  });
});
"""


def page_name(model: str) -> str:
    """The file name of a model's page: its name with anything but letters, digits, '-', '_' and '.' replaced."""
    return "model-" + re.sub(r"[^A-Za-z0-9._-]", "_", model) + ".html"


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{STYLE}</style></head><body>\n{body}\n<script>{SORT_SCRIPT}</script></body></html>\n")


def index_page(leaderboard: Leaderboard) -> str:
    """The leaderboard page: one row per model, every column sortable, each model linking to its page."""
    rows = []
    for model in ranked(leaderboard):
        divergences = model.divergences()
        cells = "".join(f"<td>{divergences[name]}</td>" for name in divergences)
        rows.append(f"<tr><td class='l'><a href='{page_name(model.name)}'>{html.escape(model.name)}</a></td>"
                    f"<td>{len(model.items)}</td><td>{model.accuracy:.2f}</td><td>{model.execution_rate:.2f}</td>"
                    f"<td>{model.strict_accuracy:.2f}</td>{cells}</tr>")
    classes = "".join(f"<th>{html.escape(name)}</th>" for name in ranked(leaderboard)[0].divergences()) \
        if leaderboard.models else ""
    libraries = ", ".join(f"{name} {version}" for name, version in sorted(leaderboard.libraries.items()))
    body = (f"<h1>{html.escape(leaderboard.dataset.title)}: program-of-thought leaderboard</h1>"
            f"<p>{plural(len(leaderboard.gold), 'gold question')}; isolation: {html.escape(leaderboard.isolation)}; "
            f"libraries in the sandbox: {html.escape(libraries or 'none')}. Accuracy and execution rate follow "
            "the official rule and rounding; strict is progexec's rule; the last columns count the official "
            "correct answers strict rejects, by class. Click a column to sort.</p>"
            "<table><thead><tr><th class='l'>model</th><th>n</th><th>accuracy</th><th>execution rate</th>"
            f"<th>strict accuracy</th>{classes}</tr></thead><tbody>{''.join(rows)}</tbody></table>")
    return _page(f"{leaderboard.dataset.title} leaderboard", body)


def model_page(leaderboard: Leaderboard, model: ModelScore) -> str:
    """One model's items: question, topic, status, value, gold, both verdicts, divergence class, the code."""
    rows = []
    for item in model.items + model.unknown:
        record = item.record()
        kind = "d" if item.divergence else ("w" if not item.official else "")
        message = html.escape(item.result.message or item.note)
        rows.append(
            f"<tr class='{kind}'><td class='l'>{html.escape(str(item.id))}</td><td class='l'>"
            f"{html.escape(item.topic or '')}</td><td class='l'>{html.escape(item.result.status.value)}</td>"
            f"<td class='l'>{html.escape(str(record['shown'] if record['shown'] is not None else ''))}</td>"
            f"<td>{html.escape(str(record['gold']))}</td><td>{record['acc']}</td><td>{record['execution_rate']}</td>"
            f"<td>{record['strict']}</td><td class='l'>{html.escape(item.divergence or '')}</td>"
            f"<td class='l'><details><summary>{message or 'code'}</summary><pre>{html.escape(item.code)}</pre>"
            "</details></td></tr>")
    body = (f"<p><a href='index.html'>leaderboard</a></p><h1>{html.escape(model.name)}</h1>"
            f"<p>accuracy {model.accuracy:.2f}, execution rate {model.execution_rate:.2f}, strict accuracy "
            f"{model.strict_accuracy:.2f} over {plural(len(model.items), 'prediction')}.</p>"
            "<table><thead><tr><th class='l'>question</th><th class='l'>topic</th><th class='l'>status</th>"
            "<th class='l'>value</th><th>gold</th><th>acc</th><th>executed</th><th>strict</th>"
            "<th class='l'>divergence</th><th class='l'>code</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")
    return _page(f"{model.name}: {leaderboard.dataset.title}", body)


def write_pages(leaderboard: Leaderboard, directory: Path) -> list[Path]:
    """Write ``index.html`` and one page per model into ``directory``; the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = [directory / "index.html"]
    written[0].write_text(index_page(leaderboard), encoding="utf-8")
    for model in leaderboard.models:
        path = directory / page_name(model.name)
        path.write_text(model_page(leaderboard, model), encoding="utf-8")
        written.append(path)
    return written
