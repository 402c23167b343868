"""Every input becomes a stream of :class:`~progexec.core.item.Item`: one registry of readers.

A source is a path, ``-`` (standard input) or an embedded corpus name (``finqa:test``, ...). It is
read once, as a stream, along one path that every command follows:

1. bytes to text (:mod:`progexec.textsource`): gzip by its magic bytes, other compressions refused by
   name, a BOM dropped, bytes that are not UTF-8 kept as lone surrogates, ``max_input_bytes`` and
   the gzip ratio bound (``max_gzip_ratio``);
2. text to records (:mod:`progexec.jsonrecords`): a JSON list decoded one element at a time (a bad
   element is one bad record and reading resynchronises on the list's structure), JSON Lines split on
   ``\\n`` only (blank lines are not records), or one document read whole (bounded by
   ``max_line_chars``); every unreadable record names its line or position;
3. the refusal rule (:mod:`progexec.inputkinds`): an input of a shape or kind the command does not read,
   or whose first records are mostly unusable, is refused (exit 2) before anything is written;
4. records to Items: the format is detected from the first usable record; program records have their own
   reader, every other format is a dataset's (:func:`reader_for`, the record's ``reader``).

Every record that cannot be used becomes one ``bad_input`` Item naming its line or position; nothing
is dropped or merged.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .inputkinds import DATASET_OR_PROGRAMS, PROGRAMS, Wanted, dataset_format, judged
from .core.table import validate_table
from .core.errors import InputError
from dataclasses import replace
from .core.dataset import Dataset
from .core.item import Item, bad_item
from .core.registry import UnknownDialectError, default_dataset, get_dataset
from .jsonrecords import (INVALID_UNICODE_ERROR, Record, decode, decode_marked, holds_invalid_unicode,
                          iter_json_list, iter_json_lines, iter_records, looks_like_document, read_document,
                          records_from_text, unreadable_reason)
from .core.limits import Limits
from .textsource import CHUNK_CHARS, TextSource, open_source, source_from_bytes, source_from_text

# ---------------------------------------------------------------- records to Items, per format

def _gold(raw: Any) -> tuple[float | str | None, bool]:
    if isinstance(raw, bool) or raw is None:
        return None, False
    if isinstance(raw, (int, float)):
        try:
            return float(raw), True
        except OverflowError:
            return float("inf") if raw > 0 else float("-inf"), True
    if isinstance(raw, str):
        return raw, True
    return None, False


def _program(raw: Any) -> tuple[str | list[str] | None, str | None]:
    if isinstance(raw, str):
        return raw, None
    if isinstance(raw, list) and all(isinstance(token, str) for token in raw):
        return list(raw), None
    if raw is None:
        return None, "the item has no program"
    return None, f"the program must be a string or a list of token strings, not {type(raw).__name__}"


def make_item(item_id: str, program: Any, table: Any, gold: Any, dialect: Dataset, source: str,
              answer: Any = None) -> Item:
    """An Item from raw JSON fields; the first thing wrong with them becomes its ``error``."""
    text, error = _program(program)
    rows: list[list[str]] | None = None
    if table is not None:
        try:
            rows = validate_table(table)
        except InputError as problem:
            error = error or str(problem)
    value, has_gold = _gold(gold)
    shown = str(answer) if isinstance(answer, (str, int, float)) and not isinstance(answer, bool) else None
    return Item(item_id, text, rows, value, has_gold, error and f"{source}: {error}", source, shown, dialect=dialect)


def _item_id(raw: Any, fallback: str) -> str:
    """A dataset item's id: its ``id`` when set, else its split and position (``test-12``)."""
    return str(raw or fallback)


def qa_record(record: Record, stem: str, dataset: Dataset, id_key: str = "id") -> tuple[str, dict[str, Any],
                                                                                         dict[str, Any]] | Item:
    """A dataset record holding a ``qa`` object (FinQA, MultiHiertt): its id (``id_key``, else the split and
    position), the record and its ``qa`` (empty when missing or not an object); a bad Item naming where the
    record is when it is not an object."""
    value = record.value
    fallback = f"{stem}-{record.number - 1}"
    if not isinstance(value, dict):
        return bad_item(fallback, f"{record.where} is not an object", record.where, dataset)
    qa = value.get("qa")
    return _item_id(value.get(id_key), fallback), value, qa if isinstance(qa, dict) else {}


def _line_id(raw: Any, fallback: str) -> str:
    """A program record's id: any scalar ``id`` as text (``1`` and ``"1"`` alike), else ``line-N``."""
    return fallback if raw is None or isinstance(raw, (dict, list)) else str(raw)


def _program_record(record: Record, stem: str) -> Iterator[Item]:
    item = record.value
    fallback = f"line-{record.number}" if record.where.startswith("line") else f"{stem}-{record.number - 1}"
    if not isinstance(item, dict):
        yield bad_item(fallback, f"{record.where} is not a JSON object", record.where, default_dataset())
        return
    program = item.get("program", item.get("predicted"))
    name = item.get("dialect") if isinstance(item.get("dialect"), str) else None
    try:
        dialect = get_dataset(name) if name is not None else default_dataset()
    except UnknownDialectError as error:  # kept in its place, with the gold, naming the known datasets
        made = make_item(_line_id(item.get("id"), fallback), program, item.get("table"), item.get("exe_ans"),
                         default_dataset(), record.where, item.get("answer"))
        yield replace(made, error=str(error))
        return
    yield make_item(_line_id(item.get("id"), fallback), program, item.get("table"), item.get("exe_ans"),
                    dialect, record.where, item.get("answer"))


