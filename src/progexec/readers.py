"""Every input becomes a stream of :class:`~progexec.items.Item`: one registry of readers.

A source is a path, ``-`` (standard input) or an embedded corpus name (``finqa:test``, ...).
It is read once, as a stream: gzip is recognised by its magic bytes (so ``.gz`` works from a
pipe too), a UTF-8 byte-order mark is dropped, bytes that are not UTF-8 are kept as lone
surrogates (only the records holding them are refused), and decompression is bounded by
``max_input_bytes``. The format is detected from the content:

* a JSON list: FinQA (``qa``), ConvFinQA conversations (``annotation.turn_program``) or turns
  (``annotation.cur_program``), MathQA (``linear_formula``), or program records; its elements
  are decoded one at a time, so memory does not grow with the number of items;
* JSON Lines (split on ``\\n`` only: U+2028 may sit raw inside a JSON string) of program records
  ``{id, program, table?, exe_ans?, dialect?}``.

Every record that cannot be used (not JSON, a 5,000-digit integer, nesting 100,000 deep, over
``max_line_chars``, invalid Unicode, wrong types) becomes one ``bad_input`` Item naming its line or
position; nothing is dropped or merged.
"""

from __future__ import annotations

import difflib
import gzip
import io
import json
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, cast

from .errors import ProgexecError
from .interp.table import TableError, validate_table
from .items import Item, bad_item
from .jsoncodec import loads, raw_decoder
from .limits import Limits, current

CHUNK_CHARS = 1 << 20
"""Characters read at a time from a stream."""


class InputError(ProgexecError, ValueError):
    """An input that cannot be read as a whole (missing, unknown format, over a size bound)."""


# ---------------------------------------------------------------- bytes to text, once, bounded

class _CountingReader(io.RawIOBase):
    """A byte stream that refuses to deliver more than ``limit`` bytes (bounds gzip bombs)."""

    def __init__(self, inner: IO[bytes], limit: int, name: str) -> None:
        self.inner, self.limit, self.name, self.count = inner, limit, name, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.inner.read(len(buffer))
        self.count += len(data)
        if self.count > self.limit:
            raise InputError(f"{self.name}: more than {self.limit} bytes after decompression (max_input_bytes); "
                             "refused (a compressed file that expands without bound?)")
        buffer[:len(data)] = data
        return len(data)


class TextSource:
    """Decoded text of one input, read forward once, with a one-chunk look-ahead for format detection."""

    def __init__(self, binary: IO[bytes], name: str, limits: Limits) -> None:
        self.name = name
        head = binary.peek(2)[:2] if hasattr(binary, "peek") else b""
        raw: IO[bytes] = binary
        if head == b"\x1f\x8b":
            raw = cast(IO[bytes], gzip.GzipFile(fileobj=binary, mode="rb"))
        counted = io.BufferedReader(_CountingReader(raw, limits.max_input_bytes, name))
        self._stream = io.TextIOWrapper(counted, encoding="utf-8-sig", errors="surrogateescape", newline="\n")
        self._closers: list[IO[Any]] = [self._stream, binary]
        self._buffer = ""

    def peek(self, size: int = 65536) -> str:
        """Up to ``size`` characters from the current position, without consuming them."""
        while len(self._buffer) < size:
            chunk = self._read_raw(size)
            if not chunk:
                break
            self._buffer += chunk
        return self._buffer[:size]

    def read(self, size: int = CHUNK_CHARS) -> str:
        """Up to ``size`` characters ('' at the end)."""
        if self._buffer:
            taken, self._buffer = self._buffer[:size], self._buffer[size:]
            return taken
        return self._read_raw(size)

    def readline(self, limit: int) -> str:
        """One line with its ``\\n`` (split on ``\\n`` only); at most ``limit + 1`` characters."""
        if self._buffer:
            cut = self._buffer.find("\n", 0, limit + 1)
            end = cut + 1 if cut >= 0 else min(len(self._buffer), limit + 1)
            if cut >= 0 or end > limit:
                taken, self._buffer = self._buffer[:end], self._buffer[end:]
                return taken
            taken, self._buffer = self._buffer, ""
            return taken + self.readline(limit - len(taken)) if limit > len(taken) else taken
        try:
            return self._stream.readline(limit + 1)
        except (OSError, EOFError, gzip.BadGzipFile) as error:
            raise InputError(f"{self.name}: cannot be read ({error})") from None

    def _read_raw(self, size: int) -> str:
        try:
            return self._stream.read(size)
        except (OSError, EOFError, gzip.BadGzipFile) as error:
            raise InputError(f"{self.name}: cannot be read ({error})") from None

    def close(self) -> None:
        for handle in self._closers:
            if handle is not sys.stdin.buffer:
                try:
                    handle.close()
                except OSError:
                    pass


