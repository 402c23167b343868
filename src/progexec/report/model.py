"""The report model: every program's analysis plus the summary counts, built once for all formats."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import partial
import hashlib
import json
from dataclasses import dataclass, field, replace
from typing import Any

from ..core.status import Status
from ..core.item import Item
from ..core.registry import get_dataset
from ..core.limits import Limits
from ..meta import run_meta
from ..parallel import ParallelOptions, PerItem, parallel_map
from ..oracle.classify import ALL_VARIANTS, Analysis, FindingKind, analyze_execution
from ..runner import Stop, bounded, execute_unbounded, limit_exceeded, prepare
from ..textchunks import Chunk, chunk_items



@dataclass(slots=True)
class Report:
    """What every reporter formats. ``analyses`` keeps input order; nothing is dropped."""

    source: str
    analyses: list[Analysis] = field(default_factory=list)
    meta: dict[str, Any] | None = None

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

    def stopped_by_clock(self) -> int:
        """How many items the wall-clock backstop stopped: a run with any says so and fails (its figures
        are then lower bounds that depend on the machine)."""
        return sum(1 for analysis in self.analyses if analysis.stopped_by_clock)

    def gold_summary(self) -> dict[str, int]:
        with_gold = [a for a in self.analyses if a.has_gold]
        mismatching = sum(1 for a in with_gold if FindingKind.GOLD_MISMATCH in a.kinds)
        return {"with_gold": len(with_gold), "matching": len(with_gold) - mismatching, "mismatching": mismatching}


def analyze_item(item: Item, limits: Limits | None = None) -> Analysis:
    """Execute one item through the runner and classify it, under the item's bounds; an item stopped
    by a bound (or out of memory) is kept, as a LIMIT_EXCEEDED analysis."""

    def stopped(stop: Stop) -> Analysis:
        return analyze_execution(limit_exceeded(item, stop.message, stop.clock))

    return bounded(item, lambda: analyze_execution(execute_unbounded(item)), stopped, limits)


def build_report(items: Iterable[Item], source: str, progress: Callable[[int], None] | None = None,
                 limits: Limits | None = None, options: ParallelOptions | None = None) -> Report:
    """Analyse every item, in order (on the engine ``options`` names; serial by default); ``meta`` records
    progexec, Python, the limits and the SHA-256 of the items as read (the same for the command line and
    the library, so the report is reproducible)."""
    report = Report(source)
    prepare()  # the parsers and oracle modules are ready before the first item's clock starts
    digest = hashlib.sha256()

    def fingerprinted() -> Iterator[Item]:
        for item in items:
            digest.update(item_fingerprint(item))
            yield item

    work: PerItem[Item, Analysis] = PerItem(partial(analyze_item, limits=limits))
    for done, analysis in enumerate(parallel_map(work, fingerprinted(), options), start=1):
        report.analyses.append(analysis)
        if progress is not None:
            progress(done)
    report.meta = run_meta([], None, limits) | {"items_sha256": digest.hexdigest()}
    del report.meta["inputs"]
    return report


def analyze_chunk(chunk: Chunk, limits: Limits | None = None, dialect: str | None = None,
                  ) -> tuple[list[Analysis], bytes]:
    """One chunk of record text to its items' analyses, in order, and their fingerprints (one string of bytes):
    what a worker of a parallel report does (it builds the chunk's Items itself)."""
    prepare()  # where no one did (a Ray task): before the first item's clock starts
    analyses: list[Analysis] = []
    fingerprints: list[bytes] = []
    dataset = get_dataset(dialect) if dialect is not None else None
    for item in chunk_items(chunk):
        if dataset is not None and item.dialect is not dataset:
            item = replace(item, dialect=dataset)
        fingerprints.append(item_fingerprint(item))
        analyses.append(analyze_item(item, limits))
    return analyses, b"".join(fingerprints)


def build_report_chunks(chunks: Iterable[Chunk], source: str, progress: Callable[[int], None] | None = None,
                        limits: Limits | None = None, options: ParallelOptions | None = None,
                        dialect: str | None = None) -> Report:
    """:func:`build_report` of inputs read as chunks of record text (:mod:`progexec.textchunks`), each analysed
    where ``options`` says (worker processes get the text, never Items): the same report, byte for byte."""
    report = Report(source)
    digest = hashlib.sha256()
    work = PerItem(partial(analyze_chunk, limits=limits, dialect=dialect))
    options = replace(options or ParallelOptions(), chunk_size=1)
    for analyses, fingerprints in parallel_map(work, chunks, options, prepare=prepare):
        digest.update(fingerprints)
        report.analyses.extend(analyses)
        if progress is not None:
            progress(len(report.analyses))
    report.meta = run_meta([], None, limits) | {"items_sha256": digest.hexdigest()}
    del report.meta["inputs"]
    return report


def item_fingerprint(item: Item) -> bytes:
    """The bytes of an item that its analysis depends on (id, program, table, gold, dialect)."""
    record = [item.id, item.program, item.table, item.gold, item.has_gold, item.dialect.name, item.error]
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass") + b"\n"
