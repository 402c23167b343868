"""The report model: every program's analysis plus the summary counts, built once for all formats."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..grammar.parse import ProgramSyntaxError, parse_program, parse_token_list
from ..batch import warm_up
from ..inputs import Item
from ..interp.status import Status
from ..limits import ItemTimeLimitExceeded, run_with_time_limit
from ..oracle.classify import ALL_VARIANTS, Analysis, FindingKind, analyze

FORMAT_VERSION = 1
"""Bumped whenever a field of report.json changes meaning or disappears."""


@dataclass(slots=True)
class Report:
    """What every reporter formats. ``analyses`` keeps input order; nothing is dropped."""

    source: str
    analyses: list[Analysis] = field(default_factory=list)

    @property
    def programs(self) -> int:
        return len(self.analyses)

    def statuses(self) -> dict[str, int]:
        return dict(sorted(Counter(a.status.label for a in self.analyses).items()))

    def divergent(self) -> dict[str, int]:
        """Rounder or variant name -> number of programs whose answer differs from the official one."""
        counts = {name: 0 for name in ALL_VARIANTS}
        for analysis in self.analyses:
            for finding in analysis.findings:
                if finding.kind.label in counts:
                    counts[finding.kind.label] += 1
        return counts

    def finding_counts(self) -> dict[str, int]:
        counts = {kind.label: 0 for kind in FindingKind}
        for analysis in self.analyses:
            for kind in analysis.kinds:
                counts[kind.label] += 1
        return counts

    def with_findings(self) -> list[Analysis]:
        return [analysis for analysis in self.analyses if analysis.findings]

    def refused(self) -> list[Analysis]:
        return [analysis for analysis in self.analyses if analysis.status is not Status.OK]

    def gold_summary(self) -> dict[str, int]:
        with_gold = [a for a in self.analyses if a.has_gold]
        mismatching = sum(1 for a in with_gold if FindingKind.GOLD_MISMATCH in a.kinds or a.status is not Status.OK)
        return {"with_gold": len(with_gold), "matching": len(with_gold) - mismatching, "mismatching": mismatching}


def analyze_item(item: Item) -> Analysis:
    """Parse and classify one batch item; bad input and syntax errors become refused analyses."""
    text = item.program if isinstance(item.program, str) else " ".join(item.program or [])
    if item.error is not None or item.program is None:
        return Analysis(item.id, text, Status.BAD_INPUT, None, None, item.gold, item.has_gold,
                        message=item.error or "the item has no program")
    try:
        program = parse_program(item.program) if isinstance(item.program, str) else parse_token_list(item.program)
    except ProgramSyntaxError as error:
        return Analysis(item.id, text, Status.SYNTAX_ERROR, None, None, item.gold, item.has_gold,
                        message=error.message)
    try:
        return analyze(item.id, program, item.table, item.gold, item.has_gold, item.dialect)
    except RecursionError:
        return Analysis(item.id, text, Status.LIMIT_EXCEEDED, None, None, item.gold, item.has_gold,
                        message="the program is nested too deeply to analyse")


def analyze_item_limited(item: Item) -> Analysis:
    """:func:`analyze_item` under the per-item wall-clock limit; an item over it (or out of memory)
    is kept, as a LIMIT_EXCEEDED analysis."""
    try:
        return run_with_time_limit(lambda: analyze_item(item))
    except ItemTimeLimitExceeded as error:
        message = str(error)
    except MemoryError:
        message = "the item needs more memory than is available"
    text = item.program if isinstance(item.program, str) else " ".join(item.program or [])
    return Analysis(item.id, text, Status.LIMIT_EXCEEDED, None, None, item.gold, item.has_gold, message=message)


def build_report(items: Iterable[Item], source: str,
                 progress: Callable[[int], None] | None = None) -> Report:
    """Analyse every item, in order."""
    report = Report(source)
    warm_up()  # the parser and oracle caches are built outside the first item's clock
    for done, item in enumerate(items, start=1):
        report.analyses.append(analyze_item_limited(item))
        if progress is not None:
            progress(done)
    return report
