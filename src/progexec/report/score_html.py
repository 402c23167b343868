"""score.html: the scoring report as one self-contained page — metrics first, then where and why items fail."""

from __future__ import annotations

from html import escape

from . import interactive as ui
from .interactive import Cell, Column, Filter, Row
from .score_views import MEASURES, ScoreViews, measures_of, verdict_of

EXAMPLES = 25
"""Item links shown per failure group or disagreement; the items table filters to all of them."""


def _value(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return repr(value) if isinstance(value, float) else str(value)


def _ratio(correct: int | None, n: int) -> str:
    return "—" if correct is None else f"{correct / n:.4f}" if n else "0.0000"


def _links(data: ScoreViews, indices: tuple[int, ...]) -> str:
    shown = ", ".join(ui.link(data.anchors[index], data.report.items[index].id) for index in indices[:EXAMPLES])
    return shown + (f" … ({len(indices)} in all)" if len(indices) > EXAMPLES else "")


def _lead(data: ScoreViews) -> str:
    report = data.report
    official = report.scorers["official"]
    coverage = ", ".join(f"{row.key} {len(row.entries)}" for row in data.coverage)
    aborts = len(report.would_abort_ids)
    return (f"Gold {escape(report.gold_source)} ({report.n_gold} items, {escape(report.dialect)}); predictions "
            f"{escape(report.pred_source)} ({report.n_predictions} records); n = {report.n}. Official execution "
            f"accuracy <strong>{_ratio(official.execution_correct, official.n)}</strong>, program accuracy "
            f"<strong>{_ratio(official.program_correct, official.n)}</strong>. The official script would "
            f'<a href="#aborts">abort on {aborts} item{"" if aborts == 1 else "s"}</a>. '
            f'<a href="#coverage">Coverage</a>: {escape(coverage)}.'
            + (f" <strong>The per-item clock stopped {len(report.stopped_by_clock_ids)} items (stopped_by_clock): "
               "every figure here is a lower bound that depends on the machine.</strong>"
               if report.stopped_by_clock_ids else ""))


def _metrics(data: ScoreViews) -> str:
    rows = []
    for name, figures in data.report.scorers.items():
        program = "—" if figures.program_correct is None else str(figures.program_correct)
        rows.append(Row([escape(name), Cell(str(figures.n), str(figures.n)),
                         Cell(str(figures.execution_correct), str(figures.execution_correct)),
                         Cell(_ratio(figures.execution_correct, figures.n), repr(figures.execution_accuracy)),
                         Cell(program, "" if figures.program_correct is None else program),
                         Cell(_ratio(figures.program_correct, figures.n),
                              "" if figures.program_accuracy is None else repr(figures.program_accuracy))],
                        f"scorer-{name}", text=name))
    columns = [Column("scorer"), Column("n", True), Column("execution correct", True),
               Column("execution accuracy", True), Column("program correct", True), Column("program accuracy", True)]
    heading = '<h2 id="metrics" class="first">Metrics per scorer</h2>'
    return ui.table("metrics-table", columns, rows, search="filter scorers", heading=heading)


def _aborts(data: ScoreViews) -> str:
    report = data.report
    rows = [Row([Cell(ui.link(data.anchors[index], item.id), item.id), escape(_value(item.gold_value)),
                 escape(_value(item.official_value)), escape(item.decided_by)], f"abort-{data.anchors[index]}",
                text=item.id)
            for index, item in enumerate(report.items) if item.would_abort]
    return ui.table("aborts-table", [Column("id"), Column("gold"), Column("official value"), Column("decided by")],
                    rows, empty="None: the official script runs to the end.", widths=(40, 20, 20, 20))


def _failures(data: ScoreViews) -> str:
    rows = [Row([escape(group.scorer), escape(group.measure), Cell(f"<code>{escape(group.reason)}</code>", group.reason),
                 Cell(str(len(group.items)), str(len(group.items))), _links(data, group.items)],
                f"fail-{group.scorer}-{group.measure}-{group.reason}",
                (("scorer", group.scorer), ("measure", group.measure)),
                f"{group.scorer} {group.measure} {group.reason}")
            for group in data.failures]
    filters = [Filter("scorer", "scorer", tuple((name, name) for name in data.report.scorers)),
               Filter("measure", "measure", tuple((name, name) for name in MEASURES))]
    return ui.table("failures-table", [Column("scorer"), Column("measure"), Column("reason"), Column("items", True),
                                       Column("the items")], rows, filters=filters, empty="No item fails any scorer.",
                    widths=(15, 12, 19, 7, 47))


def _disagreements(data: ScoreViews) -> str:
    rows = [Row([escape(f"{row.first} vs {row.second}"), escape(row.measure),
                 Cell(str(len(row.items)), str(len(row.items))), _links(data, row.items) or "none"],
                f"disagree-{row.first}-{row.second}-{row.measure}",
                (("scorer", f"{row.first} {row.second}"), ("measure", row.measure)),
                f"{row.first} {row.second} {row.measure}")
            for row in data.disagreements]
    filters = [Filter("scorer", "scorer", tuple((name, name) for name in data.report.scorers)),
               Filter("measure", "measure", tuple((name, name) for name in MEASURES))]
    return ui.table("disagreements-table", [Column("scorers"), Column("measure"), Column("items", True),
                                            Column("the items")], rows, filters=filters,
                    empty="Only one scorer ran: nothing to compare.", widths=(24, 12, 8, 56))


def _coverage(data: ScoreViews) -> str:
    rows = []
    for row in data.coverage:
        shown = ", ".join(escape(entry) for entry in row.entries[:EXAMPLES])
        if len(row.entries) > EXAMPLES:
            shown += f" … ({len(row.entries)} in all; every one is in items.jsonl)"
        rows.append(Row([escape(row.label), Cell(str(len(row.entries)), str(len(row.entries))), shown or "none"],
                        f"coverage-{row.key}", text=f"{row.label} {' '.join(row.entries)}"))
    return ui.table("coverage-table", [Column("problem"), Column("count", True), Column("ids")], rows,
                    widths=(30, 8, 62))


def _verdict_cell(data: ScoreViews, index: int, scorer: str) -> Cell:
    item = data.report.items[index]
    parts, key = [], ""
    for measure in MEASURES:
        correct, why = verdict_of(item, scorer, measure)
        if correct is None:
            continue
        mark = ('<span class="badge good">✓</span>' if correct
                else f'<span class="badge bad">✗</span> <code>{escape(why)}</code>')
        parts.append(mark if measure == "execution" else f"<br>program {mark}")
        key += "1" if correct else "0"
    return Cell("".join(parts), key)


def _item_detail(data: ScoreViews, index: int) -> str:
    item = data.report.items[index]
    entries = [("position", str(item.position)), ("gold value", _value(item.gold_value)),
               ("official value", _value(item.official_value)), ("decided by", item.decided_by or "—")]
    if item.id in data.gold_programs:
        entries.append(("gold program", data.gold_programs[item.id]))
    if item.position in data.predicted_programs:
        entries.append(("prediction", data.predicted_programs[item.position]))
    for scorer, verdict in item.verdicts.items():
        text = f"execution {'correct' if verdict.execution else 'wrong'} ({verdict_of(item, scorer, 'execution')[1]})"
        if verdict.program is not None:
            text += f"; program {'correct' if verdict.program else 'wrong'} ({verdict_of(item, scorer, 'program')[1]})"
        if verdict.detail:
            text += f"; {verdict.detail}"
        entries.append((scorer, text))
    rows = "".join(f"<dt>{escape(key)}</dt><dd>{escape(value)}</dd>" for key, value in entries)
    return f'<details><summary>details</summary><div class="detail"><dl class="kv">{rows}</dl></div></details>'


def _items(data: ScoreViews) -> str:
    report = data.report
    scorers = list(report.scorers)
    repeated = set(report.duplicate_ids)
    rows = []
    for index, item in enumerate(report.items):
        fails, reasons, outcomes = [], set(), set()
        for scorer in scorers:
            for measure in MEASURES:
                correct, why = verdict_of(item, scorer, measure)
                if correct is None:
                    continue
                outcomes.add((measure, correct))
                if not correct:
                    fails.append(f"{scorer}:{measure}")
                    reasons.add(why)
        disagree = any((measure, not correct) in outcomes for measure, correct in outcomes)
        agreement = "disagree" if disagree else ("all-correct" if not fails else "all-wrong")
        flags = [flag for flag, present in (("would_abort", item.would_abort), ("repeated", item.id in repeated))
                 if present]
        badges = "".join(f' <span class="badge bad">{flag}</span>' for flag in flags)
        cells: list[Cell | str] = [Cell(f"{escape(item.id)}{badges}{_item_detail(data, index)}", item.id),
                                   Cell(escape(_value(item.gold_value)), ui.number_key(item.gold_value)),
                                   Cell(escape(_value(item.official_value)), ui.number_key(item.official_value))]
        cells += [_verdict_cell(data, index, scorer) for scorer in scorers]
        rows.append(Row(cells, data.anchors[index],
                        (("fails", " ".join(fails)), ("reason", " ".join(sorted(reasons))), ("agreement", agreement),
                         ("flag", " ".join(flags))),
                        " ".join([item.id, data.gold_programs.get(item.id, ""),
                                  data.predicted_programs.get(item.position, ""), *sorted(reasons)])))
    fail_options = tuple((f"{scorer}:{measure}", f"{scorer} {measure}") for scorer in scorers
                         for measure in measures_of(scorer))
    reason_names = sorted({group.reason for group in data.failures})
    filters = [Filter("fails", "fails under", fail_options),
               Filter("reason", "reason", tuple((name, name) for name in reason_names)),
               Filter("agreement", "scorers", (("all-correct", "all correct"), ("all-wrong", "all wrong"),
                                               ("disagree", "disagree"))),
               Filter("flag", "flag", (("would_abort", "would abort"), ("repeated", "repeated id")))]
    share = 60 // max(len(scorers), 1)
    widths = (100 - 16 - share * len(scorers), 8, 8, *([share] * len(scorers)))
    columns = [Column("id"), Column("gold", True), Column("official value", True),
               *(Column(scorer) for scorer in scorers)]
    return ui.table("items-table", columns, rows, filters=filters, search="search id, program, reason",
                    widths=widths, empty="No prediction matched a gold id.")


def render(data: ScoreViews) -> str:
    """The whole score.html text."""
    return ui.fill("score.html", {
        "lead": _lead(data), "metrics": _metrics(data), "aborts": _aborts(data), "failures": _failures(data),
        "disagreements": _disagreements(data), "coverage": _coverage(data), "items": _items(data),
        "n_items": str(len(data.report.items)), "n_aborts": str(len(data.report.would_abort_ids)),
    })
