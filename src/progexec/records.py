"""The JSON shape of an Execution: the one record every command, adapter and report writes per item.

``json_value`` is the one conversion of a value to JSON (finite floats as numbers, ``inf``/``nan``
as strings, booleans as ``yes``/``no``); ``execution_record`` the one per-item record.
"""

from __future__ import annotations

import json
import math
from typing import Any

from .core.execution import Execution, MatchReason, OptionDetail

FORMAT_VERSION = 2
"""The version of every JSON output progexec writes (exec and reward lines, report.json and report --json,
score --json / --items, score-python --json, check-rounder / check-evaluator / check-reward --json, every
--summary).
It is bumped when a field changes meaning or disappears; a new field keeps it.

Change log (newest first):
  2 (0.3.0): one version for every output: score-python's --json (its own version 2 before) and the
     checkers' --json (their own 1) now carry this one; every JSON document carries ``meta``
     (report --json, score-python --json, the checkers' --json and the --summary documents of
     exec, reward and mathqa-python are new); ``meta.limits`` lists only the limits that differ from
     the version's defaults (it listed every limit, so each new bound changed every document); reward
     lines: a blank input line is no longer a bad_input record (it is no record, as in every reader),
     and ``line`` stays the physical line. Records of a dialect whose official scorer compares the value
     returned beside an invalid flag (MultiHiertt) carry ``official_returned``. check-reward's --json,
     which kept its own version 1 after this change, carries this one too (its fields are unchanged).
  1 (0.2.0): additions only — per-item records carry ``reason`` beside ``match: false``; ``gold`` is
     written with :func:`json_value` (``"nan"``/``"inf"`` as strings); JSON documents carry ``meta``
     (progexec version, Python, arguments, SHA-256 of each input, the limits in force).
  1 (0.1.0): the first round's exec lines, report.json and score --json / --items shapes.
"""


def json_value(value: Any) -> Any:
    """A value JSON can carry: finite floats as numbers, inf/nan (and complex) as strings, bools as yes/no."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, complex):
        return repr(value)
    return value


def document(body: dict[str, Any], meta: dict[str, Any] | None) -> dict[str, Any]:
    """A JSON document progexec writes: ``format_version`` and ``meta`` (:func:`progexec.meta.run_meta`)
    first, then the body's fields."""
    return {"format_version": FORMAT_VERSION, "meta": meta, **body}


_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False)
"""What ``json.dumps(record, ensure_ascii=False, allow_nan=False)`` builds on every call, built once."""


def dumps(record: dict[str, Any]) -> str:
    """One deterministic JSON line (no NaN literals, UTF-8 kept)."""
    return _ENCODER.encode(record)


def outcome_fields(execution: Execution) -> dict[str, Any]:
    """The fields of a program's outcome and the official verdict (what ``run --json`` prints)."""
    outcome = execution.outcome
    record: dict[str, Any] = {
        "status": outcome.status.label,
        "code": int(outcome.status),
        "value": json_value(outcome.answer()),
    }
    if not outcome.present:
        record["message"] = outcome.message
        if outcome.step is not None:
            record["step"] = outcome.step
        if outcome.arg is not None:
            record["arg"] = outcome.arg
    record["official_valid"] = execution.official.valid
    record["official_value"] = json_value(execution.official.value)
    if not execution.official.valid and execution.item is not None and execution.item.dialect.compares_returned:
        leftover = execution.official.leftover
        record["official_returned"] = json_value(leftover) if leftover is not None else "complex"
    return record


def execution_record(execution: Execution) -> dict[str, Any]:
    """The JSON line for one batch item: its id, the outcome, and the gold match with its reason."""
    item = execution.item
    detail = execution.detail
    whole = detail if detail is not None and isinstance(detail, OptionDetail) else None
    if whole is not None:
        record = whole.record()
    else:
        record = {"id": item.id if item is not None else ""}
        record.update(outcome_fields(execution))
        if item is not None and item.has_gold:
            record["gold"] = json_value(item.gold)
    if execution.match is not None or whole is not None:
        record["match"] = execution.match
    record_fields = getattr(execution.detail, "record_fields", None)
    if callable(record_fields):
        record.update(record_fields())
    if execution.match is False or execution.reason in (MatchReason.NO_CORRECT_OPTION,):
        record["reason"] = execution.reason.label
    return record


__all__ = ["FORMAT_VERSION", "json_value", "document", "dumps", "outcome_fields", "execution_record"]
