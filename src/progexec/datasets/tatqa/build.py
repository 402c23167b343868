"""The TAT-QA divergence report built from Items through the runner (what ``progexec report`` reads), in input
order: each arithmetic derivation run, every other answer type counted."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from ...core.item import Item
from ...core.limits import Limits, current
from ...meta import run_meta
from .execute import DerivationResult
from .report import TatqaReport, build_tatqa_report
from .run import NotExecuted

__all__ = ["item_results", "report_from_items"]


def item_results(items: Iterable[Item], limits: Limits | None = None) -> Iterator[DerivationResult | str]:
    """Each Item through the runner: its derivation result, or the answer type of a question not executed
    (``bad_input`` for an unusable record, ``limit_exceeded`` for one a bound stopped)."""
    from ...runner import execute

    for item in items:
        execution = execute(item, limits)
        detail = execution.detail
        if isinstance(detail, DerivationResult):
            yield detail
        elif isinstance(detail, NotExecuted):
            yield detail.answer_type
        else:  # an unusable record (bad_input) or an item a bound stopped (limit_exceeded)
            yield execution.status.label


def report_from_items(items: Iterable[Item], source: str, sources: list[str], limits: Limits | None = None,
                      progress: Callable[[int], None] | None = None) -> TatqaReport:
    """The report over Items read from ``sources`` (``-`` is stdin, left out of the run's record)."""
    chosen = limits or current()
    report = build_tatqa_report(item_results(items, chosen), source, progress)
    report.meta = run_meta([name for name in sources if name != "-"], None, chosen)
    return report

