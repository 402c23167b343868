"""The ``progexec reward`` batch as a pure function over chunks of input records.

:func:`score_records` maps records read by :mod:`progexec.readers` (``{"id", "completion", "gold",
"policy"?}``) to one output record each, in order; a record that cannot be used becomes a
``bad_input`` record naming its line number, so nothing is dropped. :func:`score_lines` does the same
for raw lines, by the readers' rules (blank lines are not records; ``max_line_chars``; a 5,000-digit
integer or a lone surrogate makes its line bad_input). Nothing is kept between calls, so a runner may
cut the input into chunks and score them in any process or on any node; joining the outputs in chunk
order gives the serial output byte for byte.

A chunk of raw lines (:func:`score_line_chunk`, what ``progexec reward`` runs) reads each line field by
field where msgspec gives the readers' values (:mod:`.linefields`), so that a gold seen before is found
in the cache by its JSON text, and writes each output line straight from its result (:mod:`.outline`);
both give exactly what the Record path gives (tests/test_reward_fast_paths.py).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import chain
from typing import Any

from ..core.bytecache import CHAR_BYTES, ENTRY_OVERHEAD, ByteCache, text_size
from ..jsonrecords import Record, decode, line_record, unreadable_reason
from ..core.limits import current, DEFAULT_LIMITS
from ..records import dumps
from .core import score_completion
from .gold import GoldRecord, parse_policy
from .linefields import decode_gold, line_fields
from .model import Policy, RewardResult, RewardStatus, make_result, DEFAULT_POLICY
from .outline import result_line
from ..core.plural import plural
from ..core.errors import InputError

_LARGEST_FLOAT_INT = int(sys.float_info.max)

OUTPUT_KEYS = ("id", "line", "score", "correct", "format_ok", "extracted", "value", "status", "reason", "policy")
"""The keys of every output line, in order."""


def score_item(item: object, line: int, default_policy: Policy | None = None, *, readable: bool = False,
               ) -> dict[str, Any]:
    """One parsed input object to its output record (``id`` and ``line`` first, then the result).

    ``readable`` says the object was decoded by the readers (:func:`progexec.jsonrecords.decode`, the list
    reader), which refuse a huge integer and text that is not valid Unicode themselves, so it is not walked
    again for them (that walk over every string of the record was the largest single cost of a line)."""
    return _record(*judge_item(item, line, default_policy, readable=readable))


Judged = tuple[Any, int, RewardResult]
"""One judged input: its id, its line number and its result (what an output line is written from)."""


def judge_item(item: object, line: int, default_policy: Policy | None = None, *, readable: bool = False,
               ) -> Judged:
    """:func:`score_item` before its record is built."""
    item_id: Any = None
    if not isinstance(item, Mapping):
        return _bad_judged(None, line, f"line {line}: an input line is a JSON object, got {type(item).__name__}",
                           default_policy)
    unreadable = None if readable else unreadable_reason(item)
    if unreadable is not None:  # a huge integer or a lone surrogate kept in place by a lenient decoder
        return _bad_judged(None, line, f"line {line} {unreadable}", default_policy)
    item_id = item.get("id")
    if not _usable_id(item_id):
        return _bad_judged(None, line, f"line {line}: id must be a string, a number of magnitude at most 1.8e308, "
                           "or null", default_policy)
    completion, gold = item.get("completion"), item.get("gold")
    if not isinstance(completion, str):
        return _bad_judged(item_id, line, f"line {line}: completion must be a string, got "
                           f"{type(completion).__name__}", default_policy)
    if not isinstance(gold, (Mapping, str)):
        return _bad_judged(item_id, line, f"line {line}: gold must be an object (or its JSON text), got "
                           f"{type(gold).__name__}", default_policy)
    return judge_fields(item_id, line, completion, item.get("policy"),
                        isinstance(gold, Mapping) and gold.get("policy") is not None, cached_gold(gold), default_policy)


def judge_fields(item_id: Any, line: int, completion: str, named: object, gold_names_policy: bool,
                 gold: GoldRecord | Mapping[str, Any] | str, default_policy: Policy | None) -> Judged:
    """A usable input's judgement: the policy the line ``named`` (else the gold's, else the default) over its
    gold (a gold the cache parsed, or as given)."""
    policy: Policy | None = None  # None: the gold's own
    if named is not None:
        try:
            policy = parse_policy(named)
        except InputError:
            return item_id, line, make_result(RewardStatus.BAD_POLICY, default_policy or DEFAULT_POLICY,
                                              name=str(named)[:100])
    elif not gold_names_policy:
        policy = default_policy
    return item_id, line, score_completion(completion, gold, policy=policy)


def judge_line(text: str, number: int, default_policy: Policy | None = None) -> Judged | None:
    """Input line ``number`` judged from :func:`~progexec.reward.linefields.line_fields`, its gold found in the
    cache by its JSON text when it was seen before; None where that reading does not apply (the caller reads
    the line as a Record). The judgement is the one :func:`judge_record` gives on the line's Record."""
    read = line_fields(text)
    if read is None:
        return None
    fields, gold_text = read
    record = None if gold_text is None else _GOLDS.get(gold_text)
    if record is None or not _usable_id(fields.get("id")) or not isinstance(fields.get("completion"), str):
        if gold_text is not None:
            try:
                fields["gold"] = decode_gold(gold_text)
            except Exception:  # a gold msgspec does not read: the standard reader decides
                return None
        judged = judge_item(fields, number, default_policy, readable=True)
        if gold_text is not None and record is None:
            _remember(gold_text, fields["gold"])
        return judged
    # a gold from the cache was an object or a string (else it was never parsed), and an object names a
    # policy exactly when its record holds one
    assert gold_text is not None
    return judge_fields(fields["id"], number, fields["completion"], fields.get("policy"),
                        gold_text[:1] == b"{" and record.policy is not None, record, default_policy)


