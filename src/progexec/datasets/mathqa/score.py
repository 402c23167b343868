"""``progexec score`` for MathQA: predicted programs (or answers) against an official MathQA file or ``mathqa:SPLIT``.

MathQA ships no number: its gold is the annotated program (``linear_formula``) and the ``correct``
option letter. Per prediction, matched to a gold problem by ``id`` (the problem's index in the file,
as ``exec`` numbers them, or the record's own ``id``):

* **execution**: the predicted program's value (progexec's semantics, :mod:`progexec.datasets.mathqa.execute`)
  is within trax's tolerance of the gold program's value, ``math.isclose(gold, value, rel_tol=0.01)``,
  the test google/trax's MathQA generator applies to a program's answer. An answer given as text is
  read as its number, or an option letter as that option's number.
* **program**: the predicted formula is the gold ``linear_formula``, whitespace and a trailing ``|``
  aside (MathQA has no program-equivalence rule of its own).
* **option**: the value lands on the correct option by MathQA-Python's keep rule as progexec reads it
  (:func:`progexec.datasets.mathqa.options.kept_by_filter`, the rule ``mathqa-python`` keeps problems by); a
  letter answer counts when it is the correct letter.
* **trax**: the value passes trax's own test (``CreateMathQAInputs``): the correct option's number as
  trax reads it (the first number after ``<letter> )``, divided by a following ``/ number``) and the
  value are both non-zero and ``math.isclose(option, value, rel_tol=0.01)``.

A gold problem whose program has no value (an op MathQA-Python does not define) has no gold answer: it
is listed under ``gold_errors`` and left out of ``n``, as trax's generator leaves it out. Predictions
whose id is not in the gold, repeated ids (the first is scored) and gold problems without a prediction
are listed, never dropped silently.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .binding import NUMBER_PATTERN
from .execute import execute_problem
from .options import Option, kept_by_filter

TRAX_TOLERANCE = 0.01
"""``rel_tol`` of trax's ``math.isclose`` (``CreateMathQAInputs(tolerance=0.01)``)."""
MEASURES = ("execution", "program", "option", "trax")
"""The per-item verdicts, in the order they are reported."""
_PROGRAM_KEYS = ("predicted", "program", "pred_prog", "predicted_program", "linear_formula")
_ANSWER_KEYS = ("answer", "completion", "predicted_answer", "output")
_LETTER = re.compile(r"^\s*\(?\s*([a-eA-E])\s*\)?\s*\.?\s*$")


def normal_formula(text: str) -> str:
    """A formula for program comparison: no whitespace, no trailing ``|``."""
    return re.sub(r"\s+", "", text).rstrip("|")


def trax_answer(options: str, correct: str) -> float | None:
    """The correct option's number as trax's ``process_single_mathqa_example`` reads it, or None."""
    start = options.find(f"{correct} )")
    if start < 0:
        return None
    found = NUMBER_PATTERN.search(options, start)
    if found is None:
        return None
    number = float(found.group(0).replace(",", ""))
    after = start + len(str(number)) + 3  # trax measures the number by its float's text
    if after < len(options) and options[after] == "/":
        denominator = NUMBER_PATTERN.search(options, after)
        if denominator is not None:
            number /= float(denominator.group(0).replace(",", ""))
    return number


def passes_trax(answer: float | None, value: float | None) -> bool:
    """trax's keep test: both non-zero and within ``rel_tol=0.01`` of each other."""
    return bool(answer) and bool(value) and math.isfinite(value or 0.0) \
        and math.isclose(answer or 0.0, value or 0.0, rel_tol=TRAX_TOLERANCE)


@dataclass(frozen=True, slots=True)
class Gold:
    """One gold problem: its record, the gold program's value (None: it has none) and its options."""

    id: str
    record: dict[str, Any]
    value: float | None
    options: dict[str, Option]
    correct: str | None
    message: str = ""


@dataclass(frozen=True, slots=True)
class MathqaQuestion:
    """One scored prediction, or a listed gold problem (``status`` says which)."""

    id: str
    status: str
    verdicts: dict[str, bool] = field(default_factory=dict)
    value: float | None = None
    gold: float | None = None
    why: str = ""

    def record(self) -> dict[str, Any]:
        record: dict[str, Any] = {"id": self.id, "status": self.status}
        if self.status == "scored":
            record.update({"gold": self.gold, "value": self.value, **self.verdicts})
        if self.why:
            record["why"] = self.why
        return record


