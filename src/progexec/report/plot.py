"""A dependency-free, deterministic SVG plot: how far each raw value is from a 5-place rounding boundary.

The x axis is the distance in ulps of the value, on a log scale, shared by two panels:
a histogram of every program (bars, log count axis), and one lane per kind of program
with findings, where each program is a dot linking to its row and dots that fall in the
same place stack upwards. Exact ties (0 ulps) get their own column at the left; values
outside the axis are drawn as arrows at its ends. The legend is HTML beside the figure,
never on the data. The SVG has a ``viewBox`` and no fixed size, so it scales with the page.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape

from ..oracle.classify import Analysis, FindingKind, FINAL_VALUE_ROUNDERS, ROUNDER_FINDING
from .model import Report

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


def _histogram(values: list[float], parts: list[str]) -> None:
    bins = Counter(_bin(value) for value in values)
    top = 10 ** math.ceil(math.log10(max(bins.values(), default=1) + 1))  # an empty report draws an empty axis
    bottom = HIST_TOP + HIST_HEIGHT
    parts.append(f'<text x="4" y="14" font-size="11">programs per half-decade, all {len(values)} with a '
                 'nonzero finite raw value (log scale)</text>')
    tick = 1
    while tick <= top:
        y = _count_y(tick, top)
        parts.append(f'<line x1="{TIE_X - 16:.0f}" y1="{y:.1f}" x2="{X1:.0f}" y2="{y:.1f}" stroke="#e3e3e3"/>')
        parts.append(f'<text x="{TIE_X - 20:.0f}" y="{y + 3.5:.1f}" font-size="10" text-anchor="end">{tick}</text>')
        tick *= 10
    step = (X1 - X0) / ((HIGH - LOW) * BINS_PER_DECADE)
    for index, count in sorted(bins.items(), key=lambda entry: -1 if entry[0] is None else entry[0]):
        if index is None:
            left, width, what = TIE_X - 8, 16.0, "exact ties (0 ulps)"
        else:
            left, width = X0 + index * step, step
            low = LOW + index / BINS_PER_DECADE
            what = f"1e{low:g} to 1e{low + 1 / BINS_PER_DECADE:g} ulps"
        y = _count_y(count, top)
        parts.append(f'<rect x="{left + 0.5:.1f}" y="{y:.1f}" width="{width - 1:.1f}" height="{bottom - y:.1f}" '
                     f'fill="{BAR_FILL}"><title>{escape(what)}: {count} programs</title></rect>')
    parts.append(f'<line x1="{TIE_X - 16:.0f}" y1="{bottom:.1f}" x2="{X1:.0f}" y2="{bottom:.1f}" stroke="#333"/>')


def _marker(x: float, y: float, how: str, fill: str) -> str:
    if how == "low":
        points = f"{x - RADIUS - 2:.1f},{y:.1f} {x + RADIUS:.1f},{y - RADIUS:.1f} {x + RADIUS:.1f},{y + RADIUS:.1f}"
        return f'<polygon points="{points}" fill="{fill}" stroke="#222" stroke-width="0.6">'
    if how == "high":
        points = f"{x + RADIUS + 2:.1f},{y:.1f} {x - RADIUS:.1f},{y - RADIUS:.1f} {x - RADIUS:.1f},{y + RADIUS:.1f}"
        return f'<polygon points="{points}" fill="{fill}" stroke="#222" stroke-width="0.6">'
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{RADIUS}" fill="{fill}" stroke="#222" stroke-width="0.6">'


def render_svg(report: Report, links: Mapping[int, str]) -> str:
    """The figure; ``links`` maps an index into ``report.analyses`` to the anchor of that program's row."""
    values = [a.ulps_to_boundary for a in report.analyses if a.ulps_to_boundary is not None]
    parts: list[str] = []
    _histogram(values, parts)
    lanes: list[list[tuple[float, str, int, Analysis]]] = [[] for _ in LANES]
    for index, analysis in enumerate(report.analyses):
        which = lane_of(analysis)
        if which is not None and analysis.ulps_to_boundary is not None:
            x, how = _x(analysis.ulps_to_boundary)
            lanes[which].append((x, how, index, analysis))
    y = HIST_TOP + HIST_HEIGHT + 12
    diameter = 2 * RADIUS + 0.6
    for lane, members in zip(LANES, lanes):
        stacks: Counter[int] = Counter()
        placed = []
        for x, how, index, analysis in sorted(members, key=lambda m: (m[0], m[3].id, m[2])):
            column = round((x - X0) / diameter)
            placed.append((column * diameter + X0 if how == "in" else x, stacks[column], how, index, analysis))
            stacks[column] += 1
        height = max(max(stacks.values(), default=0), 1) * diameter + 4
        parts.append(f'<text x="4" y="{y + 11:.1f}" font-size="11" fill="{lane.fill}" font-weight="bold">'
                     f'{escape(lane.label)}: {len(members)}</text>')
        base = y + 16 + height
        parts.append(f'<line x1="{TIE_X - 16:.0f}" y1="{base:.1f}" x2="{X1:.0f}" y2="{base:.1f}" stroke="#bbb"/>')
        for x, level, how, index, analysis in placed:
            cy = base - 2 - RADIUS - level * diameter
            label = f"{analysis.id}: {_fmt_ulps(analysis.ulps_to_boundary or 0.0)} ulps"
            if how in ("low", "high"):
                label += " (beyond the axis)"
            anchor = links.get(index)
            shape = _marker(x, cy, how, lane.fill) + f"<title>{escape(label)}</title>" + (
                "</polygon>" if how in ("low", "high") else "</circle>")
            parts.append(f'<a href="#{anchor}">{shape}</a>' if anchor else shape)
        y = base + 4
    axis = y + 4
    parts.append(f'<line x1="{X0:.0f}" y1="{axis:.1f}" x2="{X1:.0f}" y2="{axis:.1f}" stroke="#333"/>')
    for decade in range(LOW, HIGH + 1, 2):
        x = _x(10.0 ** decade)[0]
        parts.append(f'<line x1="{x:.1f}" y1="{HIST_TOP:.0f}" x2="{x:.1f}" y2="{axis + 4:.1f}" stroke="#000" '
                     f'stroke-opacity="0.12"/>')
        parts.append(f'<text x="{x:.1f}" y="{axis + 16:.1f}" font-size="10" text-anchor="middle">1e{decade}</text>')
    parts.append(f'<text x="{TIE_X:.0f}" y="{axis + 16:.1f}" font-size="10" text-anchor="middle">tie</text>')
    parts.append(f'<text x="{(X0 + X1) / 2:.0f}" y="{axis + 32:.1f}" font-size="11" text-anchor="middle">distance '
                 'from the raw value to the nearest 5-place rounding boundary, in ulps of the value (log scale)</text>')
    height = axis + 40
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height:.0f}" width="100%" '
            f'preserveAspectRatio="xMinYMin meet" role="img" font-family="system-ui, sans-serif" '
            f'aria-label="distance to the rounding boundary, one dot per program with findings">')
    return "\n".join([head, *parts, "</svg>"])


def legend(report: Report) -> list[tuple[str, str]]:
    """(colour, text) for each mark, with counts, for the HTML legend beside the figure."""
    lanes = Counter(lane_of(a) for a in report.analyses if a.ulps_to_boundary is not None)
    unplotted = sum(1 for a in report.analyses if a.findings and a.ulps_to_boundary is None)
    entries = [(lane.fill, f"{lane.label}: {lanes[index]}") for index, lane in enumerate(LANES)]
    entries.append((BAR_FILL, "bars: every program, counted per half-decade"))
    entries.append(("", f"arrows at the ends: values beyond 1e{LOW} or 1e{HIGH} ulps; 'tie': exactly 0 ulps; "
                        f"{unplotted} programs with findings have no finite nonzero raw value and are not drawn"))
    return entries