def _remember(gold_text: bytes, gold: Any) -> None:
    """Keep the parsed gold ``cached_gold`` kept for ``gold`` under its JSON text too (within the same bounds)."""
    key = _gold_key(gold)
    record = None if key is None else _GOLDS.get(key)
    if record is not None:
        _CACHE.put(gold_text, record, gold_bytes(gold) + CHAR_BYTES * len(gold_text), current().max_cached_gold_bytes,
                   current().gold_cache_entries)


def _usable_id(item_id: object) -> bool:
    if item_id is None or isinstance(item_id, str):
        return True
    if isinstance(item_id, bool) or not isinstance(item_id, (int, float)):
        return False
    if isinstance(item_id, int):  # an integer id past the largest float (1.8e308) is as unusable as 1e309
        return abs(item_id) <= _LARGEST_FLOAT_INT
    return math.isfinite(item_id)


def score_record(record: Record, default_policy: Policy | None = None) -> dict[str, Any]:
    """One record from the readers to its output record (an unreadable record is bad_input naming its line).
    A Record is the readers': its value holds no huge integer and no lone surrogate (they refuse both)."""
    return _record(*judge_record(record, default_policy))


def judge_record(record: Record, default_policy: Policy | None = None) -> Judged:
    """:func:`score_record` before its record is built."""
    if record.error is not None:
        return _bad_judged(None, record.number, record.error if record.error.startswith(("line", "item")) else
                           f"line {record.number}: {record.error}", default_policy)
    return judge_item(record.value, record.number, default_policy, readable=True)


def score_records(records: Sequence[Record], default_policy: Policy | None = None) -> list[dict[str, Any]]:
    """A chunk of records to their output records, one each, in order (see the module docstring)."""
    return [score_record(record, default_policy) for record in records]


def score_chunk(records: Sequence[Record], default_policy: Policy | None = None) -> tuple[str, dict[str, int]]:
    """A chunk of records to its output text (each output line ending in a newline) and the count of each
    status: one string and one small dict to send back from a worker, nothing pickled per line."""
    return _written(judge_record(record, default_policy) for record in records)


def _written(judged: Iterable[Judged]) -> tuple[str, dict[str, int]]:
    """The output text of judged inputs (each line ending in a newline) and the count of each status."""
    out: list[str] = []
    counts: dict[str, int] = {}
    for item_id, line, result in judged:
        status = result.status.label
        counts[status] = counts.get(status, 0) + 1
        out.append(result_line(item_id, line, result))
    out.append("")
    return ("\n".join(out) if len(out) > 1 else ""), counts


