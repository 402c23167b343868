"""report.html: one self-contained page to work in — inline CSS, script and SVG, no external files.

Summary first (the programs where a final-value rounder diverges, on the first screen),
then the plot, every listed program with its detail view, one section per rounder and
per finding kind, the refused programs and the legend; every table sorts and filters.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from typing import TextIO

from ..interp.status import STATUS_DESCRIPTIONS, Status
from ..oracle.classify import ALL_VARIANTS, ROUNDER_FINDING, VARIANT_TITLES, Analysis, FindingKind
from ..oracle.reference import ExactAnswer
from . import interactive as ui
from .interactive import Cell, Column, Filter, Row
from .legend import MEANINGS, SEVERITIES
from .model import Report
from .plot import FINAL_KINDS, lane_of, legend, render_svg

EXACT_DIGITS = 40
"""An exact value with a terminating expansion up to this many digits is shown in full, else as n/d."""


def _code(text: str) -> str:
    """Escape ``text``, turning `backticked` parts into <code>."""
    return "".join(f"<code>{escape(piece)}</code>" if odd % 2 else escape(piece)
                   for odd, piece in enumerate(text.split("`")))


def _value(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return repr(value) if isinstance(value, float) else str(value)


def _num(value: object) -> Cell:
    return Cell(escape(_value(value)) if value is not None else "", ui.number_key(value))


def _ulps(ulps: float | None) -> Cell:
    return Cell("" if ulps is None else f"{ulps:.3g}", ui.number_key(ulps))


def _fraction(value: Fraction) -> str:
    """The exact decimal expansion when it terminates within EXACT_DIGITS digits, else ``n/d``."""
    denominator, twos, fives = value.denominator, 0, 0
    while denominator % 2 == 0:
        denominator, twos = denominator // 2, twos + 1
    while denominator % 5 == 0:
        denominator, fives = denominator // 5, fives + 1
    places = max(twos, fives)
    if denominator == 1 and places + len(str(abs(value.numerator))) <= EXACT_DIGITS:
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
        shown = _fraction(answer.value)
    elif isinstance(answer.value, bool):
        shown = _value(answer.value)
    elif answer.low is not None and answer.high is not None:
        shown = f"irrational, between {float(answer.low)!r} and {float(answer.high)!r}"
    else:
        shown = "not rational"
    return f"{shown} → rounds to {_value(rounded)}"


def _details(analysis: Analysis) -> str:
    """The detail view of one program: every rounder's answer, the exact values, the distance, the explanation."""
    items = []
    if analysis.status is not Status.OK:
        items.append(("status", f"{analysis.status.label}: {STATUS_DESCRIPTIONS[analysis.status]}"))
        if analysis.message:
            items.append(("message", analysis.message))
    for name, value in analysis.answers.items():
        differs = name != "spec" and (value != analysis.official or type(value) is not type(analysis.official))
        shown = escape(_value(value))
        items.append((f"answer {name}" if name != "spec" else "official (spec)",
                      f'<span class="differs">{shown} (differs)</span>' if differs else shown))
    if analysis.raw is not None:
        items.append(("raw value", f"{analysis.raw!r} ({analysis.raw.hex()})"))
    if analysis.exact_decimal is not None:
        items.append(("exact, literals as decimals", _exact(analysis.exact_decimal)))
    if analysis.exact_float is not None:
        items.append(("exact, literals as doubles", _exact(analysis.exact_float)))
    if analysis.ulps_to_boundary is not None:
        distance = "0: an exact tie" if analysis.ulps_to_boundary == 0 else f"{analysis.ulps_to_boundary:.6g}"
        items.append(("ulps to the boundary", distance))
    if analysis.has_gold:
        items.append(("gold exe_ans", _value(analysis.gold)))
    rows = "".join(f"<dt>{escape(key)}</dt><dd>{value if value.startswith('<span') else escape(value)}</dd>"
                   for key, value in items)
    explanations = "".join(f'<li><span class="badge {f.kind.severity}">{escape(f.kind.label)}</span> '
                           f"{escape(f.message())}</li>" for f in analysis.findings)
    return (f'<details><summary>answers, exact value, explanation</summary><div class="detail"><dl class="kv">{rows}'
            "</dl>" + (f'<ul class="plain">{explanations}</ul>' if explanations else "") + "</div></details>")


def _badges(analysis: Analysis) -> str:
    return " ".join(f'<span class="badge {f.kind.severity}">{escape(f.kind.label)}</span>'
                    for f in analysis.findings)


def _rounders(analysis: Analysis) -> list[str]:
    return [name for name in ALL_VARIANTS if ROUNDER_FINDING[name] in analysis.kinds]


