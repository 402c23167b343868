"""Scoring MathQA-Python predictions: execute each predicted snippet in the sandbox, compare ``answer``.

Gold: records ``{"id", "answer"}`` (a MathQA-Python file, JSON list or JSON Lines).
Predictions: records ``{"id", "code"}``. A prediction is correct when its snippet
runs to completion in the sandbox and sets a finite ``answer`` with
``math.isclose(answer, gold, rel_tol=R, abs_tol=1e-9)``. The gold answers stay in
this process: a snippet receives its code and nothing else.

Default ``R = 1e-4``, because the gold ``answer`` is itself a float the gold code
produced with MathQA's rounded constants (``0.2778`` for 5/18, ``3.6``): an exact
comparison would fail right answers computed another way (``269.99999999999994`` vs
270, or ``* 5 / 18`` instead of ``* 0.2778``, 8e-5 apart), while MathQA's answer
options lie far more than 0.01 % apart, so a looser tolerance would only admit
wrong answers. ``--rel-tol`` changes it.

Input rules: JSON Lines are split on ``"\\n"`` only (a U+2028 inside a string is
text, not a line break); a leading BOM is ignored; a line that is not JSON (too
deep, an integer over Python's 4,300-digit limit, invalid UTF-8, over
``max_line_chars``) is one ``bad_input``, never the whole file. An id is an
integer or a string, compared by its text: ``1`` and ``"1"`` are the same id, so
both records are reported as colliding (``duplicate_id``) — a duplicated id is
never merged, its gold items are not scored and its predictions are not run.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from ...core.errors import InputError
from ...inputkinds import Wanted
from ...readers import read_records as shared_records
from .sandbox import SnippetResult, run_snippets
from ...records import FORMAT_VERSION
from ...core.limits import Limits

DEFAULT_REL_TOL = 1e-4
ABS_TOL = 1e-9


class ItemKind(str, Enum):
    """How a gold item fared, besides the sandbox's own kinds."""

    CORRECT = "correct"
    WRONG_ANSWER = "wrong_answer"
    NOT_FINITE = "not_finite"
    MISSING = "missing"                            # no prediction for this id
    NO_CODE = "no_code"                            # the prediction has no 'code' string
    BAD_INPUT = "bad_input"                        # the gold line or record is unusable
    DUPLICATE_ID = "duplicate_id"                  # the id occurs more than once in the gold
    DUPLICATE_PREDICTION = "duplicate_prediction"  # the id occurs more than once in the predictions


@dataclass(frozen=True, slots=True)
class Line:
    """One record of an input file: its 1-based line (or list index + 1) and value, or why it is unusable."""

    number: int
    value: Any = None
    error: str | None = None


@dataclass(frozen=True, slots=True)
class ScoredSnippet:
    """One gold item and how its prediction fared; ``reason`` says why it is not correct."""

    id: str | None
    gold: float | None
    correct: bool
    answer: float | None
    kind: str
    reason: str
    line: int = 0

    def record(self) -> dict[str, Any]:
        record: dict[str, Any] = {"id": self.id, "correct": self.correct, "gold": self.gold,
                                  "answer": _json_float(self.answer), "kind": self.kind}
        if not self.correct:
            record["reason"] = self.reason
            record["line"] = self.line
        return record


@dataclass(frozen=True, slots=True)
class BadPrediction:
    """A prediction line that names no usable id (so it cannot be matched to a gold item)."""

    line: int
    reason: str

    def record(self) -> dict[str, Any]:
        return {"line": self.line, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Score:
    """The scoring of a prediction file against a gold file."""

    items: tuple[ScoredSnippet, ...]
    rel_tol: float
    extra_predictions: int = 0
    bad_predictions: tuple[BadPrediction, ...] = ()
    isolation: str = ""

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
                "rel_tol": self.rel_tol, "abs_tol": ABS_TOL, "isolation": self.isolation,
                "extra_predictions": self.extra_predictions,
                "bad_predictions": [bad.record() for bad in self.bad_predictions],
                "kinds": dict(sorted(kinds.items())), "items": [item.record() for item in self.items]}


def _json_float(value: float | None) -> float | str | None:
    if value is None or math.isfinite(value):
        return value
    return repr(value)


def read_records(path: str | Path, wanted: Wanted | None = None) -> list[Line]:
    """A JSON list or JSON Lines file as numbered records, through the shared readers (``.gz``, ``-``, a BOM,
    lines split on ``\n`` only, bounded records); a record that cannot be read is a Line with its reason.
    With ``wanted`` (:data:`~progexec.inputkinds.MATHQA_PYTHON_GOLD` / ``..._PREDICTIONS``), an input of
    another kind is refused (InputError)."""
    try:
        return [Line(record.number, record.value, record.error)
                for record in shared_records(path, wanted=wanted, document=False)]
    except InputError as error:
        raise InputError(str(error)) from None


def _key(value: Any) -> tuple[str | None, str | None]:
    """A record's id as text, or why it has none usable (integer or string ids only)."""
    if not isinstance(value, dict):
        return None, "not a JSON object"
    raw = value.get("id", value.get("task_id"))
    if isinstance(raw, bool) or not isinstance(raw, (int, str)):
        return None, "no 'id' (an integer or a string)"
    return str(raw), None


def _gold_value(value: dict[str, Any]) -> float | None:
    answer = value.get("answer")
    if isinstance(answer, bool) or not isinstance(answer, (int, float)):
        return None
    try:
        number = float(answer)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


@dataclass(frozen=True, slots=True)
class GoldItem:
    """One gold record: its id and answer, or the kind and reason it cannot be scored."""

    line: int
    id: str | None
    answer: float | None
    problem: ItemKind | None = None
    reason: str = ""