LineChunk = tuple[int, list["str | Record"]]
"""Consecutive input lines as read, undecoded: the first one's number and each line's text (blank lines
included, so the n-th is line first + n), or its Record where the reader already judged it (over
``max_line_chars``). What ``progexec reward`` sends a worker: text, never decoded records."""


def score_line_chunk(chunk: LineChunk | Sequence[Record], default_policy: Policy | None = None,
                     ) -> tuple[str, dict[str, int]]:
    """:func:`score_chunk` of raw lines (a :data:`LineChunk`, decoded here by the readers' rules) or of records."""
    if isinstance(chunk, tuple):
        first, lines = chunk
        return _written(_judged_lines(first, lines, default_policy))
    return score_chunk(chunk, default_policy)


def _judged_lines(first: int, lines: list[str | Record], default_policy: Policy | None) -> Iterator[Judged]:
    """Each line of a :data:`LineChunk` judged, one at a time (blank lines are not records)."""
    for number, line in enumerate(lines, first):
        if isinstance(line, Record):
            yield judge_record(line, default_policy)
            continue
        judged = judge_line(line, number, default_policy)
        if judged is None:
            record = line_record(line, number)
            if record is None:
                continue
            judged = judge_record(record, default_policy)
        yield judged


MAX_CACHED_GOLDS = DEFAULT_LIMITS.gold_cache_entries
"""Parsed gold records kept per process by default (``gold_cache_entries``; the oldest dropped first), within
``max_cached_gold_bytes`` of estimated size (gold_bytes)."""
MAX_CACHED_GOLD_CELLS = DEFAULT_LIMITS.gold_cache_max_cells
# bound: MAX_CACHED_GOLD_CELLS = 10_000 — a gold with a larger table is parsed every time, never kept

CELL_BYTES = 120
"""Bytes counted per table cell of a cached gold (in its key and in the parsed record: two string headers)."""

_CACHE: ByteCache[object, GoldRecord] = ByteCache()
_GOLDS = _CACHE.entries
_STR = frozenset({str})


def gold_bytes(gold: Mapping[str, Any] | str) -> int:
    """The estimated size of a cached gold (its key and its parsed record), from its texts' lengths and its table's
    cells: deterministic, the same on every Python version."""
    if isinstance(gold, str):
        return 2 * text_size(gold)
    size = ENTRY_OVERHEAD
    for name, value in gold.items():
        size += 2 * CHAR_BYTES * len(name)
        if isinstance(value, str):
            size += 2 * CHAR_BYTES * len(value)
        elif isinstance(value, list):
            for row in value:
                cells = row if isinstance(row, list) else [row]
                size += sum(CELL_BYTES + 2 * CHAR_BYTES * len(cell) for cell in cells if isinstance(cell, str))
        else:
            size += CELL_BYTES
    return size


def _frozen(value: Any) -> Any:
    """A JSON value as a hashable key that equals another's only when the values are the same JSON value:
    type-tagged where Python's ``==`` would merge them (``1``, ``1.0``, ``True``; ``0.0`` and ``-0.0``)."""
    kind = type(value)
    if kind is str or value is None:
        return value
    if kind is bool or kind is int:
        return kind, value
    if kind is float:
        return kind, repr(value)
    if kind is list:
        if all(type(row) is list for row in value) and set(map(type, chain.from_iterable(value))) <= _STR:
            return "rows", tuple(map(tuple, value))
        if set(map(type, value)) <= _STR:
            return "strs", tuple(value)
    raise TypeError(kind.__name__)


def _gold_key(gold: Mapping[str, Any] | str) -> object:
    """Every field of a gold record (a table as a tuple of row tuples) as one hashable key, or None when a
    field is not a string, number, boolean, null or list of strings or of string lists (then not cached)."""
    if isinstance(gold, str):
        return gold
    if type(gold) is not dict:
        return None
    try:
        return tuple([(name, _frozen(value)) for name, value in gold.items()])
    except TypeError:
        return None


