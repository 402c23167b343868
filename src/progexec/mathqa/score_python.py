"""Scoring MathQA-Python predictions: execute each predicted snippet in the sandbox, compare ``answer``.

Gold: records ``{"id", "answer"}`` (a MathQA-Python file, JSON list or JSON Lines).
Predictions: records ``{"id", "code"}``. A prediction is correct when its snippet
runs to completion in the sandbox and sets a finite ``answer`` with
``math.isclose(answer, gold, rel_tol=R, abs_tol=1e-9)``.

Default ``R = 1e-4``, because the gold ``answer`` is itself a float the gold code
produced with MathQA's rounded constants (``0.2778`` for 5/18, ``3.6``): an exact
comparison would fail right answers computed another way (``269.99999999999994`` vs
270, or ``* 5 / 18`` instead of ``* 0.2778``, 8e-5 apart), while MathQA's answer
options lie far more than 0.01 % apart, so a looser tolerance would only admit
wrong answers. ``--rel-tol`` changes it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ProgexecError
from ..readers import InputError, read_records as shared_records
from .sandbox import SandboxLimits, SnippetResult, run_snippets

DEFAULT_REL_TOL = 1e-4
ABS_TOL = 1e-9
FORMAT_VERSION = 1


class ScoreInputError(ProgexecError, ValueError):
    """A gold or prediction file that cannot be used."""


@dataclass(frozen=True, slots=True)
class ScoredItem:
    """One gold item and how its prediction fared; ``reason`` says why it is not correct."""

    id: str
    gold: float
    correct: bool
    answer: float | None
    kind: str
    reason: str

    def record(self) -> dict[str, Any]:
        record: dict[str, Any] = {"id": self.id, "correct": self.correct, "gold": self.gold,
                                  "answer": _json_float(self.answer), "kind": self.kind}
        if not self.correct:
            record["reason"] = self.reason
        return record


@dataclass(frozen=True, slots=True)
class Score:
    """The scoring of a prediction file against a gold file."""

    items: tuple[ScoredItem, ...]
    rel_tol: float
    extra_predictions: int = 0

    @property
    def n(self) -> int:
        return len(self.items)

    @property
    def correct(self) -> int:
        return sum(item.correct for item in self.items)

    @property
    def accuracy(self) -> float:
        return self.correct / self.n if self.n else 0.0

    def record(self) -> dict[str, Any]:
        kinds: dict[str, int] = {}
        for item in self.items:
            kinds[item.kind] = kinds.get(item.kind, 0) + 1
        return {"format_version": FORMAT_VERSION, "n": self.n, "correct": self.correct, "accuracy": self.accuracy,
                "rel_tol": self.rel_tol, "abs_tol": ABS_TOL, "extra_predictions": self.extra_predictions,
                "kinds": dict(sorted(kinds.items())), "items": [item.record() for item in self.items]}


def _json_float(value: float | None) -> float | str | None:
    if value is None or math.isfinite(value):
        return value
    return repr(value)


def read_records(path: Path) -> list[Any]:
    """A JSON list or JSON Lines file as a list of records, through the shared readers (``.gz``, ``-``,
    lines split on ``\n`` only, so U+2028 inside a string is kept)."""
    records = []
    try:
        for record in shared_records(path):
            if record.error is not None:
                raise ScoreInputError(f"{path}: {record.error}")
            records.append(record.value)
    except InputError as error:
        raise ScoreInputError(str(error)) from None
    if len(records) == 1 and isinstance(records[0], list):
        return list(records[0])
    return records


def _key(record: Any) -> str | None:
    if not isinstance(record, dict):
        return None
    raw = record.get("id", record.get("task_id"))
    if raw is None or isinstance(raw, (dict, list, bool)):
        return None
    return str(raw)


def gold_answers(records: Sequence[Any]) -> dict[str, float]:
    """id -> gold answer; raises ScoreInputError for a record without a usable id or numeric answer."""
    gold: dict[str, float] = {}
    for index, record in enumerate(records):
        key = _key(record)
        answer = record.get("answer") if isinstance(record, dict) else None
        if key is None or isinstance(answer, bool) or not isinstance(answer, (int, float)):
            raise ScoreInputError(f"gold record {index} needs an 'id' and a numeric 'answer'")
        gold[key] = float(answer)
    return gold


def predicted_code(records: Sequence[Any]) -> dict[str, str | None]:
    """id -> predicted code (None when the record has no code string); the first record of an id wins."""
    code: dict[str, str | None] = {}
    for record in records:
        key = _key(record)
        if key is None or key in code:
            continue
        value = record.get("code")
        code[key] = value if isinstance(value, str) else None
    return code


def judge(gold: float, result: SnippetResult, rel_tol: float) -> tuple[bool, str, str]:
    """Whether a snippet's result is correct for a gold answer: (correct, kind, reason).

    ``kind`` is the sandbox's kind, ``correct``, or ``wrong_answer`` for a finite
    answer outside the tolerance (an infinite or NaN answer is ``not_finite``).
    """
    if not result.ok or result.answer is None:
        reason = f"{result.kind}: {result.message}" if result.message else result.kind
        return False, result.kind, reason
    if not math.isfinite(result.answer):
        return False, "not_finite", f"answer is {result.answer!r}"
    if math.isclose(result.answer, gold, rel_tol=rel_tol, abs_tol=ABS_TOL):
        return True, "correct", ""
    return False, "wrong_answer", f"answer {result.answer!r} differs from the gold {gold!r} (rel_tol {rel_tol:g})"


def score(gold: dict[str, float], predictions: dict[str, str | None], rel_tol: float = DEFAULT_REL_TOL,
          limits: SandboxLimits = SandboxLimits(), jobs: int | None = None) -> Score:
    """Run every predicted snippet that has a gold answer (in parallel) and score it, in gold order."""
    ids = list(gold)
    runnable = [key for key in ids if predictions.get(key) is not None]
    results = dict(zip(runnable, run_snippets((predictions[key] or "" for key in runnable), limits, jobs)))
    items = []
    for key in ids:
        if key not in predictions:
            items.append(ScoredItem(key, gold[key], False, None, "missing", "no prediction for this id"))
            continue
        result = results.get(key)
        if result is None:
            items.append(ScoredItem(key, gold[key], False, None, "no_code", "the prediction has no 'code' string"))
            continue
        correct, kind, reason = judge(gold[key], result, rel_tol)
        items.append(ScoredItem(key, gold[key], correct, result.answer, kind, reason))
    extra = sum(1 for key in predictions if key not in gold)
    return Score(tuple(items), rel_tol, extra)
