"""``progexec exec [INPUT ...]``: run every program of the inputs (or an embedded corpus), one JSON line each."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import partial
from itertools import chain, islice

from ..corpus import CORPUS_NAMES
from ..core.item import Item
from ..core.registry import corpus_shortcuts, get_dataset, option_dataset_names
from ..datasets.mathqa.execute import MathQAResult, Semantics
from ..core.limits import Limits, using
from ..readers import read
from ..core.errors import InputError, OptionError
from ..record_line import execution_line
from ..parallel import Engine, PerItem, parallel_map
from ..runner import execute, prepare, stopped_by_clock
from ..textchunks import Chunk, chunk_items, read_chunks
from .mathqa_cmd import add_semantics_argument, semantics_from
from .parallel_args import add_parallel_arguments, parallel_options
from .dialect_args import add_dialect_argument, chosen_dialect, with_dialect
from .common import EXIT_DIVERGENCE, EXIT_OK, add_batch_options, limits_from, open_output, progress_for, verdict, write_summary
from ..core.plural import plural

NAME = "exec"
HELP = "execute a batch of programs (FinQA / ConvFinQA / MathQA / JSON Lines) and write one JSON line per program"
EXIT_CODES = "exit codes: 0 every item with a gold answer matches it, 1 some do not, 2 usage or input error"

_CORPORA = corpus_shortcuts()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("inputs", nargs="*", metavar="INPUT",
                        help="input files (.json, .jsonl, .gz), - for standard input, or an embedded corpus ("
                             + ", ".join(CORPUS_NAMES) + "); default: the embedded FinQA corpus")
    parser.add_argument("--corpus", choices=tuple(_CORPORA), default=next(iter(_CORPORA)),
                        help="embedded corpus to run when no INPUT is given (default finqa)")
    parser.add_argument("--out", metavar="FILE", help="write JSON Lines here instead of standard output")
    parser.add_argument("--summary", metavar="FILE",
                        help="also write the run's summary as one JSON document (format_version, meta, counts)")
    parser.add_argument("--quiet", action="store_true", help="no summary on stderr")
    add_semantics_argument(parser)
    add_dialect_argument(parser)
    add_batch_options(parser)
    add_parallel_arguments(parser)


def stream_items(sources: list[str]) -> Iterator[Item]:
    """The Items of every source in turn; a source that cannot be read is a usage error naming it."""
    for source in sources:
        try:
            yield from read(source)
        except InputError as error:
            raise OptionError(str(error)) from None


def stream_chunks(sources: list[str], size: int) -> Iterator[Chunk]:
    """The sources as chunks of record text (:mod:`progexec.textchunks`); a source that cannot be read is a
    usage error naming it."""
    try:
        yield from read_chunks(sources, size)
    except InputError as error:
        raise OptionError(str(error)) from None


def run(args: argparse.Namespace) -> int:
    limits = limits_from(args)
    sources = list(args.inputs) or list(_CORPORA[args.corpus])
    tally = Tally()
    options = parallel_options(args)
    results: Iterator[tuple[str, dict[TallyEntry, int]]]
    with using(limits):  # the first input is judged (and refused) before the output is opened
        if options.engine is Engine.SERIAL:  # Items straight from the readers, executed here
            items = with_dialect(stream_items(sources), chosen_dialect(args))
            head = list(islice(items, 1))
            work = PerItem(partial(exec_line, limits=limits, semantics=semantics_from(args)))
            results = ((line, {entry: 1}) for line, entry in parallel_map(work, chain(head, items), options))
        else:  # workers get the records' text and send back their output text
            chunks = stream_chunks(sources, options.chunk_size)
            first = list(islice(chunks, 1))
            chunk_work = PerItem(partial(exec_chunk, limits=limits, semantics=semantics_from(args),
                                         dialect=chosen_dialect(args)))
            results = parallel_map(chunk_work, chain(first, chunks), replace(options, chunk_size=1), prepare=prepare)
    progress = progress_for(args, None, "exec", sources)
    out = open_output(args.out)
    try:
        with using(limits):  # the readers' bounds too: items are read as they are executed
            for text, entries in results:
                out.write(text)
                for entry, count in entries.items():
                    tally.add(entry, count)
                progress.update(tally.total)
    finally:
        progress.close()
        if out is not sys.stdout:
            out.close()
    write_summary(args, sources, tally.record())
    if not args.quiet:
        for line in tally.summary():
            print(f"exec: {line}", file=sys.stderr)
    if tally.clock:
        verdict(f"exec: {plural(tally.clock, 'item')} stopped by the clock; the figures are lower bounds", False)
        return EXIT_DIVERGENCE
    return EXIT_OK if tally.matched == tally.with_gold else EXIT_DIVERGENCE


@dataclass(frozen=True, slots=True)
class TallyEntry:
    """What the summary needs of one executed item (small, so workers send little back)."""

    status: str
    match: bool | None
    section: str
    """The dataset whose own summary section counts the item (answers by option: MathQA), or ``""``."""
    within: bool = False
    selected: bool = False
    clock: bool = False
    not_executed: str = ""
    """The answer type of a question that is counted, not executed (TAT-QA span, multi-span, count)."""


def exec_line(item: Item, limits: Limits, semantics: Semantics) -> tuple[str, TallyEntry]:
    """One item's JSON line and summary entry: the function every engine (serial, processes, Ray) runs."""
    execution = execute(item, limits, semantics)
    if getattr(execution.detail, "executed", True) is False:  # counted, not executed (TAT-QA span questions)
        kind = str(getattr(execution.detail, "answer_type", "other"))
        return "", TallyEntry(execution.status.label, None, "", not_executed=kind)
    result = execution.detail if isinstance(execution.detail, MathQAResult) else None
    if result is None:  # the FinQA family: one shared entry per (status, match, clock), not one object per item
        key = (execution.outcome.status, execution.match, stopped_by_clock(execution))
        entry = _ENTRIES.get(key)
        if entry is None:
            entry = _ENTRIES[key] = TallyEntry(execution.status.label, execution.match, "", clock=key[2])
    else:
        assert execution.item is not None
        entry = TallyEntry(execution.status.label, execution.match, execution.item.dialect.name, bool(result.match),
                           bool(result.option is not None and result.option == result.correct),
                           stopped_by_clock(execution))
    return execution_line(execution) + "\n", entry


