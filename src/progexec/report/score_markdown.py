"""score.md: the plain-text twin of score.html (same sections), for a pull-request comment or a terminal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO

from .score_model import ScoreRun
from .score_views import MEASURES, ScoreViews, verdict_of, views
from ..core.plural import plural
from ..core.limits import DEFAULT_LIMITS, current

EXAMPLES = DEFAULT_LIMITS.score_markdown_examples
"""Ids listed per failure group, disagreement or coverage problem; every id is in items.jsonl."""


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _value(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return repr(value) if isinstance(value, float) else str(value)


def _ratio(correct: int | None, n: int) -> str:
    return "-" if correct is None else f"{correct / n:.4f}" if n else "0.0000"


def _ids(ids: list[str]) -> str:
    shown = ", ".join(_cell(item_id) for item_id in ids[:current().score_markdown_examples])
    return (shown + (f", ... ({len(ids)} in all)" if len(ids) > current().score_markdown_examples else "")) or "none"


def render(data: ScoreViews) -> str:
    """The whole score.md text."""
    report = data.report
    official = report.scorers[report.headline]
    coverage = ", ".join(f"{row.key} {len(row.entries)}" for row in data.coverage)
    aborts = len(report.would_abort_ids)
    lines = ["# progexec scoring report", "",
             f"Gold {report.gold_source} ({plural(report.n_gold, 'item')}, {report.dialect}); predictions "
             f"{report.pred_source} ({plural(report.n_predictions, 'record')}); n = {report.n}. {report.headline.capitalize()} execution accuracy "
             f"**{_ratio(official.execution_correct, official.n)}**, program accuracy "
             f"**{_ratio(official.program_correct, official.n)}**. The official script would abort on "
             f"{aborts} item{'' if aborts == 1 else 's'}. Coverage: {coverage}.", "",
             *([f"**The per-item clock stopped {plural(len(report.stopped_by_clock_ids), 'item')} "
                f"(stopped_by_clock): every "
                "figure in this report is a lower bound that depends on the machine.**", ""]
               if report.stopped_by_clock_ids else []),
             "## Metrics per scorer", "",
             "| scorer | n | execution correct | execution accuracy | program correct | program accuracy |",
             "|---|---|---|---|---|---|"]
    for name, figures in report.scorers.items():
        program = "-" if figures.program_correct is None else str(figures.program_correct)
        lines.append(f"| {name} | {figures.n} | {figures.execution_correct} | "
                     f"{_ratio(figures.execution_correct, figures.n)} | {program} | "
                     f"{_ratio(figures.program_correct, figures.n)} |")
    aborting = [item for item in report.items if item.would_abort]
    lines += ["", f"## Items where the official script would abort: {len(aborting)}", ""]
    if aborting:
        lines += ["| id | gold | official value | decided by |", "|---|---|---|---|"]
        lines += [f"| {_cell(item.id)} | {_cell(_value(item.gold_value))} | {_cell(_value(item.official_value))} | "
                  f"{item.decided_by} |" for item in aborting]
    else:
        lines.append("None: the official script runs to the end.")
    lines += ["", "## Failures grouped by reason", ""]
    if data.failures:
        lines += ["| scorer | measure | reason | items | the items |", "|---|---|---|---|---|"]
        lines += [f"| {group.scorer} | {group.measure} | `{_cell(group.reason)}` | {len(group.items)} | "
                  f"{_ids([report.items[index].id for index in group.items])} |" for group in data.failures]
    else:
        lines.append("No item fails any scorer.")
    lines += ["", "## Disagreements between scorers", ""]
    if data.disagreements:
        lines += ["| scorers | measure | items | the items |", "|---|---|---|---|"]
        lines += [f"| {row.first} vs {row.second} | {row.measure} | {len(row.items)} | "
                  f"{_ids([report.items[index].id for index in row.items])} |" for row in data.disagreements]
    else:
        lines.append("Only one scorer ran: nothing to compare.")
    lines += ["", "## Coverage", "", "| problem | count | ids |", "|---|---|---|"]
    lines += [f"| {row.label} | {len(row.entries)} | {_ids(list(row.entries))} |" for row in data.coverage]
    listed = [item for item in report.items
              if any(verdict_of(item, scorer, measure)[0] is False for scorer in report.scorers for measure in MEASURES)]
    lines += ["", f"## Scored items: {len(report.items)}", "",
              f"Listed here: the {plural(len(listed), 'item')} some scorer does not count correct (score.html and "
              f"items.jsonl "
              "have every item).", ""]
    if listed:
        scorers = list(report.scorers)
        lines += ["| id | gold | official value | " + " | ".join(scorers) + " |",
                  "|---|---|---|" + "---|" * len(scorers)]
        for item in listed:
            cells = []
            for scorer in scorers:
                marks = []
                for measure in MEASURES:
                    correct, why = verdict_of(item, scorer, measure)
                    if correct is not None:
                        marks.append(("ok" if correct else f"`{_cell(why)}`") if measure == "execution"
                                     else f"program {'ok' if correct else f'`{_cell(why)}`'}")
                cells.append("; ".join(marks))
            lines.append(f"| {_cell(item.id)} | {_cell(_value(item.gold_value))} | "
                         f"{_cell(_value(item.official_value))} | " + " | ".join(cells) + " |")
    lines.append("")
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class MarkdownReporter:
    """score.md: the scoring run in plain text, the same sections as score.html."""

    report_type: str = "markdown"

    def report(self, model: ScoreRun, outfile: TextIO) -> None:
        outfile.write(render(views(model.report, model.gold, model.predictions)))
