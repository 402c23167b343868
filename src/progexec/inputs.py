"""Batch inputs: detect the format from the content and yield one :class:`Item` per program.

Formats: a FinQA dataset file (list of ``{id, table, qa: {program, exe_ans}}``), a
ConvFinQA conversation file (``annotation.turn_program`` / ``exe_ans_list``) or turn
file (``annotation.cur_program`` / ``exe_ans``), or JSON Lines of ``{id, program,
table?, exe_ans?}``. ``.gz`` is read transparently. Nothing is dropped: an item that
cannot be used still becomes an Item with ``error`` set and a stable id.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .interp.table import TableError, validate_table

MAX_LINE_CHARS = 5_000_000
"""Longest JSON Lines line accepted; a longer one becomes a BAD_INPUT item."""


class InputError(ValueError):
    """The input file as a whole cannot be read (missing, not JSON, unknown format)."""


@dataclass(frozen=True, slots=True)
class Item:
    """One program to run. ``program`` is text or an official token list; ``error`` marks bad input."""

    id: str
    program: str | list[str] | None
    table: list[list[str]] | None = None
    gold: float | str | None = None
    has_gold: bool = False
    dialect: str = "finqa"
    error: str | None = None
    source: str = ""


def read_text(path: Path) -> str:
    """The file's text, gunzipped when it ends in ``.gz``."""
    try:
        if path.suffix == ".gz":
            with gzip.open(path, "rt", encoding="utf-8", errors="surrogateescape") as handle:
                return handle.read()
        # bytes that are not UTF-8 become lone surrogates: only the items holding them are refused
        return path.read_text(encoding="utf-8", errors="surrogateescape")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, EOFError) as error:
        raise InputError(f"{path}: cannot be read ({error})") from None


def _gold(raw: Any) -> tuple[float | str | None, bool]:
    if isinstance(raw, bool) or raw is None:
        return None, False
    if isinstance(raw, (int, float)):
        return float(raw), True
    if isinstance(raw, str):
        return raw, True
    return None, False


def _table(raw: Any) -> tuple[list[list[str]] | None, str | None]:
    if raw is None:
        return None, None
    try:
        return validate_table(raw), None
    except TableError as error:
        return None, str(error)


def _program(raw: Any) -> tuple[str | list[str] | None, str | None]:
    if isinstance(raw, str):
        return raw, None
    if isinstance(raw, list) and all(isinstance(token, str) for token in raw):
        return list(raw), None
    if raw is None:
        return None, "the item has no program"
    return None, f"the program must be a string or a list of token strings, not {type(raw).__name__}"


def _make(item_id: str, program: Any, table: Any, gold: Any, dialect: str, source: str) -> Item:
    text, program_error = _program(program)
    rows, table_error = _table(table)
    value, has_gold = _gold(gold)
    return Item(item_id, text, rows, value, has_gold, dialect, program_error or table_error, source)