def exec_chunk(chunk: Chunk, limits: Limits, semantics: Semantics, dialect: str | None,
               ) -> tuple[str, Counter[TallyEntry]]:
    """One chunk of record text to its JSON lines, in order, as one string, and how many items had each summary
    entry: what a worker of a parallel run does (it builds the chunk's Items itself)."""
    lines: list[str] = []
    entries: Counter[TallyEntry] = Counter()
    with using(limits):
        for item in with_dialect(chunk_items(chunk), dialect):
            line, entry = exec_line(item, limits, semantics)
            lines.append(line)
            entries[entry] += 1
    return "".join(lines), entries


_ENTRIES: dict[tuple[object, bool | None, bool], TallyEntry] = {}
"""The FinQA family's tally entries, shared (they are frozen and few)."""


class _Section:
    """One option-answered dataset's counts: statuses, values within 1% of the correct option, correct selections."""

    def __init__(self) -> None:
        self.statuses: Counter[str] = Counter()
        self.within = self.selected = 0

    def record(self) -> dict[str, object]:
        return {"statuses": dict(sorted(self.statuses.items())), "within_one_percent": self.within,
                "selected_correct_option": self.selected}


def _option_datasets() -> list[str]:
    """The registered datasets answered by option letters, whose sections every summary carries."""
    return list(option_dataset_names())


class Tally:
    """The counts behind exec's summary: statuses, gold matches (FinQA family), and the section of each dataset
    answered by options (MathQA: option matches)."""

    def __init__(self) -> None:
        self.statuses: Counter[str] = Counter()
        self.sections: dict[str, _Section] = {}
        self.total = self.with_gold = self.matched = self.clock = 0
        self.not_executed: Counter[str] = Counter()

    def add(self, entry: TallyEntry, times: int = 1) -> None:
        """Count ``times`` items whose summary entry is ``entry``."""
        self.total += times
        self.clock += entry.clock * times
        if entry.not_executed:
            self.not_executed[entry.not_executed] += times
            return
        if entry.section:  # answers by option (MathQA): a dataset-quality count, not a divergence of the semantics
            section = self.sections.setdefault(entry.section, _Section())
            section.statuses[entry.status] += times
            section.within += entry.within * times
            section.selected += entry.selected * times
            return
        self.statuses[entry.status] += times
        if entry.match is not None:
            self.with_gold += times
            self.matched += entry.match * times

    def record(self) -> dict[str, object]:
        """The summary as JSON fields (the ``--summary`` document's body)."""
        return {"command": NAME, "records": self.total, "statuses": dict(sorted(self.statuses.items())),
                "with_gold": self.with_gold, "matched": self.matched,
                **{name: self.sections.get(name, _Section()).record() for name in _option_datasets()},
                "not_executed": dict(sorted(self.not_executed.items())),
                "stopped_by_clock": self.clock}

    def summary(self) -> list[str]:
        lines = []
        if self.statuses or not self.sections:
            by_status = ", ".join(f"{name} {count}" for name, count in sorted(self.statuses.items()))
            lines.append(f"{plural(sum(self.statuses.values()), 'program')} ({by_status}); "
                         f"{self.matched}/{self.with_gold} match their gold answer")
        if self.not_executed:
            by_type = ", ".join(f"{name} {count}" for name, count in sorted(self.not_executed.items()))
            lines.append(f"{plural(sum(self.not_executed.values()), 'question')} of other types counted, not executed "
                         f"({by_type})")
        for name, section in self.sections.items():
            by_status = ", ".join(f"{status} {count}" for status, count in sorted(section.statuses.items()))
            lines.append(f"{sum(section.statuses.values())} {get_dataset(name).title} problems ({by_status}); "
                         f"{section.within} within 1% of the correct option; {section.selected} select the correct option")
        if self.clock:
            lines.append(f"stopped_by_clock: {self.clock}: the per-item clock (item_time_limit) stopped these items; "
                         "they are limit_exceeded and every count above is a lower bound that depends on the machine")
        return lines
