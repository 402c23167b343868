"""A dependency-free, deterministic SVG plot: how far each raw value is from a 5-place rounding boundary.

The x axis is the distance in ulps of the value, on a log scale, shared by two panels:
a histogram of every program (bars, log count axis), and one lane per kind of program
with findings, where each program is a dot linking to its row and dots that fall in the
same place stack upwards. Exact ties (0 ulps) get their own column at the left; values
outside the axis are drawn as arrows at its ends. The legend is HTML beside the figure,
never on the data. The SVG has a ``viewBox`` and no fixed size, so it scales with the page.
This module places every mark; ``templates/plot.svg.j2`` draws them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from ..oracle.classify import Analysis, FindingKind, FINAL_VALUE_ROUNDERS, ROUNDER_FINDING
from .model import Report
from ..core.plural import plural, plural_of

WIDTH = 800
LOW, HIGH = -4, 18
"""The axis covers 10**LOW .. 10**HIGH ulps; anything beyond is an arrow at the end."""
TIE_X, X0, X1 = 70.0, 100.0, 782.0
HIST_TOP, HIST_HEIGHT = 26.0, 96.0
BINS_PER_DECADE = 2
RADIUS = 3.6
FINAL_KINDS = frozenset(ROUNDER_FINDING[name] for name in FINAL_VALUE_ROUNDERS)


@dataclass(frozen=True, slots=True)
class Lane:
    """One row of dots: which programs, how they look, what the legend says."""

    fill: str
    label: str


LANES = (
    Lane("#d62728", "a final-value rounder (exact, naive, half_up, numpy) diverges"),
    Lane("#ff7f0e", "only per_step (rounding every intermediate) diverges"),
    Lane("#7b52ab", "other findings only (hazard or info)"),
)
BAR_FILL = "#9db9d8"


def lane_of(analysis: Analysis) -> int | None:
    """The lane a program with findings belongs in (None: no findings)."""
    if not analysis.findings:
        return None
    if analysis.kinds & FINAL_KINDS:
        return 0
    return 1 if FindingKind.PER_STEP_DIFFERS in analysis.kinds else 2


def _x(ulps: float) -> tuple[float, str]:
    """The x position of a distance and how it is drawn: ``tie``, ``low`` / ``high`` (beyond the axis) or ``in``."""
    if ulps == 0:
        return TIE_X, "tie"
    decades = math.log10(ulps)
    if decades < LOW:
        return X0, "low"
    if decades > HIGH:
        return X1, "high"
    return X0 + (decades - LOW) / (HIGH - LOW) * (X1 - X0), "in"


def _bin(ulps: float) -> int | None:
    """Histogram bin: None for ties, else the half-decade index clamped into the axis."""
    if ulps == 0:
        return None
    decades = min(max(math.log10(ulps), LOW), HIGH - 1e-9)
    return int(math.floor((decades - LOW) * BINS_PER_DECADE))


def _count_y(count: int, top: int) -> float:
    """Bar top on a log axis whose baseline is 0.5 programs, so a single program still shows."""
    span = math.log10(top) - math.log10(0.5)
    return HIST_TOP + HIST_HEIGHT - (math.log10(count) - math.log10(0.5)) / span * HIST_HEIGHT


def _fmt_ulps(ulps: float) -> str:
    return "0 (an exact tie)" if ulps == 0 else f"{ulps:.3g}"


@dataclass(frozen=True, slots=True)
class Bar:
    """One histogram bar (coordinates already formatted)."""

    x: str
    y: str
    width: str
    height: str
    title: str


@dataclass(frozen=True, slots=True)
class Dot:
    """One program's mark: a circle, or a triangle (``points``) for a value beyond the axis."""

    cx: str
    cy: str
    points: str
    title: str
    anchor: str | None


@dataclass(frozen=True, slots=True)
class LaneView:
    """One lane: its title line, its baseline and its dots."""

    fill: str
    label: str
    count: int
    label_y: str
    base: str
    dots: tuple[Dot, ...]


@dataclass(frozen=True, slots=True)
class PlotView:
    """Every mark of the figure, positioned; ``templates/plot.svg.j2`` draws it."""

    width: int
    height: str
    programs: int
    ticks: tuple[tuple[str, str, int], ...]
    """(y of the grid line, y of its label, count)."""
    bars: tuple[Bar, ...]
    bottom: str
    lanes: tuple[LaneView, ...]
    axis: str
    axis_end: str
    axis_label: str
    axis_caption: str
    decades: tuple[tuple[str, int], ...]
    """(x, decade) of each labelled tick."""
    left: str
    grid_left: str
    tick_label_x: str
    tie_x: str
    x0: str
    x1: str
    middle: str
    hist_top: str
    radius: float
    bar_fill: str = BAR_FILL


