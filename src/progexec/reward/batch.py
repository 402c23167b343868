"""The ``progexec reward`` batch as a pure function over chunks of input lines.

:func:`score_lines` maps a list of JSON Lines (``{"id", "completion", "gold", "policy"?}``) to the
same number of output lines, in order; a line that cannot be used becomes a ``bad_input`` line
naming its line number, so nothing is dropped. It keeps no state between calls, so a runner may
cut the input into chunks and score them in any process or on any node (pass each chunk's first
line number as ``first_line``); joining the outputs in chunk order gives the serial output byte
for byte.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from .core import score_completion
from .gold import GoldRecordError, parse_policy
from .model import Policy, RewardResult, RewardStatus, make_result, DEFAULT_POLICY

MAX_INPUT_LINE_CHARS = 8_000_000
# bound: MAX_INPUT_LINE_CHARS = 8_000_000 — a longer input line is bad_input, never parsed

OUTPUT_KEYS = ("id", "line", "score", "correct", "format_ok", "extracted", "value", "status", "reason", "policy")
"""The keys of every output line, in order."""


def score_item(item: object, line: int, default_policy: Policy | None = None) -> dict[str, Any]:
    """One parsed input object to its output record (``id`` and ``line`` first, then the result)."""
    item_id: Any = None
    if not isinstance(item, Mapping):
        return _bad(None, line, f"line {line}: an input line is a JSON object, got {type(item).__name__}",
                    default_policy)
    item_id = item.get("id")
    if not _usable_id(item_id):
        return _bad(None, line, f"line {line}: id must be a string, a finite number or null", default_policy)
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
    return math.isfinite(item_id)


def score_line(text: str | bytes, line: int, default_policy: Policy | None = None) -> str:
    """One input line (text or UTF-8 bytes, without the newline) to one output line (JSON, no newline)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            record = _bad(None, line, f"line {line}: not UTF-8 (byte {error.start})", default_policy)
            return json.dumps(record, ensure_ascii=False, allow_nan=False)
    if len(text) > MAX_INPUT_LINE_CHARS:
        record = _bad(None, line, f"line {line}: {len(text)} characters, over the limit of {MAX_INPUT_LINE_CHARS}",
                      default_policy)
    elif not text.strip():
        record = _bad(None, line, f"line {line}: blank line", default_policy)
    else:
        try:
            item = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as error:
            record = _bad(None, line, f"line {line}: not JSON ({error})", default_policy)
        else:
            record = score_item(item, line, default_policy)
    return json.dumps(record, ensure_ascii=False, allow_nan=False)


def score_lines(lines: Sequence[str | bytes], first_line: int = 1, default_policy: Policy | None = None) -> list[str]:
    """A chunk of input lines to its output lines, one each, in order (see the module docstring)."""
    return [score_line(text, first_line + offset, default_policy) for offset, text in enumerate(lines)]


def _record(item_id: Any, line: int, result: RewardResult) -> dict[str, Any]:
    return {"id": item_id, "line": line, **result.record()}


def _bad(item_id: Any, line: int, detail: str, policy: Policy | None) -> dict[str, Any]:
    return _record(item_id, line, make_result(RewardStatus.BAD_INPUT, policy or DEFAULT_POLICY, detail=detail))