def gold_items(lines: Sequence[Line]) -> list[GoldItem]:
    """Every gold record as an item, in file order; unusable and duplicated ones carry their problem."""
    items: list[GoldItem] = []
    seen: dict[str, list[int]] = {}
    for line in lines:
        if line.error is not None:
            items.append(GoldItem(line.number, None, None, ItemKind.BAD_INPUT, f"gold line {line.number}: {line.error}"))
            continue
        key, why = _key(line.value)
        answer = _gold_value(line.value) if key is not None else None
        if key is None or answer is None:
            reason = why or "no finite numeric 'answer'"
            items.append(GoldItem(line.number, key, None, ItemKind.BAD_INPUT, f"gold line {line.number}: {reason}"))
            continue
        seen.setdefault(key, []).append(line.number)
        items.append(GoldItem(line.number, key, answer))
    duplicated = {key: numbers for key, numbers in seen.items() if len(numbers) > 1}
    return [GoldItem(item.line, item.id, item.answer, ItemKind.DUPLICATE_ID,
                     f"id {item.id!r} occurs on gold lines {', '.join(map(str, duplicated[item.id]))}")
            if item.id in duplicated and item.problem is None else item for item in items]


@dataclass(frozen=True, slots=True)
class Predictions:
    """Predicted code by id (None: no code string), the ids given more than once, and unusable lines."""

    code: dict[str, str | None]
    duplicates: dict[str, tuple[int, ...]]
    bad: tuple[BadPrediction, ...]


def predictions(lines: Sequence[Line]) -> Predictions:
    """Predictions by id; a repeated id is recorded as a duplicate, never resolved by order."""
    code: dict[str, str | None] = {}
    where: dict[str, list[int]] = {}
    bad: list[BadPrediction] = []
    for line in lines:
        if line.error is not None:
            bad.append(BadPrediction(line.number, line.error))
            continue
        key, why = _key(line.value)
        if key is None:
            bad.append(BadPrediction(line.number, why or "no id"))
            continue
        where.setdefault(key, []).append(line.number)
        value = line.value.get("code")
        code.setdefault(key, value if isinstance(value, str) else None)
    duplicates = {key: tuple(numbers) for key, numbers in where.items() if len(numbers) > 1}
    return Predictions(code, duplicates, tuple(bad))


def judge(gold: float, result: SnippetResult, rel_tol: float) -> tuple[bool, str, str]:
    """Whether a snippet's result is correct for a gold answer: (correct, kind, reason).

    ``kind`` is the sandbox's kind, ``correct``, or ``wrong_answer`` for a finite
    answer outside the tolerance (an infinite or NaN answer is ``not_finite``).
    """
    if not result.ok or result.answer is None:
        reason = f"{result.kind.value}: {result.message}" if result.message else result.kind.value
        return False, result.kind.value, reason
    if not math.isfinite(result.answer):
        return False, ItemKind.NOT_FINITE.value, f"answer is {result.answer!r}"
    if math.isclose(result.answer, gold, rel_tol=rel_tol, abs_tol=ABS_TOL):
        return True, ItemKind.CORRECT.value, ""
    return (False, ItemKind.WRONG_ANSWER.value,
            f"answer {result.answer!r} differs from the gold {gold!r} (rel_tol {rel_tol:g})")


def _unrunnable(item: GoldItem, predicted: Predictions) -> tuple[ItemKind, str] | None:
    """Why an item is scored without running anything, or None when its prediction runs."""
    if item.problem is not None:
        return item.problem, item.reason
    assert item.id is not None
    if item.id not in predicted.code:
        return ItemKind.MISSING, "no prediction for this id"
    if item.id in predicted.duplicates:
        lines = ", ".join(map(str, predicted.duplicates[item.id]))
        return ItemKind.DUPLICATE_PREDICTION, f"id {item.id!r} occurs on prediction lines {lines}"
    if predicted.code[item.id] is None:
        return ItemKind.NO_CODE, "the prediction has no 'code' string"
    return None


def score(gold: Sequence[GoldItem], predicted: Predictions, rel_tol: float = DEFAULT_REL_TOL,
          limits: Limits | None = None, jobs: int | None = None, *,
          unsafe_no_isolation: bool = False, isolation: str = "",
          progress: Callable[[int], None] | None = None) -> Score:
    """Run every predicted snippet that matches one scorable gold item (in parallel) and score them, in gold order.

    Raises SetupError when the machine cannot isolate the snippets and
    ``unsafe_no_isolation`` is not set.
    """
    runnable = [index for index, item in enumerate(gold) if _unrunnable(item, predicted) is None]
    codes = (predicted.code[gold[index].id or ""] or "" for index in runnable)
    results: dict[int, SnippetResult] = {}
    for done, (index, ran) in enumerate(zip(runnable, run_snippets(codes, limits, jobs,
                                                                   unsafe_no_isolation=unsafe_no_isolation)), 1):
        results[index] = ran
        if progress is not None:
            progress(done)
    items = []
    for index, item in enumerate(gold):
        result = results.get(index)
        if result is None:
            problem = _unrunnable(item, predicted)
            assert problem is not None
            items.append(ScoredSnippet(item.id, item.answer, False, None, problem[0].value, problem[1], item.line))
            continue
        assert item.answer is not None
        correct, kind, reason = judge(item.answer, result, rel_tol)
        items.append(ScoredSnippet(item.id, item.answer, correct, result.answer, kind, reason, item.line))
    gold_ids = {item.id for item in gold}
    extra = sum(1 for key in predicted.code if key not in gold_ids)
    return Score(tuple(items), rel_tol, extra, predicted.bad, isolation)