@dataclass(frozen=True, slots=True)
class MathqaScore:
    """A MathQA scoring run: the scored predictions, then every listed problem."""

    questions: tuple[MathqaQuestion, ...]
    unknown: tuple[str, ...]
    duplicates: tuple[str, ...]
    missing: tuple[str, ...]
    gold_errors: tuple[str, ...]
    unreadable: tuple[str, ...]

    @property
    def scored(self) -> list[MathqaQuestion]:
        return [question for question in self.questions if question.status == "scored"]

    @property
    def n(self) -> int:
        return len(self.scored)

    def correct(self, measure: str) -> int:
        return sum(question.verdicts[measure] for question in self.scored)

    def accuracy(self, measure: str) -> float:
        return self.correct(measure) / self.n if self.n else 0.0

    @property
    def ok(self) -> bool:
        return True  # MathQA has no official script that stops

    def record(self) -> dict[str, Any]:
        return {"dialect": "mathqa", "n": self.n,
                "execution_accuracy": self.accuracy("execution"), "program_accuracy": self.accuracy("program"),
                "option_accuracy": self.accuracy("option"), "trax_accuracy": self.accuracy("trax"),
                "correct": {measure: self.correct(measure) for measure in MEASURES},
                "coverage": {"not_in_gold": list(self.unknown), "duplicate_ids": list(self.duplicates),
                             "missing_ids": list(self.missing), "unreadable": list(self.unreadable)},
                "gold_errors": list(self.gold_errors)}

    def table(self) -> list[str]:
        lines = [f"n = {self.n}: predictions whose id is a gold problem with a gold value", "",
                 f"{'measure':<10} {'correct':>16}"]
        for measure in MEASURES:
            lines.append(f"{measure:<10} {f'{self.correct(measure)}/{self.n} {self.accuracy(measure):.4f}':>16}")
        for label, ids in (("predictions not in the gold (left out of n)", self.unknown),
                           ("repeated prediction ids (the first scored)", self.duplicates),
                           ("gold problems without a prediction", self.missing),
                           ("gold problems whose program has no value (left out of n)", self.gold_errors),
                           ("unreadable prediction records", self.unreadable)):
            if ids:
                lines.append(f"{label}: {len(ids)}: {', '.join(ids[:5])}{' ...' if len(ids) > 5 else ''}")
        return lines

    def headline(self) -> str:
        return (f"execution accuracy {self.accuracy('execution'):.4f}, program accuracy "
                f"{self.accuracy('program'):.4f}; option accuracy {self.accuracy('option'):.4f}; "
                f"trax accuracy {self.accuracy('trax'):.4f}")


def official_shape(record: dict[str, Any]) -> dict[str, Any]:
    """A MathQA record in the official file's keys: a program record's ``program``, ``problem`` (the names
    of ``progexec exec``'s program records and of the reward's gold record) as ``linear_formula``, ``Problem``."""
    shaped = dict(record)
    for official, other in (("linear_formula", "program"), ("Problem", "problem")):
        if official not in shaped and isinstance(record.get(other), str):
            shaped[official] = record[other]
    return shaped


def gold_problems(records: Sequence[Any]) -> list[Gold]:
    """Each gold record executed once (its id: its own ``id``, else its index). A program record without
    the problem text has the value of its ``exe_ans`` (its program cannot bind ``nK`` without the text)."""
    golds = []
    for index, raw in enumerate(records):
        if not isinstance(raw, dict):
            golds.append(Gold(str(index), {}, None, {}, None, f"gold record {index} is not an object"))
            continue
        record = official_shape(raw)
        result = execute_problem(record, index)
        value = result.outcome.value if isinstance(result.outcome.value, float) else None
        answer = record.get("exe_ans")
        if value is None and "Problem" not in record and isinstance(answer, (int, float)) \
                and not isinstance(answer, bool) and math.isfinite(answer):
            value = float(answer)
        golds.append(Gold(result.id, record, value, dict(result.options), result.correct,
                          "" if value is not None else result.outcome.message or result.outcome.status.label))
    return golds


