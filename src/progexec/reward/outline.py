"""One ``progexec reward`` output line written straight from its result, without building its record.

:func:`result_line` gives the text :func:`progexec.records.dumps` gives for ``{"id", "line",
**result.record()}`` (keys in :data:`~progexec.reward.batch.OUTPUT_KEYS` order, ``", "`` and ``": "``,
UTF-8 kept): each scalar is written as the standard library's JSON encoder writes it (its own string
escaper, ``float.__repr__``, ``int.__repr__``). Anything else (a non-finite float, a subclass) is left to
``dumps`` itself, so the text and its errors stay the encoder's.
"""

from __future__ import annotations

import math
from json.encoder import encode_basestring
from typing import Any

from ..records import dumps
from .model import RewardResult


def _scalar(value: object) -> str | None:
    """``value`` as the JSON encoder writes it, or None when it is not a plain str, None, bool, int or finite float."""
    kind = type(value)
    if value is None:
        return "null"
    if isinstance(value, str):
        return encode_basestring(value) if kind is str else None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return int.__repr__(value) if kind is int else None
    if isinstance(value, float):
        return float.__repr__(value) if kind is float and math.isfinite(value) else None
    return None


def result_line(item_id: Any, line: int, result: RewardResult) -> str:
    """The output line (no newline) of the input at ``line`` with ``item_id``, judged ``result``."""
    head, extracted, value = _scalar(item_id), _scalar(result.extracted), _scalar(result.value)
    score, correct, format_ok = result.score, result.correct, result.format_ok
    if head is None or extracted is None or value is None or type(line) is not int or type(score) is not float \
            or not math.isfinite(score) or type(correct) is not bool or type(format_ok) is not bool \
            or type(result.status.label) is not str or type(result.reason) is not str \
            or type(result.policy._value_) is not str:
        return dumps({"id": item_id, "line": line, **result.record()})
    return (f'{{"id": {head}, "line": {line}, "score": {float.__repr__(score)}, '
            f'"correct": {"true" if correct else "false"}, "format_ok": {"true" if format_ok else "false"}, '
            f'"extracted": {extracted}, "value": {value}, '
            f'"status": {encode_basestring(result.status.label)}, "reason": {encode_basestring(result.reason)}, '
            f'"policy": {encode_basestring(result.policy._value_)}}}')  # _value_: .value is a Python-level property