def open_source(source: str | Path, limits: Limits | None = None) -> TextSource:
    """Open a path or ``-`` (standard input) as a :class:`TextSource`."""
    chosen = limits or current()
    if str(source) == "-":
        return TextSource(sys.stdin.buffer, "<stdin>", chosen)
    path = Path(source)
    try:
        binary = open(path, "rb")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a file") from None
    except OSError as error:
        raise InputError(f"{path}: cannot be read ({error.strerror})") from None
    return TextSource(binary, str(path), chosen)


# ---------------------------------------------------------------- records: JSON Lines and JSON lists

@dataclass(frozen=True, slots=True)
class Record:
    """One decoded JSON value with where it came from (``line 3`` / ``item 3``), or why it could not be."""

    number: int
    where: str
    value: Any = None
    error: str | None = None


_SUSPECT_UNICODE = re.compile(r"\\[uU][dD][89a-fA-F]|[\ud800-\udfff]")
_ESCAPED_SURROGATE = re.compile(r"\\[uU][dD][89a-fA-F]")
_RAW_SURROGATE = re.compile("[\ud800-\udfff]")


def _suspect_unicode(text: str) -> bool:
    """``_SUSPECT_UNICODE.search(text)`` in two C scans instead of a regex alternation tried at every
    character: an escaped surrogate needs a backslash, a raw one a character that is not ASCII."""
    if "\\" in text and _ESCAPED_SURROGATE.search(text):
        return True
    return not text.isascii() and _RAW_SURROGATE.search(text) is not None