def _bars(values: list[float]) -> tuple[tuple[tuple[str, str, int], ...], tuple[Bar, ...]]:
    bins = Counter(_bin(value) for value in values)
    top = 10 ** math.ceil(math.log10(max(bins.values(), default=1) + 1))  # an empty report draws an empty axis
    bottom = HIST_TOP + HIST_HEIGHT
    ticks = []
    tick = 1
    while tick <= top:
        y = _count_y(tick, top)
        ticks.append((f"{y:.1f}", f"{y + 3.5:.1f}", tick))
        tick *= 10
    step = (X1 - X0) / ((HIGH - LOW) * BINS_PER_DECADE)
    bars = []
    for index, count in sorted(bins.items(), key=lambda entry: -1 if entry[0] is None else entry[0]):
        if index is None:
            left, width, what = TIE_X - 8, 16.0, "exact ties (0 ulps)"
        else:
            left, width = X0 + index * step, step
            low = LOW + index / BINS_PER_DECADE
            what = f"1e{low:g} to 1e{low + 1 / BINS_PER_DECADE:g} ulps"
        y = _count_y(count, top)
        bars.append(Bar(f"{left + 0.5:.1f}", f"{y:.1f}", f"{width - 1:.1f}", f"{bottom - y:.1f}",
                        f"{what}: {plural(count, 'program')}"))
    return tuple(ticks), tuple(bars)


def _points(x: float, y: float, how: str) -> str:
    """A triangle pointing out of the axis for a value beyond it (``low`` / ``high``); empty for a circle."""
    if how == "low":
        return f"{x - RADIUS - 2:.1f},{y:.1f} {x + RADIUS:.1f},{y - RADIUS:.1f} {x + RADIUS:.1f},{y + RADIUS:.1f}"
    if how == "high":
        return f"{x + RADIUS + 2:.1f},{y:.1f} {x - RADIUS:.1f},{y - RADIUS:.1f} {x - RADIUS:.1f},{y + RADIUS:.1f}"
    return ""


def svg_view(report: Report, links: Mapping[int, str]) -> PlotView:
    """The figure; ``links`` maps an index into ``report.analyses`` to the anchor of that program's row."""
    values = [a.ulps_to_boundary for a in report.analyses if a.ulps_to_boundary is not None]
    ticks, bars = _bars(values)
    lanes: list[list[tuple[float, str, int, Analysis]]] = [[] for _ in LANES]
    for index, analysis in enumerate(report.analyses):
        which = lane_of(analysis)
        if which is not None and analysis.ulps_to_boundary is not None:
            x, how = _x(analysis.ulps_to_boundary)
            lanes[which].append((x, how, index, analysis))
    y = HIST_TOP + HIST_HEIGHT + 12
    diameter = 2 * RADIUS + 0.6
    views = []
    for lane, members in zip(LANES, lanes):
        stacks: Counter[int] = Counter()
        placed = []
        for x, how, index, analysis in sorted(members, key=lambda m: (m[0], m[3].id, m[2])):
            column = round((x - X0) / diameter)
            placed.append((column * diameter + X0 if how == "in" else x, stacks[column], how, index, analysis))
            stacks[column] += 1
        height = max(max(stacks.values(), default=0), 1) * diameter + 4
        base = y + 16 + height
        dots = []
        for x, level, how, index, analysis in placed:
            cy = base - 2 - RADIUS - level * diameter
            label = f"{analysis.id}: {_fmt_ulps(analysis.ulps_to_boundary or 0.0)} ulps"
            if how in ("low", "high"):
                label += " (beyond the axis)"
            dots.append(Dot(f"{x:.1f}", f"{cy:.1f}", _points(x, cy, how), label, links.get(index)))
        views.append(LaneView(lane.fill, lane.label, len(members), f"{y + 11:.1f}", f"{base:.1f}", tuple(dots)))
        y = base + 4
    axis = y + 4
    decades = tuple((f"{_x(10.0 ** decade)[0]:.1f}", decade) for decade in range(LOW, HIGH + 1, 2))
    return PlotView(WIDTH, f"{axis + 40:.0f}", len(values), ticks, bars, f"{HIST_TOP + HIST_HEIGHT:.1f}",
                    tuple(views), f"{axis:.1f}", f"{axis + 4:.1f}", f"{axis + 16:.1f}", f"{axis + 32:.1f}", decades,
                    f"{TIE_X - 16:.0f}", f"{TIE_X - 16:.0f}", f"{TIE_X - 20:.0f}", f"{TIE_X:.0f}", f"{X0:.0f}",
                    f"{X1:.0f}", f"{(X0 + X1) / 2:.0f}", f"{HIST_TOP:.0f}", RADIUS)


def legend(report: Report) -> list[tuple[str, str]]:
    """(colour, text) for each mark, with counts, for the HTML legend beside the figure."""
    lanes = Counter(lane_of(a) for a in report.analyses if a.ulps_to_boundary is not None)
    unplotted = sum(1 for a in report.analyses if a.findings and a.ulps_to_boundary is None)
    entries = [(lane.fill, f"{lane.label}: {lanes[index]}") for index, lane in enumerate(LANES)]
    entries.append((BAR_FILL, "bars: every program, counted per half-decade"))
    entries.append(("", f"arrows at the ends: values beyond 1e{LOW} or 1e{HIGH} ulps; 'tie': exactly 0 ulps; "
                        f"{plural(unplotted, 'program')} with findings {plural_of('has', unplotted)} no finite "
                        f"nonzero raw value and are not drawn"))
    return entries
