"""report.html: one self-contained page to work in — inline CSS, script and SVG, no external files.

Summary first (the programs where a final-value rounder diverges, on the first screen),
then the plot, every listed program with its detail view, one section per rounder and
per finding kind, the refused programs and the legend; every table sorts and filters.
This module computes what the page shows; ``templates/report.html.j2`` lays it out.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import TextIO

from ..core.status import STATUS_DESCRIPTIONS, Status
from ..oracle.classify import ALL_VARIANTS, ROUNDER_FINDING, VARIANT_TITLES, Analysis, Finding, FindingKind
from ..oracle.reference import ExactAnswer
from . import templates
from .legend import MEANINGS, SEVERITIES
from .model import Report
from .plot import FINAL_KINDS, lane_of, legend, svg_view
from .templates import Filter, Row, Table, anchors, shown
from ..core.limits import DEFAULT_LIMITS, current

EXACT_DIGITS = DEFAULT_LIMITS.report_exact_digits
"""An exact value with a terminating expansion up to this many digits is shown in full, else as n/d."""


def _fraction(value: Fraction) -> str:
    """The exact decimal expansion when it terminates within EXACT_DIGITS digits, else ``n/d``."""
    denominator, twos, fives = value.denominator, 0, 0
    while denominator % 2 == 0:
        denominator, twos = denominator // 2, twos + 1
    while denominator % 5 == 0:
        denominator, fives = denominator // 5, fives + 1
    places = max(twos, fives)
    if denominator == 1 and places + len(str(abs(value.numerator))) <= current().report_exact_digits:
        scaled = abs(value.numerator) * 10**places // value.denominator
        digits = str(scaled).rjust(places + 1, "0")
        whole, fraction = (digits[:-places], digits[-places:]) if places else (digits, "")
        return ("-" if value < 0 else "") + whole + ("." + fraction if fraction else "")
    return f"{value.numerator}/{value.denominator}"


def _exact(answer: ExactAnswer | None) -> str:
    if answer is None:
        return "not computed"
    if answer.status is not Status.OK:
        return f"refused: {answer.status.label}" + (f" ({answer.message})" if answer.message else "")
    if not answer.decided:
        return f"undecided: {answer.message}"
    rounded = answer.rounded_float()
    if isinstance(answer.value, Fraction):
        exact = _fraction(answer.value)
    elif isinstance(answer.value, bool):
        exact = shown(answer.value)
    elif answer.low is not None and answer.high is not None:
        exact = f"irrational, between {float(answer.low)!r} and {float(answer.high)!r}"
    else:
        exact = "not rational"
    return f"{exact} → rounds to {shown(rounded)}"


@dataclass(frozen=True, slots=True)
class Detail:
    """One line of a program's detail view; ``differs`` marks a rounder whose answer is not the official one."""

    key: str
    value: str
    differs: bool = False


def details(analysis: Analysis) -> list[Detail]:
    """The detail view of one program: every rounder's answer, the exact values, the distance, the gold."""
    lines = []
    if analysis.status is not Status.OK:
        lines.append(Detail("status", f"{analysis.status.label}: {STATUS_DESCRIPTIONS[analysis.status]}"))
        if analysis.message:
            lines.append(Detail("message", analysis.message))
    for name, value in analysis.answers.items():
        differs = name != "spec" and (value != analysis.official or type(value) is not type(analysis.official))
        lines.append(Detail(f"answer {name}" if name != "spec" else "official (spec)", shown(value), differs))
    if analysis.raw is not None:
        lines.append(Detail("raw value", f"{analysis.raw!r} ({analysis.raw.hex()})"))
    if analysis.exact_decimal is not None:
        lines.append(Detail("exact, literals as decimals", _exact(analysis.exact_decimal)))
    if analysis.exact_float is not None:
        lines.append(Detail("exact, literals as doubles", _exact(analysis.exact_float)))
    if analysis.ulps_to_boundary is not None:
        distance = "0: an exact tie" if analysis.ulps_to_boundary == 0 else f"{analysis.ulps_to_boundary:.6g}"
        lines.append(Detail("ulps to the boundary", distance))
    if analysis.has_gold:
        lines.append(Detail("gold exe_ans", shown(analysis.gold)))
    return lines


def _rounders(analysis: Analysis) -> list[str]:
    return [name for name in ALL_VARIANTS if ROUNDER_FINDING[name] in analysis.kinds]


@dataclass(frozen=True, slots=True)
class Listed:
    """A program the page lists (with findings, or refused), with the anchor of its row in the main table."""

    analysis: Analysis
    link: str
    ulps: str
    """The distance to the boundary as shown (3 significant digits; empty when there is none)."""


@dataclass(frozen=True, slots=True)
class Headline:
    """A row of the headline table: the program and its diverging final-value rounders grouped by answer."""

    listed: Listed
    diverging: tuple[tuple[str, str], ...]
    """(rounder names joined by `` · ``, their shared answer)."""


@dataclass(frozen=True, slots=True)
class KindRow:
    """A row of a finding kind's section: the program and the finding."""

    listed: Listed
    finding: Finding