def _prediction(record: Any) -> tuple[str | None, str | None, str | None]:
    """(id, formula, answer text) of one prediction record."""
    if not isinstance(record, dict):
        return None, None, None
    raw_id = record.get("id")
    if raw_id is None or isinstance(raw_id, (dict, list, bool)):
        return None, None, None
    raw = next((record[key] for key in _PROGRAM_KEYS if record.get(key) is not None), None)
    if isinstance(raw, list) and all(isinstance(token, str) for token in raw):  # the official token form
        raw = "".join(token for token in raw if token != "EOF")
    formula = raw if isinstance(raw, str) else None
    answer = next((record[key] for key in _ANSWER_KEYS if record.get(key) is not None), None)
    return str(raw_id), formula, None if answer is None else str(answer)


def score_one(gold: Gold, formula: str | None, answer: str | None) -> MathqaQuestion:
    """Every measure's verdict on one prediction against one gold problem with a value."""
    assert gold.value is not None
    letter = None
    if formula is not None:
        result = execute_problem({**gold.record, "linear_formula": formula, "Problem": gold.record.get("Problem", "")}, 0)
        value = result.outcome.value if isinstance(result.outcome.value, float) else None
        why = "" if value is not None else result.outcome.message or result.outcome.status.label
    elif answer is not None and (found := _LETTER.match(answer)) is not None:
        letter = found.group(1).lower()
        option = gold.options.get(letter)
        value, why = (option.value if option is not None else None), ""
    elif answer is not None and (number := NUMBER_PATTERN.search(answer)) is not None:
        value, why = float(number.group(0).replace(",", "")), ""
    else:
        value, why = None, "the prediction has no program, option letter or number"
    correct_option = gold.options.get(gold.correct) if gold.correct else None
    options = gold.record.get("options")
    trax = trax_answer(options, gold.correct) if isinstance(options, str) and gold.correct else None
    verdicts = {
        "execution": value is not None and math.isfinite(value)
        and math.isclose(gold.value, value, rel_tol=TRAX_TOLERANCE),
        "program": formula is not None and normal_formula(formula) == normal_formula(
            str(gold.record.get("linear_formula", ""))),
        "option": (letter == gold.correct) if letter is not None else value is not None
        and correct_option is not None and correct_option.value is not None
        and kept_by_filter(value, correct_option.value),
        "trax": passes_trax(trax, value),
    }
    return MathqaQuestion(gold.id, "scored", verdicts, value, gold.value, why)


def score_records(gold: Sequence[Any], predictions: Sequence[Any]) -> MathqaScore:
    """Score prediction records against MathQA gold records (raw JSON values; nothing dropped silently)."""
    golds = {problem.id: problem for problem in gold_problems(gold)}
    questions: list[MathqaQuestion] = []
    seen: set[str] = set()
    unknown: list[str] = []
    duplicates: list[str] = []
    unreadable: list[str] = []
    for index, record in enumerate(predictions):
        item_id, formula, answer = _prediction(record)
        if item_id is None:
            unreadable.append(f"record {index + 1}: no usable id")
            continue
        problem = golds.get(item_id)
        if problem is None:
            unknown.append(item_id)
            continue
        if item_id in seen:
            duplicates.append(item_id)
            continue
        seen.add(item_id)
        if problem.value is None:
            continue  # listed under gold_errors below
        questions.append(score_one(problem, formula, answer))
    gold_errors = tuple(problem.id for problem in golds.values() if problem.value is None and problem.id in seen)
    missing = tuple(problem.id for problem in golds.values() if problem.id not in seen)
    listed = [MathqaQuestion(item_id, "gold_error", why=golds[item_id].message) for item_id in gold_errors]
    listed += [MathqaQuestion(item_id, "no_prediction") for item_id in missing]
    return MathqaScore(tuple(questions + listed), tuple(unknown), tuple(duplicates), missing, gold_errors,
                       tuple(unreadable))


__all__ = ["MEASURES", "MathqaScore", "gold_problems", "normal_formula", "passes_trax", "score_records",
           "trax_answer"]
