"""score.html: the scoring report as one self-contained page — metrics first, then where and why items fail.

This module computes what the page shows; ``templates/score.html.j2`` lays it out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO

from ..score.results import ScoredItem
from . import templates
from .score_model import ScoreRun
from .score_views import MEASURES, ScoreViews, measures_of, verdict_of, views
from .templates import Column, Filter, Row, Table, shown
from ..core.limits import DEFAULT_LIMITS, current

EXAMPLES = DEFAULT_LIMITS.score_html_examples
"""Items shown per failure group, disagreement or coverage problem; the items table filters to all of them
and items.jsonl lists every one."""


def ratio(correct: int | None, n: int) -> str:
    """A share with four decimals; ``—`` when the scorer has no such measure."""
    return "—" if correct is None else f"{correct / n:.4f}" if n else "0.0000"


@dataclass(frozen=True, slots=True)
class Links:
    """Links to the first :data:`EXAMPLES` of some items, and how many there are in all."""

    links: tuple[tuple[str, str], ...]
    """(anchor, id)."""
    total: int


@dataclass(frozen=True, slots=True)
class Mark:
    """One scorer's verdict on one measure of one item."""

    measure: str
    correct: bool
    why: str


@dataclass(frozen=True, slots=True)
class ItemRow:
    """A row of the items table."""

    item: ScoredItem
    flags: tuple[str, ...]
    details: tuple[tuple[str, str], ...]
    marks: tuple[tuple[Mark, ...], ...]
    """Per scorer, in the scorers' order: its verdicts (execution, then program where it has one)."""
    sort_keys: tuple[str, ...]
    """Per scorer: its verdicts as ``1``/``0`` digits."""


class ScorePage:
    """Everything score.html shows, computed once from the derived views."""

    def __init__(self, data: ScoreViews) -> None:
        self.data = data
        self.report = data.report
        self.official = self.report.scorers[self.report.headline]
        self.coverage_line = ", ".join(f"{row.key} {len(row.entries)}" for row in data.coverage)
        self.aborts = len(self.report.would_abort_ids)
        self.scorers = list(self.report.scorers)
        self.scorer_columns = [Column(name) for name in self.scorers]

    def links(self, indices: tuple[int, ...]) -> Links:
        return Links(tuple((self.data.anchors[index], self.report.items[index].id) for index in indices[:current().score_html_examples]),
                     len(indices))

    def metrics(self) -> Table:
        return Table([Row((name, figures), f"scorer-{name}", text=name) for name, figures in self.report.scorers.items()])

    def abort_rows(self) -> Table:
        return Table([Row((self.data.anchors[index], item), f"abort-{self.data.anchors[index]}", text=item.id)
                      for index, item in enumerate(self.report.items) if item.would_abort])

    def _filters(self) -> list[Filter]:
        return [Filter("scorer", "scorer", tuple((name, name) for name in self.scorers)),
                Filter("measure", "measure", tuple((name, name) for name in MEASURES))]

    def failures(self) -> Table:
        return Table([Row((group, self.links(group.items)), f"fail-{group.scorer}-{group.measure}-{group.reason}",
                          (("scorer", group.scorer), ("measure", group.measure)),
                          f"{group.scorer} {group.measure} {group.reason}")
                      for group in self.data.failures], self._filters())

    def disagreements(self) -> Table:
        return Table([Row((row, self.links(row.items)), f"disagree-{row.first}-{row.second}-{row.measure}",
                          (("scorer", f"{row.first} {row.second}"), ("measure", row.measure)),
                          f"{row.first} {row.second} {row.measure}")
                      for row in self.data.disagreements], self._filters())

    def coverage(self) -> Table:
        return Table([Row((row, row.entries[:current().score_html_examples]), f"coverage-{row.key}",
                          text=f"{row.label} {' '.join(row.entries)}") for row in self.data.coverage])

    def _details(self, index: int) -> tuple[tuple[str, str], ...]:
        item = self.report.items[index]
        entries = [("position", str(item.position)), ("gold value", shown(item.gold_value)),
                   ("official value", shown(item.official_value)), ("decided by", item.decided_by or "—")]
        if item.id in self.data.gold_programs:
            entries.append(("gold program", self.data.gold_programs[item.id]))
        if item.position in self.data.predicted_programs:
            entries.append(("prediction", self.data.predicted_programs[item.position]))
        for scorer, verdict in item.verdicts.items():
            text = f"execution {'correct' if verdict.execution else 'wrong'} ({verdict_of(item, scorer, 'execution')[1]})"
            if verdict.program is not None:
                text += (f"; program {'correct' if verdict.program else 'wrong'} "
                         f"({verdict_of(item, scorer, 'program')[1]})")
            if verdict.detail:
                text += f"; {verdict.detail}"
            entries.append((scorer, text))
        return tuple(entries)

    def items(self) -> Table:
        repeated = set(self.report.duplicate_ids)
        rows = []
        for index, item in enumerate(self.report.items):
            fails, reasons, outcomes = [], set(), set()
            marks, keys = [], []
            for scorer in self.scorers:
                mine = []
                for measure in MEASURES:
                    correct, why = verdict_of(item, scorer, measure)
                    if correct is None:
                        continue
                    mine.append(Mark(measure, correct, why))
                    outcomes.add((measure, correct))
                    if not correct:
                        fails.append(f"{scorer}:{measure}")
                        reasons.add(why)
                marks.append(tuple(mine))
                keys.append("".join("1" if mark.correct else "0" for mark in mine))
            disagree = any((measure, not correct) in outcomes for measure, correct in outcomes)
            agreement = "disagree" if disagree else ("all-correct" if not fails else "all-wrong")
            flags = tuple(flag for flag, present in (("would_abort", item.would_abort),
                                                     ("repeated", item.id in repeated)) if present)
            rows.append(Row(ItemRow(item, flags, self._details(index), tuple(marks), tuple(keys)),
                            self.data.anchors[index],
                            (("fails", " ".join(fails)), ("reason", " ".join(sorted(reasons))),
                             ("agreement", agreement), ("flag", " ".join(flags))),
                            " ".join([item.id, self.data.gold_programs.get(item.id, ""),
                                      self.data.predicted_programs.get(item.position, ""), *sorted(reasons)])))
        fail_options = tuple((f"{scorer}:{measure}", f"{scorer} {measure}") for scorer in self.scorers
                             for measure in measures_of(scorer))
        reason_names = sorted({group.reason for group in self.data.failures})
        filters = [Filter("fails", "fails under", fail_options),
                   Filter("reason", "reason", tuple((name, name) for name in reason_names)),
                   Filter("agreement", "scorers", (("all-correct", "all correct"), ("all-wrong", "all wrong"),
                                                   ("disagree", "disagree"))),
                   Filter("flag", "flag", (("would_abort", "would abort"), ("repeated", "repeated id")))]
        return Table(rows, filters)

    def item_widths(self) -> tuple[int, ...]:
        """Fixed column widths: id, gold, official value, then an equal share per scorer."""
        share = 60 // max(len(self.scorers), 1)
        return (100 - 16 - share * len(self.scorers), 8, 8, *([share] * len(self.scorers)))


def render(data: ScoreViews) -> str:
    """The whole score.html text."""
    return templates.render("score.html.j2", page=ScorePage(data), ratio=ratio)


@dataclass(frozen=True, slots=True)
class HtmlReporter:
    """score.html: the scoring run as one self-contained page."""

    report_type: str = "html"

    def report(self, model: ScoreRun, outfile: TextIO) -> None:
        outfile.write(render(views(model.report, model.gold, model.predictions)))