ItemReader = Callable[[Record, str], Iterator[Item]]



def reader_for(kind: str) -> ItemReader:
    """The function turning one record of format ``kind`` into Items: program records', or the registered
    dataset's own reader (:attr:`progexec.core.dataset.Dataset.reader`)."""
    if kind == PROGRAMS:
        return _program_record
    reader = get_dataset(kind).reader
    return reader if reader is not None else _program_record


def detect_format(value: Any) -> str | None:
    """The format a record belongs to (a dataset's name, or :data:`PROGRAMS`), judged from its fields."""
    return dataset_format(value)


def _stem(name: str) -> str:
    return Path(name).name.split(".")[0] or "stdin"


def items_from(source: TextSource, limits: Limits | None = None,
               wanted: Wanted | None = DATASET_OR_PROGRAMS) -> Iterator[Item]:
    """The Items of an open source, in input order, once its start has passed the refusal rule for
    ``wanted`` (:func:`progexec.inputkinds.judge`). The format is taken from the first record that has
    one; in JSON Lines that is a program record unless the first such record is a dataset item."""
    shape, records = iter_records(source, limits)
    stem = _stem(source.name)
    head = source.peek(4096)
    reader: ItemReader | None = None
    pending: list[Record] = []
    for record in judged(source.name, shape, records, wanted, head):
        if reader is None:
            kind = detect_format(record.value) if record.error is None else None
            if kind is None and (shape == "list" or record.error is not None):
                pending.append(record)
                continue
            reader = reader_for(kind) if kind is not None and (shape == "list" or kind != PROGRAMS) \
                else _program_record
            yield from _flush(pending, reader, stem)
            pending = []
        yield from _flush([record], reader, stem)
    yield from _flush(pending, reader or _program_record, stem)


def _fallback_id(record: Record, stem: str) -> str:
    return f"line-{record.number}" if record.where.startswith("line") else f"{stem}-{record.number - 1}"


def _flush(pending: list[Record], reader: ItemReader, stem: str) -> Iterator[Item]:
    for record in pending:
        if record.error is not None:
            yield bad_item(_fallback_id(record, stem), record.error, record.where, default_dataset())
        else:
            yield from reader(record, stem)


def record_items(records: list[Record], kind: str, stem: str) -> Iterator[Item]:
    """The Items of records of format ``kind`` from a source named ``stem``, as :func:`items_from` makes them
    (an unusable record is one ``bad_input`` Item): what a worker does with the record texts it is sent."""
    return _flush(records, reader_for(kind), stem)


# ---------------------------------------------------------------- the public entry

def refuse_unknown_corpus(name: str) -> None:
    """Raise :class:`InputError` for a name like ``finqa:tset`` that is no file: a misspelt embedded corpus."""
    from .corpus import CORPUS_NAMES

    if ":" in name and not Path(name).exists() and name.split(":")[0] in {
            corpus.split(":")[0] for corpus in CORPUS_NAMES}:
        close = difflib.get_close_matches(name, CORPUS_NAMES, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise InputError(f"unknown embedded corpus {name!r}{hint} known: {', '.join(CORPUS_NAMES)}")


def read(source: str | Path, limits: Limits | None = None,
         wanted: Wanted | None = DATASET_OR_PROGRAMS) -> Iterator[Item]:
    """Items from a path, ``-`` (standard input) or an embedded corpus name, streamed in input order.

    Raises :class:`InputError` when the source as a whole cannot be read or is refused by the rule of
    :mod:`progexec.inputkinds` for ``wanted`` (before the first item, or mid-stream for a size bound);
    bad records are ``bad_input`` Items, never an exception.
    """
    from .corpus import CORPUS_NAMES, corpus_items

    name = str(source)
    if name in CORPUS_NAMES:
        yield from corpus_items(name)
        return
    if not isinstance(source, Path):
        refuse_unknown_corpus(name)
    opened = open_source(source, limits)
    try:
        yield from items_from(opened, limits, wanted)
    finally:
        opened.close()


def read_records(source: str | Path, limits: Limits | None = None, wanted: Wanted | None = None,
                 document: bool = True) -> Iterator[Record]:
    """The raw records of a path or ``-``, streamed. With ``document``, a single JSON object spread over
    several lines (ConvFinQA's ``{key: [records]}``) is read whole as one record, bounded by
    ``max_line_chars``; a JSON Lines file whose first line is broken is still JSON Lines. With
    ``wanted``, the start of the input must pass the refusal rule (:mod:`progexec.inputkinds`)."""
    opened = open_source(source, limits)
    try:
        head = opened.peek()
        if document and looks_like_document(head):
            yield from judged(opened.name, "document", [read_document(opened, limits)], wanted, head)
            return
        shape, records = iter_records(opened, limits)
        yield from judged(opened.name, shape, records, wanted, head)
    finally:
        opened.close()


__all__ = ["InputError", "Item", "Record", "PROGRAMS", "qa_record", "reader_for", "default_dataset", "TextSource", "open_source", "source_from_bytes",
           "source_from_text", "iter_json_lines", "record_items", "refuse_unknown_corpus",
           "iter_json_list", "iter_records", "items_from", "read",
           "read_records", "records_from_text", "decode", "decode_marked", "unreadable_reason", "make_item",
           "detect_format", "holds_invalid_unicode", "INVALID_UNICODE_ERROR", "CHUNK_CHARS", "Wanted"]
