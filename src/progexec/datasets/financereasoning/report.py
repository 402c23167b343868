"""FinanceReasoning outputs: the text leaderboard, the divergence report, the JSON document, the HTML pages
and the gold check's report. Runs are listed by mode (pot, then cot), then official accuracy, highest
first, then name; nothing depends on the clock, so reruns print the same bytes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...report.templates import Column, Filter, Row, Table, render
from ..pysolution.html_page import page_name
from ...core.plural import plural
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
    lines = [f"score-python: {TITLE}, {plural(len(rows), 'run')}; isolation: {isolation}",
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
            notes.append(f"{plural(len(model.unknown), 'prediction')} naming no gold question (not scored)")
        if model.bad_records:
            notes.append(f"{plural(len(model.bad_records), 'unreadable prediction record')}")
        if summary["wall_clock_stops"]:
            notes.append(f"{plural(summary['wall_clock_stops'], 'solution')} stopped by the official wall clock")
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


def _model_file(model: ModelScore) -> str:
    return page_name(f"{model.mode}-{model.name}")


@dataclass(frozen=True, slots=True)
class RunRow:
    """One run on the leaderboard: its page, mode, counts and rates, divergences by class, eval_text items."""

    name: str
    page: str
    mode: str
    n: int
    accuracy: float
    execution_rate: float
    strict_accuracy: float
    divergences: tuple[int, ...]
    eval_text: int


@dataclass(frozen=True, slots=True)
class ItemRow:
    """One item of a run's page (plain values: the template escapes and lays them out)."""

    id: str
    source: str
    status: str
    shown: str
    judged: str
    ground_truth: str
    acc: int
    executed: int
    strict: int
    divergence: str
    eval_text: str
    message: str
    code: str


def index_page(models: Sequence[ModelScore], isolation: str) -> str:
    """The leaderboard page (``financereasoning_index.html.j2``): one row per run, each linking to its page."""
    rows = []
    for model in ranked(models):
        counts = model.divergences()
        rows.append(Row(RunRow(model.name, _model_file(model), model.mode, len(model.items), model.avg_accuracy,
                               model.avg_execution_rate, model.strict_accuracy,
                               tuple(counts[name] for name in DIVERGENCE_CLASSES),
                               sum(item.eval_text for item in model.items)), text=model.name))
    classes = [Column(name, True) for name in DIVERGENCE_CLASSES]
    return render("financereasoning_index.html.j2", title=TITLE, isolation=isolation, classes=classes,
                  table=Table(rows))


def model_page(model: ModelScore) -> str:
    """One run's items (``financereasoning_model.html.j2``): value, value as judged, both verdicts, the code."""
    rows = []
    for item in model.items + model.unknown:
        verdict = "divergence" if item.divergence else ("wrong" if not item.acc else "right")
        shown = ItemRow(str(item.id), item.source, item.status, item.prediction.shown() if item.prediction else "",
                        item.judged.shown() if item.judged else "", repr(item.ground_truth), item.acc,
                        item.execution_rate, item.strict, item.divergence or "", "yes" if item.eval_text else "",
                        item.message or "; ".join(item.notes) or ("code" if model.mode == "pot" else "answer"),
                        item.code)
        rows.append(Row(shown, data=(("verdict", verdict),), text=f"{item.id} {item.source}"))
    verdicts = (("right", "official right"), ("wrong", "official wrong"), ("divergence", "strict rejects"))
    return render("financereasoning_model.html.j2", title=TITLE, model=model, n=len(model.items),
                  table=Table(rows, (Filter("verdict", "verdict", verdicts),)))


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