def holds_invalid_unicode(value: Any) -> bool:
    """True when ``value`` holds a string that is not valid Unicode text (a lone surrogate such as
    JSON's ``"\\ud800"``): it could not be written to any UTF-8 output, so the record is refused whole."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    except (TypeError, ValueError, RecursionError):
        return False
    return False


INVALID_UNICODE_ERROR = ("holds text that is not valid Unicode (a lone surrogate such as \\ud800, "
                         "or bytes that are not UTF-8)")


def _decode(text: str, number: int, where: str) -> Record:
    try:
        value = loads(text)
    except RecursionError:
        return Record(number, where, error=f"{where} is nested too deeply to read")
    except json.JSONDecodeError as error:
        return Record(number, where, error=f"{where} is not JSON ({error.msg} at column {error.colno})")
    except ValueError as error:  # e.g. an integer of more than 4,300 digits
        return Record(number, where, error=f"{where} cannot be read: {error}")
    if _suspect_unicode(text) and holds_invalid_unicode(value):
        return Record(number, where, error=f"{where} {INVALID_UNICODE_ERROR}")
    return Record(number, where, value)


def iter_json_lines(source: TextSource, limits: Limits | None = None) -> Iterator[Record]:
    """One Record per non-blank line, in order; a line over ``max_line_chars`` is refused, not read whole."""
    bound = (limits or current()).max_line_chars
    number = 0
    while True:
        line = source.readline(bound)
        if not line:
            return
        number += 1
        where = f"line {number}"
        if len(line) > bound and not line.endswith("\n"):
            while line and not line.endswith("\n"):  # skip the rest of the over-long line, chunk by chunk
                line = source.readline(CHUNK_CHARS)
            yield Record(number, where, error=f"{where} is over {bound} characters (max_line_chars)")
            continue
        text = line.removesuffix("\n").removesuffix("\r")
        if text.strip():
            yield _decode(text, number, where)


_SCAN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{},]', re.DOTALL)
_SPACE = re.compile(r"[ \t\r\n]*")


def _element_end(text: str, start: int) -> int | None:
    """Where the JSON value starting at ``start`` ends (index of the ``,`` or ``]`` after it), by a flat
    scan that needs no recursion; None when ``text`` ends first."""
    depth = 0
    for match in _SCAN.finditer(text, start):
        token = match.group()
        if token in "[{":
            depth += 1
        elif token in "]}":
            if depth == 0:
                return match.start()
            depth -= 1
        elif token == "," and depth == 0:
            return match.start()
    return None


def iter_json_list(source: TextSource, limits: Limits | None = None) -> Iterator[Record]:
    """The elements of a top-level JSON list, one Record each, decoded one at a time."""
    bound = (limits or current()).max_line_chars
    raw_decode = raw_decoder()  # the fast extra's decoder where it gives the same value
    text, position, at_end = "", 0, False

    def more() -> bool:
        nonlocal text, position, at_end
        chunk = source.read(max(CHUNK_CHARS, len(text) - position))
        text, position = text[position:] + chunk, 0
        at_end = not chunk
        return bool(chunk)

    def skip_space() -> None:
        nonlocal position
        while True:
            position = _SPACE.match(text, position).end()  # type: ignore[union-attr]
            if position < len(text) or not more():
                return

    skip_space()
    if text[position:position + 1] != "[":
        raise InputError(f"{source.name}: not a JSON list")
    position += 1
    number = 0
    while True:
        skip_space()
        if position >= len(text):
            yield Record(number + 1, f"item {number + 1}", error=f"{source.name}: the list is not closed")
            return
        if text[position] == "]":
            return
        if number:
            if text[position] != ",":
                yield Record(number + 1, f"item {number + 1}",
                             error=f"{source.name}: expected ',' between items; the rest of the file is unreadable")
                return
            position += 1
            skip_space()
        number += 1
        where = f"item {number}"
        while True:
            error: str | None = None
            try:
                value, end = raw_decode(text, position)
                if end < len(text) or at_end:
                    break
            except RecursionError:
                error = f"{where} is nested too deeply to read"
            except json.JSONDecodeError as failure:
                error = f"{where} is not JSON ({failure.msg})"
            except ValueError as failure:
                error = f"{where} cannot be read: {failure}"
            if error is not None:
                end_at = _element_end(text, position)
                if end_at is not None:
                    yield Record(number, where, error=error)
                    position = end_at
                    break
            if len(text) - position > bound:
                yield Record(number, where, error=f"{where} is over {bound} characters (max_line_chars); "
                                                  "the rest of the file is not read")
                return
            if not more():
                if error is not None:
                    yield Record(number, where, error=f"{error}; the file ends inside it")
                    return
        else:  # pragma: no cover - the loop always breaks or returns
            continue
        if error is None:
            chunk_text = text[position:end]
            position = end
            if _suspect_unicode(chunk_text) and holds_invalid_unicode(value):
                yield Record(number, where, error=f"{where} {INVALID_UNICODE_ERROR}")
            else:
                yield Record(number, where, value)


def iter_records(source: TextSource, limits: Limits | None = None) -> tuple[str, Iterator[Record]]:
    """``("list", records)`` for a JSON list of objects, ``("lines", records)`` for JSON Lines (where each
    line is judged alone, so a first line ``[[[[...`` is one bad record, not the whole file)."""
    head = source.peek().lstrip(" \t\r\n")
    if head.startswith("[") and head[1:].lstrip(" \t\r\n")[:1] in ("{", "]"):
        return "list", iter_json_list(source, limits)  # a list of records (or an empty list)
    return "lines", iter_json_lines(source, limits)


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


def make_item(item_id: str, program: Any, table: Any, gold: Any, dialect: str, source: str,
              answer: Any = None) -> Item:
    """An Item from raw JSON fields; the first thing wrong with them becomes its ``error``."""
    text, error = _program(program)
    rows: list[list[str]] | None = None
    if table is not None:
        try:
            rows = validate_table(table)
        except TableError as problem:
            error = error or str(problem)
    value, has_gold = _gold(gold)
    shown = str(answer) if isinstance(answer, (str, int, float)) and not isinstance(answer, bool) else None
    return Item(item_id, text, rows, value, has_gold, dialect, error and f"{source}: {error}", source, shown)


def _item_id(raw: Any, fallback: str) -> str:
    """A dataset item's id: its ``id`` when set, else its split and position (``test-12``)."""
    return str(raw or fallback)


def _line_id(raw: Any, fallback: str) -> str:
    """A program record's id: any scalar ``id`` as text (``1`` and ``"1"`` alike), else ``line-N``."""
    return fallback if raw is None or isinstance(raw, (dict, list)) else str(raw)


def _finqa(record: Record, stem: str) -> Iterator[Item]:
    item = record.value
    fallback = f"{stem}-{record.number - 1}"
    if not isinstance(item, dict):
        yield bad_item(fallback, f"{record.where} is not an object", record.where)
        return
    raw_qa = item.get("qa")
    qa: dict[str, Any] = raw_qa if isinstance(raw_qa, dict) else {}
    yield make_item(_item_id(item.get("id"), fallback), qa.get("program"), item.get("table"), qa.get("exe_ans"),
                    "finqa", record.where, qa.get("answer"))


def _conversation(record: Record, stem: str) -> Iterator[Item]:
    item = record.value
    fallback = f"{stem}-{record.number - 1}"
    base = _item_id(item.get("id"), fallback) if isinstance(item, dict) else fallback
    annotation = item.get("annotation") if isinstance(item, dict) else None
    if not isinstance(annotation, dict):
        yield bad_item(base, f"{record.where} has no annotation", record.where, "convfinqa")
        return
    if "turn_program" not in annotation:
        yield make_item(base, annotation.get("cur_program"), item.get("table"), annotation.get("exe_ans"),
                        "convfinqa", record.where)
        return
    programs = annotation.get("turn_program") or []
    answers = annotation.get("exe_ans_list") or []
    if not isinstance(programs, list):
        yield bad_item(base, f"{record.where}: turn_program must be a list, not {type(programs).__name__}",
                       record.where, "convfinqa")
        return
    if not isinstance(answers, list):
        answers = []  # unusable gold answers: the turns still run, without gold
    for turn, program in enumerate(programs):
        gold = answers[turn] if turn < len(answers) else None
        yield make_item(f"{base}_{turn}", program, item.get("table"), gold, "convfinqa",
                        f"{record.where} turn {turn}")


def _mathqa(record: Record, stem: str) -> Iterator[Item]:
    item = record.value
    index = record.number - 1
    if not isinstance(item, dict):
        yield bad_item(str(index), f"{record.where} is not an object", record.where, "mathqa")
        return
    raw_id = item.get("id")
    item_id = str(raw_id) if isinstance(raw_id, (str, int)) and not isinstance(raw_id, bool) else str(index)
    formula = item.get("linear_formula")
    yield Item(item_id, formula if isinstance(formula, str) else None, dialect="mathqa", source=record.where,
               record=item)


def _multihiertt(record: Record, stem: str) -> Iterator[Item]:
    """A MultiHiertt dataset record (``uid``, ``qa.program``, ``qa.answer``); a span question has no program."""
    item = record.value
    fallback = f"{stem}-{record.number - 1}"
    if not isinstance(item, dict):
        yield bad_item(fallback, f"{record.where} is not an object", record.where, "multihiertt")
        return
    raw_qa = item.get("qa")
    qa: dict[str, Any] = raw_qa if isinstance(raw_qa, dict) else {}
    program = qa.get("program") or None
    if program is None:
        yield bad_item(_item_id(item.get("uid"), fallback), f"{record.where}: a span question (no program to run)",
                       record.where, "multihiertt")
        return
    yield make_item(_item_id(item.get("uid"), fallback), program, None, qa.get("answer"), "multihiertt",
                    record.where, qa.get("answer"))


def _program_record(record: Record, stem: str) -> Iterator[Item]:
    item = record.value
    fallback = f"line-{record.number}" if record.where.startswith("line") else f"{stem}-{record.number - 1}"
    if not isinstance(item, dict):
        yield bad_item(fallback, f"{record.where} is not a JSON object", record.where)
        return
    program = item.get("program", item.get("predicted"))
    dialect = item.get("dialect") if isinstance(item.get("dialect"), str) else "finqa"
    yield make_item(_line_id(item.get("id"), fallback), program, item.get("table"), item.get("exe_ans"),
                    str(dialect), record.where, item.get("answer"))


ItemReader = Callable[[Record, str], Iterator[Item]]

READERS: dict[str, ItemReader] = {
    "finqa": _finqa,
    "convfinqa": _conversation,
    "mathqa": _mathqa,
    "multihiertt": _multihiertt,
    "programs": _program_record,
}
"""Format name -> the function turning one record into Items (the one registry)."""


def detect_format(value: Any) -> str | None:
    """The format a record belongs to (a key of :data:`READERS`), judged from its fields."""
    if not isinstance(value, dict):
        return None
    if isinstance(value.get("qa"), dict):
        return "multihiertt" if "uid" in value and "id" not in value else "finqa"
    if isinstance(value.get("annotation"), dict):
        return "convfinqa"
    if "linear_formula" in value or "Problem" in value:
        return "mathqa"
    if "program" in value or "predicted" in value:
        return "programs"
    return None


def _stem(name: str) -> str:
    return Path(name).name.split(".")[0] or "stdin"


def items_from(source: TextSource, limits: Limits | None = None) -> Iterator[Item]:
    """The Items of an open source, in input order. JSON Lines are program records; a JSON list takes
    its format from its first object (records before it that cannot be read stay bad_input Items)."""
    shape, records = iter_records(source, limits)
    stem = _stem(source.name)
    reader: ItemReader | None = _program_record if shape == "lines" else None
    if shape == "lines":
        records = _refuse_lone_scalar(records, source.name)
    pending: list[Record] = []
    for record in records:
        if reader is None:
            if record.error is not None or not isinstance(record.value, dict):
                pending.append(record)
                continue
            kind = detect_format(record.value)
            if kind is None:
                raise InputError(f"{source.name}: {record.where} is not a FinQA, ConvFinQA, MathQA or program "
                                 "record (no qa, annotation, linear_formula or program field)")
            reader = READERS[kind]
            yield from _flush(pending, reader, stem)
            pending = []
        yield from _flush([record], reader, stem)
    if reader is None and pending:
        first = next((record.error for record in pending if record.error), "its items are not objects")
        raise InputError(f"{source.name}: a JSON list with no FinQA, ConvFinQA, MathQA or program record ({first})")
    yield from _flush(pending, reader or _program_record, stem)


def _refuse_lone_scalar(records: Iterator[Record], name: str) -> Iterator[Record]:
    """A file holding one JSON value that is not an object (``5``, ``"text"``) is not a program file."""
    first = next(records, None)
    if first is None:
        return
    second = next(records, None)
    if second is None and first.error is None and not isinstance(first.value, dict):
        raise InputError(f"{name}: one JSON {type(first.value).__name__}, not a FinQA, ConvFinQA, MathQA or "
                         "JSON Lines program file")
    if second is None and first.error is not None and first.where == "line 1":
        raise InputError(f"{name}: not a FinQA, ConvFinQA, MathQA or JSON Lines program file ({first.error})")
    yield first
    if second is not None:
        yield second
        yield from records


def _fallback_id(record: Record, stem: str) -> str:
    return f"line-{record.number}" if record.where.startswith("line") else f"{stem}-{record.number - 1}"


def _flush(pending: list[Record], reader: ItemReader, stem: str) -> Iterator[Item]:
    for record in pending:
        if record.error is not None:
            yield bad_item(_fallback_id(record, stem), record.error, record.where)
        else:
            yield from reader(record, stem)


# ---------------------------------------------------------------- the public entry

def read(source: str | Path, limits: Limits | None = None) -> Iterator[Item]:
    """Items from a path, ``-`` (standard input) or an embedded corpus name, streamed in input order.

    Raises :class:`InputError` when the source as a whole cannot be read (before the first item,
    or mid-stream for a size bound); bad records are ``bad_input`` Items, never an exception.
    """
    from .corpus import CORPUS_NAMES, corpus_items

    name = str(source)
    if name in CORPUS_NAMES:
        yield from corpus_items(name)
        return
    if not isinstance(source, Path) and ":" in name and not Path(name).exists() and name.split(":")[0] in {
            corpus.split(":")[0] for corpus in CORPUS_NAMES}:
        close = difflib.get_close_matches(name, CORPUS_NAMES, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise InputError(f"unknown embedded corpus {name!r}{hint} known: {', '.join(CORPUS_NAMES)}")
    opened = open_source(source, limits)
    try:
        yield from items_from(opened, limits)
    finally:
        opened.close()


def read_records(source: str | Path, limits: Limits | None = None) -> Iterator[Record]:
    """The raw records of a path or ``-`` (for prediction files), streamed; a single JSON object
    spread over several lines (ConvFinQA's ``{key: [records]}``) is read whole as one record."""
    opened = open_source(source, limits)
    try:
        head = opened.peek().lstrip(" \t\r\n")
        first_line = head.split("\n", 1)[0]
        if head.startswith("{") and _decode(first_line, 1, "line 1").error is not None:
            text = "".join(iter(lambda: opened.read(CHUNK_CHARS), ""))
            yield _decode(text, 1, "the document")
            return
        _, records = iter_records(opened, limits)
        yield from records
    finally:
        opened.close()


__all__ = ["InputError", "Item", "Record", "READERS", "TextSource", "open_source", "iter_json_lines",
           "iter_json_list", "iter_records", "items_from", "read", "read_records", "make_item", "detect_format",
           "holds_invalid_unicode", "INVALID_UNICODE_ERROR"]
