"""FinanceReasoning outputs: the text leaderboard, the divergence report, the JSON document, the HTML pages
and the gold check's report. Runs are listed by mode (pot, then cot), then official accuracy, highest
first, then name; nothing depends on the clock, so reruns print the same bytes."""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..pysolution.html_page import SORT_SCRIPT, STYLE, page_name
from ...records import FORMAT_VERSION
from .goldcheck import GoldCheck, counts_by_convention, counts_by_source
from .rule import DIVERGENCE_CLASSES
from .scoring import Item, ModelScore

TITLE = "FinanceReasoning"


def ranked(models: Sequence[ModelScore]) -> list[ModelScore]:
    return sorted(models, key=lambda model: (model.mode != "pot", -model.avg_accuracy, model.name))


def table(models: Sequence[ModelScore], problems: Sequence[str], isolation: str, by_source: bool = False) -> str:
    """The leaderboard as aligned text, with the official figures, strict accuracy and the divergence counts."""
    rows = ranked(models)
    width = max([len("model")] + [len(model.name) for model in rows])
    lines = [f"score-python: {TITLE}, {len(rows)} run(s); isolation: {isolation}",
             f"{'model':<{width}}  mode  {'n':>4}  {'accuracy':>8}  {'exec_rate':>9}  {'strict':>6}  "
             f"{'official_only':>13}  {'eval_text':>9}  published"]
    for model in rows:
        summary = model.summary()
        published = (f"{summary['published_items'] - len(summary['published_disagreements'])}/"
                     f"{summary['published_items']} agree" if summary["published_items"] else "-")
        lines.append(f"{model.name:<{width}}  {model.mode:<4}  {len(model.items):>4}  {model.avg_accuracy:>8.2f}  "
                     f"{model.avg_execution_rate:>9.2f}  {model.strict_accuracy:>6.2f}  "
                     f"{summary['official_only']:>13}  {len(summary['eval_text']):>9}  {published}")
        if by_source:
            for source, figures in model.by_source().items():
                label = f"  {source or '(no source)'}"
                lines.append(f"{label:<{width}}        {figures['n']:>4}  {figures['avg_accuracy']:>8.2f}  "
                             f"{figures['avg_execution_rate']:>9.2f}  {figures['strict_accuracy']:>6.2f}")
        notes = []
        if summary["eval_text"]:
            notes.append("text evaluated in the sandbox (eval_text): " + ", ".join(map(str, summary["eval_text"])))
        if summary["official_stops_or_hangs"]:
            notes.append("the official evaluator would stop or hang at: "
                         + ", ".join(map(str, summary["official_stops_or_hangs"])))
        if summary["published_disagreements"]:
            notes.append("differs from the published result: " + ", ".join(map(str, summary["published_disagreements"])))
        if model.unknown:
            notes.append(f"{len(model.unknown)} prediction(s) naming no gold question (not scored)")
        if model.bad_records:
            notes.append(f"{len(model.bad_records)} unreadable prediction record(s)")
        if summary["wall_clock_stops"]:
            notes.append(f"{summary['wall_clock_stops']} solution(s) stopped by the 10 s wall clock")
        lines += [f"  note: {note}" for note in notes]
    lines += problems[:20]
    return "\n".join(lines) + "\n"


def _example(item: Item) -> dict[str, Any]:
    return {"question_id": item.id, "value": item.prediction.shown() if item.prediction else None,
            "ground_truth": item.ground_truth}


def divergence_report(models: Sequence[ModelScore], examples: int = 3) -> dict[str, Any]:
    """Per run, the official-correct answers strict rejects, by class, with examples; and the totals."""
    totals = dict.fromkeys(DIVERGENCE_CLASSES, 0)
    runs = []
    for model in ranked(models):
        counts = model.divergences()
        for name, count in counts.items():
            totals[name] = totals.get(name, 0) + count
        shown = {name: [_example(item) for item in model.items if item.divergence == name][:examples]
                 for name in counts if counts[name]}
        runs.append({"model": model.name, "mode": model.mode, "official_correct": sum(i.acc for i in model.items),
                     "strict_rejects": sum(counts.values()), "by_class": counts, "examples": shown})
    return {"totals": totals, "models": runs}


def divergence_text(models: Sequence[ModelScore]) -> str:
    report = divergence_report(models, examples=1)
    lines = [f"official-correct answers the strict rule rejects, by class ({'  '.join(DIVERGENCE_CLASSES)}):"]
    for run in report["models"]:
        counts = ", ".join(f"{name} {count}" for name, count in run["by_class"].items() if count) or "none"
        lines.append(f"{run['model']} ({run['mode']}): {run['strict_rejects']} of {run['official_correct']} ({counts})")
        for name, items in run["examples"].items():
            for item in items:
                lines.append(f"    {name}: {item['question_id']}: value {item['value']}, gold {item['ground_truth']!r}")
    lines.append("total: " + ", ".join(f"{name} {count}" for name, count in report["totals"].items()))
    return "\n".join(lines) + "\n"


def document(models: Sequence[ModelScore], problems: Sequence[str], isolation: str, meta: dict[str, Any] | None,
             with_items: bool = True) -> dict[str, Any]:
    doc: dict[str, Any] = {"format_version": FORMAT_VERSION, **({"meta": meta} if meta is not None else {}),
                           "dataset": "financereasoning", "isolation": isolation,
                           "models": [model.summary() | {"sources": model.by_source()} for model in ranked(models)],
                           "divergences": divergence_report(models), "gold_problems": list(problems)}
    if with_items:
        doc["items"] = [item.record() for model in ranked(models) for item in model.items + model.unknown]
    return doc


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{STYLE}</style></head><body>\n{body}\n<script>{SORT_SCRIPT}</script></body></html>\n")


