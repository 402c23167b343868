"""Inputs as chunks of record text: what ``exec`` and ``report`` send their worker processes.

The parent reads every source along the readers' one path (:mod:`progexec.readers`: bytes to text, the
input's shape, the refusal rule, the format taken from the first records, every unreadable record named by
its line or position) but builds no Item and pickles no record: it sends the records' JSON text, in chunks,
and a worker decodes them and builds the Items itself (:func:`chunk_items`), the very Items
:func:`~progexec.readers.read` gives, in the same order. An embedded corpus (package data every worker has)
is sent as a range of its items.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, islice
from pathlib import Path

from .core.item import Item
from .core.limits import Limits, current
from .inputkinds import DATASET_OR_PROGRAMS, PROGRAMS, Wanted, judge
from .jsoncodec import loads
from .jsonrecords import (ElementRun, Record, input_shape, iter_json_list_runs, iter_raw_lines, line_record,
                          run_values)
from .readers import detect_format, record_items, refuse_unknown_corpus
from .textsource import TextSource, open_source


@dataclass(frozen=True, slots=True)
class TextChunk:
    """Consecutive records of one source, as read and numbered from ``first``: each entry is one record's JSON text
    (a line of JSON Lines, blank ones included, or an element of a JSON list), its :class:`Record` when the
    reader already found it unusable, or a run of a list's elements (:class:`~progexec.jsonrecords.ElementRun`).
    ``kind`` is their format (:func:`~progexec.readers.reader_for`), ``stem`` the source's name for ids
    (``test-12``)."""

    shape: str
    kind: str
    stem: str
    first: int
    entries: list[str | Record | ElementRun]


@dataclass(frozen=True, slots=True)
class CorpusChunk:
    """Items ``start`` to ``stop`` of an embedded corpus."""

    name: str
    start: int
    stop: int


Chunk = TextChunk | CorpusChunk


@lru_cache(maxsize=None)
def _corpus(name: str) -> tuple[Item, ...]:
    """An embedded corpus's Items, built once per process (a forked worker inherits the parent's)."""
    from .corpus import corpus_items

    return tuple(corpus_items(name))


def chunk_items(chunk: Chunk) -> Iterator[Item]:
    """The Items of one chunk, in order: what :func:`~progexec.readers.read` gives for these records."""
    if isinstance(chunk, CorpusChunk):
        yield from _corpus(chunk.name)[chunk.start:chunk.stop]
        return
    for records in _chunk_records(chunk):
        yield from record_items(records, chunk.kind, chunk.stem)


def chunk_records(chunk: TextChunk) -> list[Record]:
    """The Records of one chunk, in order: what the readers give for these records (``reward``'s workers score
    them)."""
    return [record for records in _chunk_records(chunk) for record in records]


def _chunk_records(chunk: TextChunk) -> Iterator[list[Record]]:
    """The Records of each entry of a chunk, decoded here as the readers decode them."""
    number = chunk.first
    for entry in chunk.entries:
        if isinstance(entry, ElementRun):  # whole elements the parent checked: decoded here, to the same values
            records: list[Record] = [Record(entry.first + offset, f"item {entry.first + offset}", value)
                                     for offset, value in enumerate(run_values(entry))]
            number += entry.count
        elif isinstance(entry, Record):
            records = [entry]
            number += 1
        elif chunk.shape == "lines":
            line = line_record(entry, number)
            records = [line] if line is not None else []
            number += 1
        else:  # an element the parent decoded already: it decodes here too, to the same value
            records = [Record(number, f"item {number}", loads(entry))]
            number += 1
        yield records


def read_chunks(sources: Iterable[str], size: int, limits: Limits | None = None,
                wanted: Wanted | None = DATASET_OR_PROGRAMS) -> Iterator[Chunk]:
    """Every source in turn as chunks of at most ``size`` records, judged and read as
    :func:`~progexec.readers.read` reads them (an unreadable or refused source raises :class:`InputError`)."""
    for source in sources:
        from .corpus import CORPUS_NAMES

        if source in CORPUS_NAMES:
            count = len(_corpus(source))
            for start in range(0, count, size):
                yield CorpusChunk(source, start, min(start + size, count))
            continue
        refuse_unknown_corpus(source)
        opened = open_source(source, limits)
        try:
            yield from _source_chunks(opened, size, limits, wanted)
        finally:
            opened.close()


def _stem(name: str) -> str:
    return Path(name).name.split(".")[0] or "stdin"


def _source_chunks(source: TextSource, size: int, limits: Limits | None, wanted: Wanted | None,
                   ) -> Iterator[TextChunk]:
    stem = _stem(source.name)
    if input_shape(source) == "list":
        yield from _list_chunks(source, size, limits, wanted, stem)
    else:
        yield from _line_chunks(source, size, limits, wanted, stem)


def list_chunks(source: TextSource, size: int, wanted: Wanted, limits: Limits | None = None) -> Iterator[TextChunk]:
    """A JSON list of records that are not items (``reward``'s inputs) as chunks of at most ``size`` records:
    judged as ``wanted`` by its first elements, the rest sent as text (:func:`chunk_records` reads them)."""
    yield from _list_chunks(source, size, limits, wanted, _stem(source.name), formats=False)


def _list_chunks(source: TextSource, size: int, limits: Limits | None, wanted: Wanted | None,
                 stem: str, formats: bool = True) -> Iterator[TextChunk]:
    """A JSON list's elements: the first ones decoded here (to judge the input and take its format: the first
    element's that has one, as :func:`~progexec.readers.items_from` takes it; elements before it wait for it;
    without ``formats``, no format is looked for), the rest cut into runs of whole elements undecoded where the
    fast decoder can check them (:func:`~progexec.jsonrecords.iter_json_list_runs`)."""
    head = source.peek(4096)
    window = current().judged_records
    elements = iter_json_list_runs(source, limits, window, size)
    first = list(islice(elements, window))  # Records only: runs start after them
    if wanted is not None:
        judge(source.name, "list", [record for record in first if isinstance(record, Record)], wanted, head)
    records = chain(first, elements)
    kind: str | None = None if formats else PROGRAMS
    batch: list[Record | ElementRun] = []
    count = 0
    for record in records:
        if kind is None:
            found = _format(record)
            if found is None:
                batch.append(record)
                count += _count(record)
                continue
            kind = found
        if batch and count + _count(record) > size:
            yield _list_chunk(batch, kind, stem)
            batch, count = [], 0
        batch.append(record)
        count += _count(record)
    if batch:
        yield _list_chunk(batch, kind or PROGRAMS, stem)


def _format(record: Record | ElementRun) -> str | None:
    """The format a list element has (of a run: its first element's), or None."""
    if isinstance(record, ElementRun):
        return detect_format(run_values(record)[0])
    return detect_format(record.value) if record.error is None else None


def _count(entry: Record | ElementRun) -> int:
    return entry.count if isinstance(entry, ElementRun) else 1


def _list_chunk(records: list[Record | ElementRun], kind: str, stem: str) -> TextChunk:
    entries: list[str | Record | ElementRun] = [
        record if isinstance(record, ElementRun) or record.error is not None or record.text is None else record.text
        for record in records]
    return TextChunk("list", kind, stem, records[0].number if isinstance(records[0], Record) else records[0].first,
                     entries)


def _line_chunks(source: TextSource, size: int, limits: Limits | None, wanted: Wanted | None,
                 stem: str) -> Iterator[TextChunk]:
    """JSON Lines as raw lines: only the first records are decoded here, to judge the input and take its format
    (the first readable line's: a dataset's, else program records), as :func:`~progexec.readers.items_from` does."""
    head = source.peek(4096)
    lines = iter_raw_lines(source, limits)
    seen: list[str | None] = []
    window: list[Record] = []
    kind: str | None = None
    judged_count = current().judged_records
    for text in lines:
        seen.append(text)
        record = line_record(text, len(seen), limits)
        if record is None:
            continue
        if len(window) < judged_count:
            window.append(record)
        if kind is None and record.error is None:
            found = detect_format(record.value)
            kind = found if found is not None else PROGRAMS
        if kind is not None and len(window) >= judged_count:
            break
    if wanted is not None:
        judge(source.name, "lines", window, wanted, head)
    kind = kind or PROGRAMS
    number = 1
    entries: list[str | Record | ElementRun] = []
    for text in chain(seen, lines):
        if text is None:  # over max_line_chars: skipped by the reader, a record naming its line
            over = line_record(None, number + len(entries), limits)
            assert over is not None
            entries.append(over)
        else:
            entries.append(text)
        if len(entries) >= size:
            yield TextChunk("lines", kind, stem, number, entries)
            number += len(entries)
            entries = []
    if entries:
        yield TextChunk("lines", kind, stem, number, entries)


__all__ = ["Chunk", "CorpusChunk", "TextChunk", "chunk_items", "read_chunks"]
