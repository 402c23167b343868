"""A leaderboard's outputs: the text table (optionally per topic), the JSON document, the divergence report.

Models are listed as the official results file lists them: by accuracy, highest first
(ties by name, so the order is deterministic). Nothing here depends on the clock or the
machine, so two runs over the same files print the same bytes.
"""

from __future__ import annotations

from typing import Any

from .scoring import Item, Leaderboard, ModelScore
from .strict import DIVERGENCE_CLASSES

from ...records import FORMAT_VERSION  # the one version of every output (its change log is there)
from ...core.plural import plural


def ranked(leaderboard: Leaderboard) -> list[ModelScore]:
    """The models by official accuracy, highest first, then by name."""
    return sorted(leaderboard.models, key=lambda model: (-model.accuracy, model.name))


def _headline(leaderboard: Leaderboard) -> str:
    usable = sum(1 for question in leaderboard.gold if question.problem is None)
    libraries = ", ".join(f"{name} {version}" for name, version in sorted(leaderboard.libraries.items())) or "none"
    return (f"score-python: {leaderboard.dataset.title}, {plural(len(leaderboard.gold), 'gold question')} ({usable} "
            f"usable), "
            f"{plural(len(leaderboard.models), 'model')}; isolation: {leaderboard.isolation}; libraries: {libraries}")


def table(leaderboard: Leaderboard, by_topic: bool = False) -> str:
    """The leaderboard as aligned text: model, n, accuracy, execution rate, strict accuracy, official-only."""
    models = ranked(leaderboard)
    width = max([len("model")] + [len(model.name) for model in models])
    lines = [_headline(leaderboard),
             f"{'model':<{width}}  {'n':>4}  {'accuracy':>8}  {'exec_rate':>9}  {'strict':>6}  {'official_only':>13}"]
    for model in models:
        official_only = sum(model.divergences().values())
        lines.append(f"{model.name:<{width}}  {len(model.items):>4}  {model.accuracy:>8.2f}  "
                     f"{model.execution_rate:>9.2f}  {model.strict_accuracy:>6.2f}  {official_only:>13}")
        if by_topic:
            for topic, figures in sorted(model.by_topic().items()):
                label = f"  {topic or '(no topic)'}"
                lines.append(f"{label:<{width}}  {figures['n']:>4}  {figures['accuracy']:>8.2f}  "
                             f"{figures['execution_rate']:>9.2f}  {figures['strict_accuracy']:>6.2f}")
        notes = []
        if model.missing:
            notes.append(f"{plural(len(model.missing), 'gold question')} without a prediction")
        if model.unknown:
            notes.append(f"{plural(len(model.unknown), 'prediction')} naming no gold question (not scored)")
        if model.bad_records:
            notes.append(f"{plural(len(model.bad_records), 'unreadable prediction record')}")
        if model.wall_clock_stops():
            notes.append(f"{plural(model.wall_clock_stops(), 'solution')} stopped by the wall-clock backstop, not "
                         f"the CPU "
                         "limit: their verdict may depend on the machine's load")
        if notes:
            lines.append(f"  note: {'; '.join(notes)}")
    bad_gold = [question for question in leaderboard.gold if question.problem is not None]
    for question in bad_gold[:20]:
        message = question.result.message if question.result is not None else ""
        lines.append(f"gold line {question.line} ({question.id}): {question.problem}"
                     + (f": {message}" if message else ""))
    return "\n".join(lines) + "\n"


def _example(item: Item) -> dict[str, Any]:
    return {"question_id": item.id, "value": item.record()["value"], "gold": item.record()["gold"]}


def divergence_report(leaderboard: Leaderboard, examples: int = 3) -> dict[str, Any]:
    """Per model, how many official "correct" answers strict rejects, by class, with examples; and totals."""
    totals = dict.fromkeys(DIVERGENCE_CLASSES, 0)
    models = []
    for model in ranked(leaderboard):
        counts = model.divergences()
        for name, count in counts.items():
            totals[name] += count
        shown = {name: [_example(item) for item in model.items if item.divergence == name][:examples]
                 for name in DIVERGENCE_CLASSES if counts[name]}
        models.append({"model": model.name, "official_correct": sum(item.official for item in model.items),
                       "strict_rejects": sum(counts.values()), "by_class": counts, "examples": shown})
    return {"totals": totals, "models": models}


def divergence_text(leaderboard: Leaderboard) -> str:
    """The divergence report as text: one line per model with its counts by class, then an example each."""
    report = divergence_report(leaderboard, examples=1)
    classes = "  ".join(DIVERGENCE_CLASSES)
    lines = [f"official-correct answers the strict rule rejects, by class ({classes}):"]
    for model in report["models"]:
        counts = ", ".join(f"{name} {count}" for name, count in model["by_class"].items() if count) or "none"
        lines.append(f"{model['model']}: {model['strict_rejects']} of {model['official_correct']} ({counts})")
        for name, items in model["examples"].items():
            for item in items:
                lines.append(f"    {name}: {item['question_id']}: value {item['value']!r}, gold {item['gold']!r}")
    totals = ", ".join(f"{name} {count}" for name, count in report["totals"].items())
    lines.append(f"total: {totals}")
    return "\n".join(lines) + "\n"


def document(leaderboard: Leaderboard, meta: dict[str, Any] | None = None, with_items: bool = True) -> dict[str, Any]:
    """The JSON document: dataset, isolation, libraries, gold values, per-model figures (and topics), items."""
    doc: dict[str, Any] = {"format_version": FORMAT_VERSION, **({"meta": meta} if meta is not None else {}),
                           "dataset": leaderboard.dataset.name,
                           "isolation": leaderboard.isolation, "libraries": dict(sorted(leaderboard.libraries.items())),
                           "models": [model.summary() | {"topics": dict(sorted(model.by_topic().items()))}
                                      for model in ranked(leaderboard)],
                           "divergences": divergence_report(leaderboard),
                           "gold": leaderboard.gold_records()}
    if with_items:
        doc["items"] = [item.record() for model in leaderboard.models for item in model.items + model.unknown]
    return doc
