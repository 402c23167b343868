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
from typing import Any

from ..jsonrecords import Record, decode, unreadable_reason
from ..limits import current
from ..records import dumps
from .core import score_completion
from .gold import GoldRecordError, parse_policy
from .model import Policy, RewardResult, RewardStatus, make_result, DEFAULT_POLICY

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
    return _record(item_id, line, score_completion(completion, gold, policy=policy))


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


def score_line(text: str | bytes, line: int, default_policy: Policy | None = None) -> str:
    """One input line (text or UTF-8 bytes, without the newline) to one output line (JSON, no newline), by the
    readers' rules: over ``max_line_chars``, not JSON, a huge integer, invalid Unicode are bad_input."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "surrogateescape")
    where = f"line {line}"
    if len(text) > (bound := current().max_line_chars):
        return dumps(score_record(Record(line, where, error=f"{where} is over {bound} characters (max_line_chars)"),
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