def holds_invalid_unicode(value: Any) -> bool:
    """True when ``value`` holds a string that is not valid Unicode text (a lone UTF-16 surrogate such
    as JSON's ``"\\ud800"``): it could not be written to any UTF-8 output, so the item is refused whole."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    except (TypeError, ValueError, RecursionError):
        return False
    return False


INVALID_UNICODE_ERROR = ("the item holds text that is not valid Unicode (a lone surrogate such as \\ud800, "
                    "or bytes that are not UTF-8)")


def _finqa(data: list[Any], split: str) -> Iterator[Item]:
    for index, item in enumerate(data):
        fallback = f"{split}-{index}"
        if not isinstance(item, dict):
            yield Item(fallback, None, error=f"item {index} is not an object")
            continue
        if holds_invalid_unicode(item):
            yield Item(fallback, None, error=INVALID_UNICODE_ERROR, source=f"item {index}")
            continue
        raw_qa = item.get("qa")
        qa: dict[str, Any] = raw_qa if isinstance(raw_qa, dict) else {}
        item_id = str(item.get("id") or fallback)
        yield _make(item_id, qa.get("program"), item.get("table"), qa.get("exe_ans"), "finqa", f"item {index}")


def _conversations(data: list[Any], split: str) -> Iterator[Item]:
    for index, item in enumerate(data):
        if isinstance(item, dict) and holds_invalid_unicode(item):
            yield Item(f"{split}-{index}", None, error=INVALID_UNICODE_ERROR, source=f"item {index}")
            continue
        base = str(item.get("id") or f"{split}-{index}") if isinstance(item, dict) else f"{split}-{index}"
        annotation = item.get("annotation") if isinstance(item, dict) else None
        if not isinstance(annotation, dict):
            yield Item(base, None, error=f"item {index} has no annotation")
            continue
        if "turn_program" in annotation:
            programs = annotation.get("turn_program") or []
            answers = annotation.get("exe_ans_list") or []
            if not isinstance(programs, list):
                yield Item(base, None, error=f"item {index}: turn_program must be a list, not {type(programs).__name__}")
                continue
            if not isinstance(answers, list):
                answers = []  # unusable gold answers: the turns still run, without gold
            for turn, program in enumerate(programs):
                gold = answers[turn] if turn < len(answers) else None
                yield _make(f"{base}_{turn}", program, item.get("table"), gold, "convfinqa", f"item {index} turn {turn}")
        else:
            yield _make(base, annotation.get("cur_program"), item.get("table"), annotation.get("exe_ans"),
                        "convfinqa", f"item {index}")


def _jsonl(text: str, stem: str) -> Iterator[Item]:
    # split on "\n" only: str.splitlines() also splits on U+2028, U+0085, ... which JSON strings may hold raw
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.removesuffix("\r")
        if not line.strip():
            continue
        fallback = f"line-{number}"
        if len(line) > MAX_LINE_CHARS:
            yield Item(fallback, None, error=f"line {number} is over {MAX_LINE_CHARS} characters")
            continue
        try:
            record = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as error:
            yield Item(fallback, None, error=f"line {number} is not JSON ({error})", source=f"line {number}")
            continue
        if not isinstance(record, dict):
            yield Item(fallback, None, error=f"line {number} is not a JSON object", source=f"line {number}")
            continue
        if holds_invalid_unicode(record):
            yield Item(fallback, None, error=INVALID_UNICODE_ERROR, source=f"line {number}")
            continue
        raw_id = record.get("id")
        item_id = str(raw_id) if raw_id is not None and not isinstance(raw_id, (dict, list)) else fallback
        program = record.get("program", record.get("predicted"))
        dialect = record.get("dialect") if record.get("dialect") in ("finqa", "convfinqa") else "finqa"
        yield _make(item_id, program, record.get("table"), record.get("exe_ans"), str(dialect), f"line {number}")


def detect_format(data: Any) -> str:
    """``finqa``, ``convfinqa``, ``convfinqa-turn``, ``mathqa`` or ``program-list`` for a parsed JSON document."""
    if isinstance(data, dict):
        return "object"
    if not isinstance(data, list) or not data:
        return "empty" if isinstance(data, list) else "unknown"
    first = next((item for item in data if isinstance(item, dict)), None)
    if first is None:
        return "unknown"
    if isinstance(first.get("qa"), dict):
        return "finqa"
    annotation = first.get("annotation")
    if isinstance(annotation, dict):
        return "convfinqa" if "turn_program" in annotation else "convfinqa-turn"
    if "linear_formula" in first or "Problem" in first:
        return "mathqa"
    if "program" in first or "predicted" in first:
        return "program-list"
    return "unknown"


def load_items(path: Path) -> list[Item]:
    """Read a batch input file into Items, in input order."""
    text = read_text(path)
    stem = path.name.split(".")[0]
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return list(_jsonl(text, stem))
    except RecursionError:
        raise InputError(f"{path}: JSON nested too deeply") from None
    kind = detect_format(data)
    if kind == "finqa":
        return list(_finqa(data, stem))
    if kind in ("convfinqa", "convfinqa-turn"):
        return list(_conversations(data, stem))
    if kind == "program-list":
        return list(_jsonl("\n".join(json.dumps(item) for item in data), stem))
    if kind == "object" and isinstance(data, dict):
        return list(_jsonl(json.dumps(data), stem))
    if kind == "empty":
        return []
    if kind == "mathqa":
        raise InputError(f"{path}: a MathQA file; run it with `progexec exec` (progexec.mathqa), not as FinQA programs")
    raise InputError(f"{path}: not a FinQA, ConvFinQA or JSON Lines program file")
