"""report.md: the human-readable report, for a README link or a pull-request comment."""

from __future__ import annotations

from ..oracle.classify import ALL_VARIANTS, Analysis, FindingKind
from .json_report import _answer
from .model import Report

VARIANT_TITLES = {
    "exact": "`exact` — the single-rounding port of `round(x, 5)`",
    "naive": "`naive` — `round(x * 1e5) / 1e5`",
    "half_up": "`half_up` — `floor(x * 1e5 + 0.5) / 1e5`",
    "numpy": "`numpy` — `numpy.round(x, 5)`",
    "per_step": "`per_step` — every intermediate rounded to 5 places",
}


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _show(value: object) -> str:
    return _cell(repr(_answer(value)) if isinstance(value, float) else _answer(value))


def _variant_table(report: Report, name: str) -> list[str]:
    kind = next(kind for kind in FindingKind if kind.label == name)
    rows = [a for a in report.analyses if kind in a.kinds]
    lines = [f"### {VARIANT_TITLES[name]}: {len(rows)} divergent", ""]
    if not rows:
        return lines + ["None.", ""]
    lines += ["| id | program | raw value | official | this rounder |", "|---|---|---|---|---|"]
    for a in rows:
        lines.append(f"| {_cell(a.id)} | `{_cell(a.program)}` | {_show(a.raw) if a.raw is not None else ''} | "
                     f"{_show(a.official)} | {_show(a.answers.get(name))} |")
    return lines + [""]


def _findings_section(analyses: list[Analysis], kinds: tuple[FindingKind, ...]) -> list[str]:
    lines: list[str] = []
    for kind in kinds:
        rows = [(a, f) for a in analyses for f in a.findings if f.kind is kind]
        lines += [f"### `{kind.label}` ({kind.severity}): {len(rows)}", ""]
        if not rows:
            lines += ["None.", ""]
            continue
        lines += ["| id | program | finding |", "|---|---|---|"]
        lines += [f"| {_cell(a.id)} | `{_cell(a.program)}` | {_cell(f.message())} |" for a, f in rows]
        lines.append("")
    return lines


def render(report: Report) -> str:
    divergent = report.divergent()
    gold = report.gold_summary()
    lines = [
        "# progexec divergence report",
        "",
        f"Source: {report.source}. Programs: {report.programs}. "
        f"Gold answers: {gold['matching']} of {gold['with_gold']} match the official execution.",
        "",
        "## Summary",
        "",
        "| rounder / variant | programs whose answer differs from the official one |",
        "|---|---|",
    ]
    lines += [f"| {VARIANT_TITLES[name]} | {divergent[name]} |" for name in ALL_VARIANTS]
    lines += ["", "| finding | severity | programs |", "|---|---|---|"]
    counts = report.finding_counts()
    lines += [f"| `{kind.label}` | {kind.severity} | {counts[kind.label]} |" for kind in FindingKind]
    lines += ["", "| status | programs |", "|---|---|"]
    lines += [f"| {name} | {count} |" for name, count in report.statuses().items()]
    lines += ["", "## Divergent rounders", ""]
    for name in ALL_VARIANTS:
        lines += _variant_table(report, name)
    hazards = tuple(kind for kind in FindingKind if kind.label not in divergent)
    lines += ["## Other findings", ""]
    lines += _findings_section(report.with_findings(), hazards)
    refused = report.refused()
    lines += [f"## Refused programs: {len(refused)}", ""]
    if refused:
        lines += ["| id | status | message |", "|---|---|---|"]
        lines += [f"| {_cell(a.id)} | {a.status.label} | {_cell(a.message)} |" for a in refused]
    else:
        lines.append("None.")
    lines += ["", "Finding kinds: a *divergence* changes an answer; a *hazard* marks a value where some port "
              "can go wrong; *info* explains a value. `ulps_to_boundary` for every program is in report.json "
              "(programs with findings) and plotted in report.html.", ""]
    return "\n".join(lines)