class _Page:
    """The listed programs (with findings, or refused) and their anchors, computed once."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self.listed = [(index, a) for index, a in enumerate(report.analyses) if a.findings or a.status is not Status.OK]
        self.links = dict(zip((index for index, _ in self.listed), ui.anchors("p", (a.id for _, a in self.listed))))

    def id_link(self, index: int, analysis: Analysis) -> Cell:
        return Cell(ui.link(self.links[index], analysis.id), analysis.id)

    def headline(self) -> str:
        rows = []
        chosen = [(index, a) for index, a in self.listed if a.kinds & FINAL_KINDS]
        for (index, a), anchor in zip(chosen, ui.anchors("top", (a.id for _, a in chosen))):
            answers: dict[str, list[str]] = {}
            for name in _rounders(a):
                if name != "per_step":
                    answers.setdefault(_value(a.answers.get(name)), []).append(name)
            diverging = " ".join(f'<span class="badge divergence">{escape(" · ".join(names))}: {escape(value)}'
                                 "</span>" for value, names in answers.items())
            rows.append(Row([self.id_link(index, a), f"<code>{escape(a.program)}</code>", _num(a.raw),
                             _num(a.official), diverging], anchor, text=f"{a.id} {a.program}"))
        columns = [Column("id", css="nowrap"), Column("program"), Column("raw value", True),
                   Column("official", True), Column("diverging rounders: answer")]
        heading = f'<h2 id="headline" class="first">Where a final-value rounder diverges: {len(rows)}</h2>'
        return ui.table("headline-table", columns, rows, search="filter these programs", heading=heading,
                        widths=(25, 33, 12, 10, 20),
                        empty="No final-value rounder diverges on any program.")

    def programs(self) -> str:
        counts = self.report.finding_counts()
        rows = []
        for index, a in self.listed:
            kinds = [f.kind.label for f in a.findings]
            rows.append(Row([self.id_link(index, a), escape(a.status.label),
                             f"<code>{escape(a.program)}</code>{_details(a)}", _num(a.raw), _num(a.official),
                             _ulps(a.ulps_to_boundary), Cell(_badges(a), " ".join(kinds))],
                            self.links[index],
                            (("kind", " ".join(sorted(set(kinds)))), ("rounder", " ".join(_rounders(a))),
                             ("status", a.status.label)),
                            " ".join([a.id, a.program, a.status.label, *kinds])))
        statuses = self.report.statuses()
        filters = [Filter("kind", "finding", tuple((kind.label, f"{kind.label} ({counts[kind.label]})")
                                                   for kind in FindingKind if counts[kind.label])),
                   Filter("rounder", "rounder", tuple((name, f"{name} ({self.report.divergent()[name]})")
                                                      for name in ALL_VARIANTS)),
                   Filter("status", "status", tuple((name, f"{name} ({count})") for name, count in statuses.items()))]
        columns = [Column("id"), Column("status"), Column("program"), Column("raw value", True),
                   Column("official", True), Column("ulps to boundary", True), Column("findings")]
        return ui.table("programs-table", columns, rows, filters=filters, search="search id, program, finding",
                        widths=(14, 7, 34, 13, 9, 8, 15))

    def rounder_sections(self) -> str:
        parts = []
        for name in ALL_VARIANTS:
            kind = ROUNDER_FINDING[name]
            chosen = [(index, a) for index, a in self.listed if kind in a.kinds]
            rows = [Row([self.id_link(index, a), f"<code>{escape(a.program)}</code>", _num(a.raw), _num(a.official),
                         _num(a.answers.get(name))], anchor, text=f"{a.id} {a.program}")
                    for (index, a), anchor in zip(chosen, ui.anchors(f"r-{name}", (a.id for _, a in chosen)))]
            columns = [Column("id"), Column("program"), Column("raw value", True), Column("official", True),
                       Column(f"{name} answer", True)]
            parts.append(f'<h3 id="rounder-{name}">{_code(VARIANT_TITLES[name])}: {len(rows)} divergent</h3>')
            parts.append(ui.table(f"rounder-{name}-table", columns, rows, widths=(22, 38, 15, 12, 13)))
        return "\n".join(parts)

    def kind_sections(self) -> str:
        parts = []
        rounder_kinds = set(ROUNDER_FINDING.values())
        for kind in FindingKind:
            if kind in rounder_kinds:
                continue
            chosen = [(index, a, f) for index, a in self.listed for f in a.findings if f.kind is kind]
            anchors = ui.anchors(f"k-{kind.label}", (a.id for _, a, _ in chosen))
            rows = [Row([self.id_link(index, a), f"<code>{escape(a.program)}</code>", escape(f.message())], anchor,
                        text=f"{a.id} {a.program} {f.message()}")
                    for (index, a, f), anchor in zip(chosen, anchors)]
            parts.append(f'<h3 id="kind-{kind.label}"><code>{escape(kind.label)}</code> ({kind.severity}): '
                         f"{len(rows)}</h3>")
            parts.append(ui.table(f"kind-{kind.label}-table", [Column("id"), Column("program"), Column("finding")],
                                  rows, widths=(20, 35, 45)))
        return "\n".join(parts)

    def refused(self) -> str:
        chosen = [(index, a) for index, a in self.listed if a.status is not Status.OK]
        rows = [Row([self.id_link(index, a), escape(a.status.label), f"<code>{escape(a.program)}</code>",
                     escape(a.message)], anchor, text=f"{a.id} {a.status.label} {a.program} {a.message}")
                for (index, a), anchor in zip(chosen, ui.anchors("x", (a.id for _, a in chosen)))]
        return ui.table("refused-table", [Column("id"), Column("status"), Column("program"), Column("message")], rows,
                        widths=(20, 12, 30, 38))


def _summary_tables(report: Report) -> str:
    divergent, counts = report.divergent(), report.finding_counts()
    rounders = [Row([Cell(f'<a href="#rounder-{name}">{_code(VARIANT_TITLES[name])}</a>', name),
                     Cell(str(divergent[name]), str(divergent[name]))]) for name in ALL_VARIANTS]
    kinds = [Row([Cell(f'<a href="#{"rounder" if kind in ROUNDER_FINDING.values() else "kind"}-{kind.label}">'
                       f"<code>{escape(kind.label)}</code></a>", kind.label),
                  escape(kind.severity), Cell(str(counts[kind.label]), str(counts[kind.label]))]) for kind in FindingKind]
    statuses = [Row([escape(name), escape(STATUS_DESCRIPTIONS[Status[name.upper()]]), Cell(str(count), str(count))])
                for name, count in report.statuses().items()]
    return "\n".join([
        '<h3 id="summary-rounders">Programs whose answer differs, per rounder</h3>',
        ui.table("summary-rounders-table", [Column("rounder / variant"), Column("programs", True)], rounders,
                 compact=True),
        '<h3 id="summary-findings">Programs per finding kind</h3>',
        ui.table("summary-findings-table", [Column("finding"), Column("severity"), Column("programs", True)], kinds,
                 compact=True),
        '<h3 id="summary-statuses">Programs per status</h3>',
        ui.table("summary-statuses-table", [Column("status"), Column("meaning"), Column("programs", True)], statuses,
                 compact=True),
    ])


def _legend() -> str:
    rows = [Row([Cell(f"<code>{escape(kind.label)}</code>", kind.label), escape(kind.severity),
                 _code(MEANINGS[kind])], f"legend-{kind.label}") for kind in FindingKind]
    severities = "".join(f"<li><strong>{escape(name)}</strong>: {escape(text)}</li>" for name, text in SEVERITIES.items())
    return (ui.table("legend-table", [Column("finding"), Column("severity"), Column("meaning")], rows,
                     widths=(22, 13, 65))
            + f'<ul class="plain">{severities}</ul>')


def _lead(report: Report) -> str:
    lanes = Counter(lane_of(a) for a in report.analyses)
    final, per_step_only = lanes[0], lanes[1]
    divergent, gold = report.divergent(), report.gold_summary()
    per_rounder = ", ".join(f"{name} {divergent[name]}" for name in ALL_VARIANTS if name != "per_step")
    return (f"{report.programs} programs from {escape(report.source)}. <strong>{final}</strong> get a different "
            f"answer from a final-value rounder ({escape(per_rounder)}); {per_step_only} more only when every "
            f"intermediate is rounded (<a href=\"#rounder-per_step\">per_step</a>). Gold answers reproduced: "
            f"{gold['matching']} of {gold['with_gold']}. Refused: <a href=\"#refused\">{len(report.refused())}</a>.")


def render(report: Report) -> str:
    """The whole report.html text."""
    page = _Page(report)
    entries = "".join(f'<li><span class="swatch{" bar" if "bars" in text else ""}" style="background:{fill}"></span>'
                      f"{escape(text)}</li>" if fill else f'<li class="muted">{escape(text)}</li>'
                      for fill, text in legend(report))
    fields = {
        "lead": _lead(report),
        "headline": page.headline(),
        "summary_tables": _summary_tables(report),
        "plot": render_svg(report, page.links),
        "plot_legend": entries,
        "listed": str(len(page.listed)),
        "programs": page.programs(),
        "rounders": page.rounder_sections(),
        "kinds": page.kind_sections(),
        "refused_count": str(len(report.refused())),
        "refused": page.refused(),
        "legend": _legend(),
    }
    return ui.fill("report.html", fields)


@dataclass(frozen=True, slots=True)
class HtmlReporter:
    """report.html."""

    report_type: str = "html"

    def report(self, model: Report, outfile: TextIO) -> None:
        outfile.write(render(model))