class ReportPage:
    """Everything report.html shows, computed once from a :class:`Report`."""

    def __init__(self, report: Report) -> None:
        self.report = report
        chosen = [(index, a) for index, a in enumerate(report.analyses) if a.findings or a.status is not Status.OK]
        links = anchors("p", (a.id for _, a in chosen))
        self.listed = [Listed(a, link, "" if a.ulps_to_boundary is None else f"{a.ulps_to_boundary:.3g}")
                       for (_, a), link in zip(chosen, links)]
        self.links = {index: link for (index, _), link in zip(chosen, links)}
        """Index into ``report.analyses`` -> the anchor of its row (the plot's dots link there)."""
        lanes = Counter(lane_of(a) for a in report.analyses)
        self.final, self.per_step_only = lanes[0], lanes[1]
        self.divergent, self.counts, self.gold = report.divergent(), report.finding_counts(), report.gold_summary()
        self.per_rounder = ", ".join(f"{name} {self.divergent[name]}" for name in ALL_VARIANTS if name != "per_step")
        self.refused_count = len(report.refused())
        self.variants = [(name, VARIANT_TITLES[name]) for name in ALL_VARIANTS]
        rounder_kinds = set(ROUNDER_FINDING.values())
        self.hazard_kinds = [kind for kind in FindingKind if kind not in rounder_kinds]
        self.summary_rounders = Table([Row((name, title, self.divergent[name])) for name, title in self.variants])
        self.summary_kinds = Table([Row((kind, "rounder" if kind in rounder_kinds else "kind", self.counts[kind.label]))
                                    for kind in FindingKind])
        self.summary_statuses = Table([Row((name, STATUS_DESCRIPTIONS[Status[name.upper()]], count))
                                       for name, count in report.statuses().items()])
        self.legend = Table([Row((kind, MEANINGS[kind]), f"legend-{kind.label}") for kind in FindingKind])
        self.severities = SEVERITIES
        self.plot = svg_view(report, self.links)
        self.plot_legend = legend(report)

    def headline(self) -> Table:
        chosen = [entry for entry in self.listed if entry.analysis.kinds & FINAL_KINDS]
        rows = []
        for entry, anchor in zip(chosen, anchors("top", (entry.analysis.id for entry in chosen))):
            a = entry.analysis
            answers: dict[str, list[str]] = {}
            for name in _rounders(a):
                if name != "per_step":
                    answers.setdefault(shown(a.answers.get(name)), []).append(name)
            diverging = tuple((" · ".join(names), value) for value, names in answers.items())
            rows.append(Row(Headline(entry, diverging), anchor, text=f"{a.id} {a.program}"))
        return Table(rows)

    def programs(self) -> Table:
        rows = []
        for entry in self.listed:
            a = entry.analysis
            kinds = [f.kind.label for f in a.findings]
            rows.append(Row(entry, entry.link, (("kind", " ".join(sorted(set(kinds)))),
                                                ("rounder", " ".join(_rounders(a))), ("status", a.status.label)),
                            " ".join([a.id, a.program, a.status.label, *kinds])))
        filters = [Filter("kind", "finding", tuple((kind.label, f"{kind.label} ({self.counts[kind.label]})")
                                                   for kind in FindingKind if self.counts[kind.label])),
                   Filter("rounder", "rounder", tuple((name, f"{name} ({self.divergent[name]})")
                                                      for name in ALL_VARIANTS)),
                   Filter("status", "status", tuple((name, f"{name} ({count})")
                                                    for name, count in self.report.statuses().items()))]
        return Table(rows, filters)

    def rounder(self, name: str) -> Table:
        chosen = [entry for entry in self.listed if ROUNDER_FINDING[name] in entry.analysis.kinds]
        return Table([Row(entry, anchor, text=f"{entry.analysis.id} {entry.analysis.program}")
                      for entry, anchor in zip(chosen, anchors(f"r-{name}", (e.analysis.id for e in chosen)))])

    def kind(self, kind: FindingKind) -> Table:
        chosen = [KindRow(entry, f) for entry in self.listed for f in entry.analysis.findings if f.kind is kind]
        return Table([Row(row, anchor, text=f"{row.listed.analysis.id} {row.listed.analysis.program} "
                                            f"{row.finding.message()}")
                      for row, anchor in zip(chosen, anchors(f"k-{kind.label}",
                                                             (row.listed.analysis.id for row in chosen)))])

    def refused(self) -> Table:
        chosen = [entry for entry in self.listed if entry.analysis.status is not Status.OK]
        return Table([Row(entry, anchor, text=f"{entry.analysis.id} {entry.analysis.status.label} "
                                              f"{entry.analysis.program} {entry.analysis.message}")
                      for entry, anchor in zip(chosen, anchors("x", (e.analysis.id for e in chosen)))])


def render(report: Report) -> str:
    """The whole report.html text."""
    return templates.render("report.html.j2", page=ReportPage(report), details=details)


@dataclass(frozen=True, slots=True)
class HtmlReporter:
    """report.html."""

    report_type: str = "html"

    def report(self, model: Report, outfile: TextIO) -> None:
        outfile.write(render(model))
