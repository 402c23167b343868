"""One Execution's JSON line, written directly: the bytes of ``dumps(execution_record(execution))``, faster.

``exec`` writes one record per item, and building the record's dict and handing it to the JSON
encoder cost more than running the program. :func:`execution_line` formats the same fields, in the
same order, with the functions the standard library's encoder itself calls for each scalar (its C
``encode_basestring`` for strings, ``float.__repr__``, ``int.__repr__``), so the bytes are the same
by construction; any value it does not expect (a MathQA record, a complex number, a subclass) goes
through :func:`progexec.records.execution_record` and :func:`progexec.records.dumps` instead. The
equality is tested on every corpus item and on hostile inputs (tests/test_record_line.py).
"""

from __future__ import annotations

from json.encoder import encode_basestring
from typing import Any

from .core.execution import Execution, MatchReason
from .records import dumps, execution_record
from .core.errors import ProgexecError

_FLOAT = float.__repr__
_INT = int.__repr__


_UNEXPECTED = "unexpected_value"
"""The kind of the ProgexecError for a value this writer does not format: the general record path writes the line."""


def _value(value: Any) -> str:
    """``dumps(json_value(value))`` for the scalars a record holds."""
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if kind is float:
        return _FLOAT(value) if value - value == 0.0 else encode_basestring(repr(value))
    if value is None:
        return "null"
    if kind is bool:
        return '"yes"' if value else '"no"'
    if kind is int:
        return _INT(value)
    raise ProgexecError(kind=_UNEXPECTED)


def _raw(value: Any) -> str:
    """``dumps(value)`` for a bool, None, str or int written as it is (not through ``json_value``)."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if kind is int:
        return _INT(value)
    raise ProgexecError(kind=_UNEXPECTED)


def execution_line(execution: Execution) -> str:
    """The record of :func:`~progexec.records.execution_record`, as :func:`~progexec.records.dumps` writes it."""
    try:
        return _line(execution)
    except ProgexecError as error:
        if error.kind != _UNEXPECTED:
            raise
        return dumps(execution_record(execution))


def _line(execution: Execution) -> str:
    item = execution.item
    if execution.detail is not None:
        raise ProgexecError(kind=_UNEXPECTED)  # a dialect's own fields (MathQA, TAT-QA): written by the general path
    outcome = execution.outcome
    status = outcome.status
    parts = [f'{{"id": {_raw(item.id) if item is not None else chr(34) * 2}, "status": {encode_basestring(status.label)}, '
             f'"code": {_INT(int(status))}, "value": {_value(outcome.answer())}']
    if not outcome.present:
        parts.append(f', "message": {_raw(outcome.message)}')
        if outcome.step is not None:
            parts.append(f', "step": {_raw(outcome.step)}')
        if outcome.arg is not None:
            parts.append(f', "arg": {_raw(outcome.arg)}')
    official = execution.official
    if not official.valid and item is not None and item.dialect.compares_returned:
        raise ProgexecError(kind=_UNEXPECTED)  # the record carries official_returned: written by the general path
    parts.append(f', "official_valid": {_raw(official.valid)}, "official_value": {_value(official.value)}')
    if item is not None and item.has_gold:
        parts.append(f', "gold": {_value(item.gold)}')
    if execution.match is not None:
        parts.append(f', "match": {_raw(execution.match)}')
    if execution.match is False or execution.reason is MatchReason.NO_CORRECT_OPTION:
        parts.append(f', "reason": {encode_basestring(execution.reason.label)}')
    parts.append("}")
    return "".join(parts)


__all__ = ["execution_line"]
