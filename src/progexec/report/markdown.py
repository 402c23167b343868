"""report.md: the plain-text twin of report.html (same sections), for a README link or a pull-request comment."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TextIO

from ..core.status import STATUS_DESCRIPTIONS, Status
from ..oracle.classify import ALL_VARIANTS, FINAL_VALUE_ROUNDERS, ROUNDER_FINDING, VARIANT_TITLES, Analysis, FindingKind
from .json_report import _answer
from .legend import MEANINGS, SEVERITIES
from .model import Report
from .plot import FINAL_KINDS, LANES, lane_of
from ..core.plural import plural, plural_of



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


def _lead(report: Report) -> str:
    lanes = Counter(lane_of(a) for a in report.analyses)
    final, per_step_only = lanes[0], lanes[1]
    divergent, gold = report.divergent(), report.gold_summary()
    per_rounder = ", ".join(f"{name} {divergent[name]}" for name in ALL_VARIANTS if name != "per_step")
    return (f"Source: {report.source}. Programs: {report.programs}. **{plural(final, 'program')}** "
            f"{plural_of('gets', final)} a different answer "
            f"from a final-value rounder ({per_rounder}); {per_step_only} more differ only when every intermediate "
            f"is rounded (`per_step`). Gold answers: {gold['matching']} of {gold['with_gold']} match the official "
            f"execution. Refused: {len(report.refused())}.")


def _headline(report: Report) -> list[str]:
    rows = [a for a in report.analyses if a.kinds & FINAL_KINDS]
    lines = [f"### Where a final-value rounder diverges: {len(rows)}", ""]
    if not rows:
        return lines + ["None.", ""]
    lines += ["| id | program | raw value | official | diverging rounders: answer |", "|---|---|---|---|---|"]
    for a in rows:
        diverging = ", ".join(f"{name} {_show(a.answers.get(name))}" for name in FINAL_VALUE_ROUNDERS
                              if ROUNDER_FINDING[name] in a.kinds)
        lines.append(f"| {_cell(a.id)} | `{_cell(a.program)}` | {_show(a.raw) if a.raw is not None else ''} | "
                     f"{_show(a.official)} | {diverging} |")
    return lines + [""]


def _plot_section(report: Report) -> list[str]:
    counts = Counter(lane_of(a) for a in report.analyses if a.ulps_to_boundary is not None)
    lines = ["## Distance to the rounding boundary", "",
             "Plotted in report.html; each listed program's distance is in the next table.", ""]
    lines += [f"- {lane.label}: {counts[index]}" for index, lane in enumerate(LANES)]
    return lines + [""]


def _listed(report: Report) -> list[str]:
    listed = [a for a in report.analyses if a.findings or a.status is not Status.OK]
    lines = [f"## Programs with findings or refused: {len(listed)}", ""]
    if not listed:
        return lines + ["None.", ""]
    lines += ["| id | status | program | raw value | official | ulps to boundary | findings |",
              "|---|---|---|---|---|---|---|"]
    for a in listed:
        ulps = "" if a.ulps_to_boundary is None else f"{a.ulps_to_boundary:.3g}"
        kinds = ", ".join(f"`{f.kind.label}`" for f in a.findings)
        lines.append(f"| {_cell(a.id)} | {a.status.label} | `{_cell(a.program)}` | "
                     f"{_show(a.raw) if a.raw is not None else ''} | {_show(a.official) if a.official is not None else ''} "
                     f"| {ulps} | {kinds} |")
    return lines + [""]


def _legend() -> list[str]:
    lines = ["## Legend: finding kinds", "", "| finding | severity | meaning |", "|---|---|---|"]
    lines += [f"| `{kind.label}` | {kind.severity} | {_cell(MEANINGS[kind])} |" for kind in FindingKind]
    lines.append("")
    lines += [f"- *{name}*: {text}" for name, text in SEVERITIES.items()]
    return lines + [""]


def render(report: Report) -> str:
    """The whole report.md text: the same sections as report.html, in plain text."""
    divergent = report.divergent()
    lines = ["# progexec divergence report", "", _lead(report), "", "## Summary", ""]
    lines += _headline(report)
    lines += ["### Programs whose answer differs, per rounder", "",
              "| rounder / variant | programs whose answer differs from the official one |", "|---|---|"]
    lines += [f"| {VARIANT_TITLES[name]} | {divergent[name]} |" for name in ALL_VARIANTS]
    lines += ["", "### Programs per finding kind", "", "| finding | severity | programs |", "|---|---|---|"]
    counts = report.finding_counts()
    lines += [f"| `{kind.label}` | {kind.severity} | {counts[kind.label]} |" for kind in FindingKind]
    lines += ["", "### Programs per status", "", "| status | meaning | programs |", "|---|---|---|"]
    lines += [f"| {name} | {STATUS_DESCRIPTIONS[Status[name.upper()]]} | {count} |"
              for name, count in report.statuses().items()]
    lines.append("")
    lines += _plot_section(report)
    lines += _listed(report)
    lines += ["## Divergent rounders", ""]
    for name in ALL_VARIANTS:
        lines += _variant_table(report, name)
    hazards = tuple(kind for kind in FindingKind if kind.label not in divergent)
    lines += ["## Other findings", ""]
    lines += _findings_section(report.with_findings(), hazards)
    refused = report.refused()
    lines += [f"## Refused programs: {len(refused)}", ""]
    if refused:
        lines += ["| id | status | program | message |", "|---|---|---|---|"]
        lines += [f"| {_cell(a.id)} | {a.status.label} | `{_cell(a.program)}` | {_cell(a.message)} |" for a in refused]
    else:
        lines.append("None.")
    lines.append("")
    lines += _legend()
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class MarkdownReporter:
    """report.md."""

    report_type: str = "markdown"

    def report(self, model: Report, outfile: TextIO) -> None:
        outfile.write(render(model))
