"""A dependency-free, deterministic SVG plot: distance to the nearest rounding boundary, in ulps.

Every numeric program is a dot at x = log10(ulps to boundary); programs with a
divergent rounder are drawn larger and in red. Rows spread dots vertically by a
hash of the id, so the picture is the same on every run.
"""

from __future__ import annotations

import math
import zlib
from html import escape

from ..oracle.classify import FindingKind
from .model import Report

WIDTH, HEIGHT, MARGIN = 860, 300, 50
DIVERGENT_KINDS = frozenset({FindingKind.NAIVE_DIFFERS, FindingKind.HALF_UP_DIFFERS, FindingKind.NUMPY_DIFFERS,
                             FindingKind.PER_STEP_DIFFERS, FindingKind.EXACT_PORT_DIFFERS})


def _x(log_ulps: float, low: float, high: float) -> float:
    return MARGIN + (log_ulps - low) / (high - low) * (WIDTH - 2 * MARGIN)


def render_svg(report: Report) -> str:
    points = [(a.id, math.log10(max(a.ulps_to_boundary, 1e-3)), bool(a.kinds & DIVERGENT_KINDS))
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
    for item_id, log_ulps, divergent in sorted(points, key=lambda p: p[2]):
        x = _x(min(max(log_ulps, low), high), low, high)
        y = MARGIN / 2 + (zlib.crc32(item_id.encode("utf-8")) % 1000) / 1000 * band
        if divergent:
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="#d62728" stroke="black" stroke-width="0.5">'
                         f'<title>{escape(item_id)}: {10 ** log_ulps:.3g} ulps</title></circle>')
        else:
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="1.5" fill="#1f77b4" fill-opacity="0.35"/>')
    parts.append(f'<text x="{WIDTH - MARGIN}" y="16" font-size="11" text-anchor="end">'
                 f'{len(points)} programs; red: a rounder or per-step variant diverges</text>')
    parts.append("</svg>")
    return "\n".join(parts)
