"""The ``progexec reward`` batch as a pure function over chunks of input records.

:func:`score_records` maps records read by :mod:`progexec.readers` (``{"id", "completion", "gold",
"policy"?}``) to one output record each, in order; a record that cannot be used becomes a
``bad_input`` record naming its line number, so nothing is dropped. :func:`score_lines` does the same
for raw lines, by the readers' rules (blank lines are not records; ``max_line_chars``; a 5,000-digit
integer or a lone surrogate makes its line bad_input). Nothing is kept between calls, so a runner may
cut the input into chunks and score them in any process or on any node; joining the outputs in chunk
order gives the serial output byte for byte.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping, Sequence
from itertools import chain
from typing import Any

from ..jsonrecords import Record, decode, unreadable_reason
from ..limits import current
from ..records import dumps
from .core import score_completion
from .gold import GoldRecord, GoldRecordError, parse_policy
from .model import Policy, RewardResult, RewardStatus, make_result, DEFAULT_POLICY
from ..plural import plural

_LARGEST_FLOAT_INT = int(sys.float_info.max)

OUTPUT_KEYS = ("id", "line", "score", "correct", "format_ok", "extracted", "value", "status", "reason", "policy")
"""The keys of every output line, in order."""


def score_item(item: object, line: int, default_policy: Policy | None = None) -> dict[str, Any]:
    """One parsed input object to its output record (``id`` and ``line`` first, then the result)."""
    item_id: Any = None
    if not isinstance(item, Mapping):
        return _bad(None, line, f"line {line}: an input line is a JSON object, got {type(item).__name__}",
                    default_policy)
    unreadable = unreadable_reason(item)
    if unreadable is not None:  # a huge integer or a lone surrogate kept in place by a lenient decoder
        return _bad(None, line, f"line {line} {unreadable}", default_policy)
    item_id = item.get("id")
    if not _usable_id(item_id):
        return _bad(None, line, f"line {line}: id must be a string, a number of magnitude at most 1.8e308, "
                    "or null", default_policy)
    completion, gold = item.get("completion"), item.get("gold")
    if not isinstance(completion, str):
        return _bad(item_id, line, f"line {line}: completion must be a string, got {type(completion).__name__}",
                    default_policy)
    if not isinstance(gold, (Mapping, str)):
        return _bad(item_id, line, f"line {line}: gold must be an object (or its JSON text), got "
                    f"{type(gold).__name__}", default_policy)
    policy: Policy | str | None = item.get("policy")
    if policy is not None:
        try:
            policy = parse_policy(policy)
        except GoldRecordError:
            return _record(item_id, line, make_result(RewardStatus.BAD_POLICY, default_policy or DEFAULT_POLICY,
                                                      name=str(policy)[:100]))
    elif not (isinstance(gold, Mapping) and gold.get("policy") is not None):
        policy = default_policy
    return _record(item_id, line, score_completion(completion, cached_gold(gold), policy=policy))


def _usable_id(item_id: object) -> bool:
    if item_id is None or isinstance(item_id, str):
        return True
    if isinstance(item_id, bool) or not isinstance(item_id, (int, float)):
        return False
    if isinstance(item_id, int):  # an integer id past the largest float (1.8e308) is as unusable as 1e309
        return abs(item_id) <= _LARGEST_FLOAT_INT
    return math.isfinite(item_id)


def score_record(record: Record, default_policy: Policy | None = None) -> dict[str, Any]:
    """One record from the readers to its output record (an unreadable record is bad_input naming its line)."""
    if record.error is not None:
        return _bad(None, record.number, record.error if record.error.startswith(("line", "item")) else
                    f"line {record.number}: {record.error}", default_policy)
    return score_item(record.value, record.number, default_policy)


def score_records(records: Sequence[Record], default_policy: Policy | None = None) -> list[dict[str, Any]]:
    """A chunk of records to their output records, one each, in order (see the module docstring)."""
    return [score_record(record, default_policy) for record in records]


def score_chunk(records: Sequence[Record], default_policy: Policy | None = None) -> tuple[str, dict[str, int]]:
    """A chunk of records to its output text (each output line ending in a newline) and the count of each
    status: one string and one small dict to send back from a worker, nothing pickled per line."""
    out: list[str] = []
    counts: dict[str, int] = {}
    for record in records:
        result = score_record(record, default_policy)
        status = result["status"]
        counts[status] = counts.get(status, 0) + 1
        out.append(dumps(result))
    out.append("")
    return ("\n".join(out) if len(out) > 1 else ""), counts


MAX_CACHED_GOLDS = 4096
# bound: MAX_CACHED_GOLDS = 4096 — parsed gold records kept per process (the oldest dropped first)
MAX_CACHED_GOLD_CELLS = 10_000
# bound: MAX_CACHED_GOLD_CELLS = 10_000 — a gold with a larger table is parsed every time, never kept

_GOLDS: dict[object, GoldRecord] = {}
_STR = frozenset({str})


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
    if record.table is None or sum(map(len, record.table)) <= MAX_CACHED_GOLD_CELLS:
        while len(_GOLDS) >= MAX_CACHED_GOLDS:
            try:
                del _GOLDS[next(iter(_GOLDS))]
            except (KeyError, RuntimeError, StopIteration):  # another thread changed it: try again
                continue
        _GOLDS[key] = record
    return record


def score_line(text: str | bytes, line: int, default_policy: Policy | None = None) -> str:
    """One input line (text or UTF-8 bytes, without the newline) to one output line (JSON, no newline), by the
    readers' rules: over ``max_line_chars``, not JSON, a huge integer, invalid Unicode are bad_input."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "surrogateescape")
    where = f"line {line}"
    if len(text) > (bound := current().max_line_chars):
        return dumps(score_record(Record(line, where, error=f"{where} is over {plural(bound, 'character')} "
                                                            f"(max_line_chars)"),
                                  default_policy))
    return dumps(score_record(decode(text.removesuffix("\r"), line, where), default_policy))


def score_lines(lines: Sequence[str | bytes], first_line: int = 1, default_policy: Policy | None = None) -> list[str]:
    """A chunk of input lines to their output lines, in order; blank lines are not records (no output), as in
    every reader; ``first_line`` numbers the first line."""
    return [score_line(text, first_line + offset, default_policy) for offset, text in enumerate(lines)
            if (text.strip() if isinstance(text, str) else text.strip())]


def _record(item_id: Any, line: int, result: RewardResult) -> dict[str, Any]:
    return {"id": item_id, "line": line, **result.record()}


def _bad(item_id: Any, line: int, detail: str, policy: Policy | None) -> dict[str, Any]:
    return _record(item_id, line, make_result(RewardStatus.BAD_INPUT, policy or DEFAULT_POLICY, detail=detail))