def cached_gold(gold: Mapping[str, Any] | str) -> GoldRecord | Mapping[str, Any] | str:
    """The parsed GoldRecord of ``gold``, from a cache keyed by all its fields (the RL case: every prompt's
    gold is judged many times); ``gold`` itself when it is not cached or cannot be parsed, so that an error
    is reported where it always was."""
    key = _gold_key(gold)
    if key is None:
        return gold
    record = _GOLDS.get(key)
    if record is not None:
        return record
    try:
        record = GoldRecord.from_mapping(gold)
    except Exception:  # bad_gold (or a bug, internal_error): reported by score_completion as before
        return gold
    if record.table is None or sum(map(len, record.table)) <= current().gold_cache_max_cells:
        _CACHE.put(key, record, gold_bytes(gold), current().max_cached_gold_bytes,
                   current().gold_cache_entries)
    return record


def output_record(text: str | bytes, line: int, default_policy: Policy | None = None) -> dict[str, Any]:
    """One input line (text or UTF-8 bytes, without the newline) to its output record, by the readers' rules:
    over ``max_line_chars``, not JSON, a huge integer, invalid Unicode are bad_input."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "surrogateescape")
    where = f"line {line}"
    if len(text) > (bound := current().max_line_chars):
        return score_record(Record(line, where, error=f"{where} is over {plural(bound, 'character')} "
                                                     f"(max_line_chars)"),
                            default_policy)
    return score_record(decode(text.removesuffix("\r"), line, where), default_policy)


def score_line(text: str | bytes, line: int, default_policy: Policy | None = None) -> str:
    """One input line to one output line (JSON, no newline): :func:`output_record`'s record as ``progexec reward``
    writes it."""
    return dumps(output_record(text, line, default_policy))


def score_lines(lines: Sequence[str | bytes], first_line: int = 1, default_policy: Policy | None = None) -> list[str]:
    """A chunk of input lines to their output lines, in order; blank lines are not records (no output), as in
    every reader; ``first_line`` numbers the first line."""
    return [score_line(text, first_line + offset, default_policy) for offset, text in enumerate(lines)
            if (text.strip() if isinstance(text, str) else text.strip())]


def _record(item_id: Any, line: int, result: RewardResult) -> dict[str, Any]:
    return {"id": item_id, "line": line, **result.record()}


def _bad(item_id: Any, line: int, detail: str, policy: Policy | None) -> dict[str, Any]:
    return _record(*_bad_judged(item_id, line, detail, policy))


def _bad_judged(item_id: Any, line: int, detail: str, policy: Policy | None) -> Judged:
    return item_id, line, make_result(RewardStatus.BAD_INPUT, policy or DEFAULT_POLICY, detail=detail)


def score_batch(inputs: Sequence[str | bytes | Mapping[str, Any]], policy: Policy | str | None = None,
                first_line: int = 1) -> list[dict[str, Any]]:
    """Score a batch for a trainer or a Ray task: one output record per input, in order, nothing dropped.

    Each input is a ``progexec reward`` input line (JSON text or UTF-8 bytes, without its newline) or its decoded
    record ``{"id", "completion", "gold", "policy"?}``; each output is the record ``progexec reward`` writes for
    it (:data:`OUTPUT_KEYS`: ``score``, ``status``, ...), ``line`` numbering inputs from ``first_line``. A blank
    line or an unusable input is a ``bad_input`` record naming its line. ``policy`` is the default for inputs
    whose line and gold name none (an unknown one raises GoldRecordError). A module-level function of plain
    data: it pickles, so ``ray.remote(score_batch)`` runs it as a task, and keeps nothing between calls but
    the parsed-gold cache.
    """
    default = None if policy is None else parse_policy(policy)
    out: list[dict[str, Any]] = []
    for offset, given in enumerate(inputs):
        line = first_line + offset
        if isinstance(given, Mapping):
            out.append(score_item(given, line, default))
        elif isinstance(given, (str, bytes)) and not given.strip():
            out.append(_bad(None, line, f"line {line} is blank: not an input record", default))
        elif isinstance(given, (str, bytes)):
            out.append(output_record(given, line, default))
        else:
            out.append(_bad(None, line, f"line {line}: an input is a JSON line or its object, got "
                            f"{type(given).__name__}", default))
    return out
