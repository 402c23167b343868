"""A dependency-free, deterministic SVG plot: distance to the nearest rounding boundary, in ulps.

Every numeric program is a dot at x = log10(ulps to boundary); programs where a
final-value rounder diverges are red, those where only per-step rounding does are orange. Rows spread dots vertically by a
hash of the id, so the picture is the same on every run.
"""

from __future__ import annotations

import math
import zlib
from html import escape

from ..oracle.classify import FindingKind
from .model import Report

WIDTH, HEIGHT, MARGIN = 860, 320, 50
FINAL_ROUNDING_KINDS = frozenset({FindingKind.NAIVE_DIFFERS, FindingKind.HALF_UP_DIFFERS, FindingKind.NUMPY_DIFFERS,
                                  FindingKind.EXACT_PORT_DIFFERS})
STYLES = {  # category -> (radius, fill, legend)
    0: (1.5, "#1f77b4", "agrees everywhere"),
    1: (3.5, "#ff7f0e", "only per_step (intermediate rounding) diverges"),
    2: (4.5, "#d62728", "a final-value rounder (naive, half_up, numpy) diverges"),
}


def _category(kinds: frozenset[FindingKind]) -> int:
    if kinds & FINAL_ROUNDING_KINDS:
        return 2
    return 1 if FindingKind.PER_STEP_DIFFERS in kinds else 0


def _x(log_ulps: float, low: float, high: float) -> float:
    return MARGIN + (log_ulps - low) / (high - low) * (WIDTH - 2 * MARGIN)


def render_svg(report: Report) -> str:
    points = [(a.id, math.log10(max(a.ulps_to_boundary, 1e-3)), _category(a.kinds))
              for a in report.analyses if a.ulps_to_boundary is not None]
    low, high = -3.0, 16.0
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
             f'height="{HEIGHT}" role="img" aria-label="distance to the rounding boundary">',
             f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="white"/>']
    axis_y = HEIGHT - MARGIN
    parts.append(f'<line x1="{MARGIN}" y1="{axis_y}" x2="{WIDTH - MARGIN}" y2="{axis_y}" stroke="black"/>')
    for tick in range(int(low), int(high) + 1, 2):
        x = _x(tick, low, high)
        parts.append(f'<line x1="{x:.1f}" y1="{axis_y}" x2="{x:.1f}" y2="{axis_y + 5}" stroke="black"/>')
        parts.append(f'<text x="{x:.1f}" y="{axis_y + 18}" font-size="11" text-anchor="middle">1e{tick}</text>')
    parts.append(f'<text x="{WIDTH / 2:.0f}" y="{HEIGHT - 8}" font-size="12" text-anchor="middle">'
                 'distance from the final raw value to the nearest 5-place rounding boundary (ulps, log scale)</text>')
    band = axis_y - MARGIN / 2 - 20
    for item_id, log_ulps, category in sorted(points, key=lambda p: (p[2], p[0])):
        x = _x(min(max(log_ulps, low), high), low, high)
        y = 52 + (zlib.crc32(item_id.encode("utf-8")) % 1000) / 1000 * (band - 27)
        radius, fill, _ = STYLES[category]
        if category:
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius}" fill="{fill}" stroke="black" '
                         f'stroke-width="0.5"><title>{escape(item_id)}: {10 ** log_ulps:.3g} ulps</title></circle>')
        else:
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius}" fill="{fill}" fill-opacity="0.35"/>')
    counts = {category: sum(1 for point in points if point[2] == category) for category in STYLES}
    for row, (category, (radius, fill, legend)) in enumerate(STYLES.items()):
        y = 12 + row * 14
        parts.append(f'<circle cx="{MARGIN + 6}" cy="{y - 4}" r="{max(radius, 3)}" fill="{fill}"/>')
        parts.append(f'<text x="{MARGIN + 16}" y="{y}" font-size="11">{escape(legend)}: {counts[category]}</text>')
    parts.append("</svg>")
    return "\n".join(parts)