def _model_file(model: ModelScore) -> str:
    return page_name(f"{model.mode}-{model.name}")


def index_page(models: Sequence[ModelScore], isolation: str) -> str:
    rows = []
    for model in ranked(models):
        counts = model.divergences()
        cells = "".join(f"<td>{counts[name]}</td>" for name in DIVERGENCE_CLASSES)
        rows.append(f"<tr><td class='l'><a href='{_model_file(model)}'>{html.escape(model.name)}</a></td>"
                    f"<td class='l'>{model.mode}</td><td>{len(model.items)}</td><td>{model.avg_accuracy:.2f}</td>"
                    f"<td>{model.avg_execution_rate:.2f}</td><td>{model.strict_accuracy:.2f}</td>{cells}"
                    f"<td>{sum(item.eval_text for item in model.items)}</td></tr>")
    classes = "".join(f"<th>{html.escape(name)}</th>" for name in DIVERGENCE_CLASSES)
    body = (f"<h1>{TITLE}: leaderboard</h1><p>isolation: {html.escape(isolation)}. Accuracy and execution rate "
            "follow the official rule and get_statistics' rounding; strict is progexec's rule; the class columns "
            "count official-correct answers strict rejects; eval_text counts answers whose text the official "
            "normalize evaluates (run in the sandbox here). Click a column to sort.</p>"
            "<table><thead><tr><th class='l'>model</th><th class='l'>mode</th><th>n</th><th>accuracy</th>"
            f"<th>execution rate</th><th>strict accuracy</th>{classes}<th>eval_text</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")
    return _page(f"{TITLE} leaderboard", body)


def model_page(model: ModelScore) -> str:
    rows = []
    for item in model.items + model.unknown:
        kind = "d" if item.divergence else ("w" if not item.acc else "")
        shown = item.prediction.shown() if item.prediction else ""
        judged = item.judged.shown() if item.judged else ""
        message = html.escape(item.message or "; ".join(item.notes) or ("code" if model.mode == "pot" else "answer"))
        rows.append(
            f"<tr class='{kind}'><td class='l'>{html.escape(str(item.id))}</td><td class='l'>"
            f"{html.escape(item.source)}</td><td class='l'>{html.escape(item.status)}</td>"
            f"<td class='l'>{html.escape(shown)}</td><td class='l'>{html.escape(judged)}</td>"
            f"<td>{html.escape(repr(item.ground_truth))}</td><td>{item.acc}</td><td>{item.execution_rate}</td>"
            f"<td>{item.strict}</td><td class='l'>{html.escape(item.divergence or '')}</td>"
            f"<td>{'yes' if item.eval_text else ''}</td><td class='l'><details><summary>{message}</summary>"
            f"<pre>{html.escape(item.code)}</pre></details></td></tr>")
    body = (f"<p><a href='index.html'>leaderboard</a></p><h1>{html.escape(model.name)} ({model.mode})</h1>"
            f"<p>accuracy {model.avg_accuracy:.2f}, execution rate {model.avg_execution_rate:.2f}, strict accuracy "
            f"{model.strict_accuracy:.2f} over {len(model.items)} predictions.</p>"
            "<table><thead><tr><th class='l'>question</th><th class='l'>source</th><th class='l'>status</th>"
            "<th class='l'>value</th><th class='l'>as judged</th><th>ground truth</th><th>acc</th><th>executed</th>"
            "<th>strict</th><th class='l'>divergence</th><th>eval_text</th><th class='l'>code / answer</th>"
            f"</tr></thead><tbody>{''.join(rows)}</tbody></table>")
    return _page(f"{model.name}: {TITLE}", body)


def pages(models: Sequence[ModelScore], isolation: str) -> list[tuple[str, str]]:
    """The HTML leaderboard: ``index.html`` and one page per model, as (file name, text)."""
    return [("index.html", index_page(models, isolation))] + [(_model_file(model), model_page(model))
                                                             for model in models]


def gold_text(checks: Sequence[GoldCheck], problems: Sequence[str], isolation: str) -> str:
    """The gold check: counts by source and by convention, then every failing gold."""
    failing = [check for check in checks if not check.acc]
    lines = [f"score-python --check-gold: {TITLE}, {len(checks)} gold solutions, {len(failing)} fail their own "
             f"ground_truth under the official rule; isolation: {isolation}",
             f"{'source':<18}  {'n':>5}  {'acc':>5}  {'fail':>5}  {'not_run':>7}"]
    for source, row in counts_by_source(checks).items():
        lines.append(f"{source:<18}  {row['n']:>5}  {row['acc']:>5}  {row['fail']:>5}  {row['not_run']:>7}")
    lines.append("conventions: " + ", ".join(f"{name} {count}" for name, count in counts_by_convention(checks).items()))
    for check in failing:
        record = check.record()
        lines.append(f"  {record['question_id']} ({record['source']}, {record['convention']}): {record['status']}, "
                     f"value {record['value']}, ground_truth {record['ground_truth']!r}"
                     + (f": {record['message']}" if record["message"] else ""))
    lines += problems[:20]
    return "\n".join(lines) + "\n"


def gold_document(checks: Sequence[GoldCheck], problems: Sequence[str], isolation: str,
                  meta: dict[str, Any] | None) -> dict[str, Any]:
    return {"format_version": FORMAT_VERSION, **({"meta": meta} if meta is not None else {}),
            "dataset": "financereasoning", "isolation": isolation, "n": len(checks),
            "failing": sum(1 for check in checks if not check.acc), "by_source": counts_by_source(checks),
            "by_convention": counts_by_convention(checks), "problems": list(problems),
            "golds": [check.record() for check in checks]}
