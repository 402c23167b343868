"""Scoring program-of-thought runs (FinanceMath, DocMath-Eval): gold and model solutions in the sandbox pool,
both rules per item, the official aggregates per model.

As the official loop does, each prediction record is one item (a model's accuracy is over
its prediction records that name a gold question), the gold value is the executed
``python_solution`` (never the recorded ``ground_truth``), and ``execution_rate`` counts
the solutions whose ``solution()`` returned, whatever it returned. Unlike it, every
solution runs in its own confined child of a warm sandbox worker, so one solution can
neither see the gold nor change what another one computes; a gold solution that fails is
``bad_gold`` for its question (the official loop would stop there); a prediction naming
no gold question is listed, not scored (the official loop would stop there too).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...core.limits import current
from ...readers import Record, read_records
from ...core.errors import InputError
from .datasets import Dataset
from .official import Gold, official_mean
from .pool import Budget, Pool, Request
from .results import SolutionResult, Status, failure, safe_text
from .strict import DIVERGENCE_CLASSES, verdicts
from ...core.plural import plural


@dataclass(frozen=True, slots=True)
class GoldQuestion:
    """One gold record: its id, code and topic, and its executed value (or why it has none)."""

    line: int
    id: str | None
    code: str
    topic: str | None
    recorded: float | None
    problem: str | None = None
    result: SolutionResult | None = None

    @property
    def gold(self) -> Gold | None:
        """The executed value as the official rule types it, or None when the gold solution failed."""
        result = self.result
        if result is None or not result.status.returned:
            return None
        if result.status is Status.NOT_A_NUMBER:
            return Gold(result.type_name, None)
        value: int | float | bool | None = result.python_value()
        return Gold(result.type_name, value if result.type_name in ("int", "float", "float64", "bool") else None)


@dataclass(frozen=True, slots=True)
class Item:
    """One prediction record and its verdicts under both rules."""

    model: str
    id: str | None
    line: int
    topic: str | None
    code: str
    result: SolutionResult
    gold_value: float | None
    official: bool
    executed: bool
    strict: bool
    divergence: str | None
    note: str = ""

    def record(self, with_code: bool = False) -> dict[str, Any]:
        record: dict[str, Any] = {
            "model": self.model, "question_id": self.id, "line": self.line, "topic": self.topic,
            "status": self.result.status.value, "type": self.result.type_name or None,
            "value": _json_float(self.result.number), "shown": self.result.shown or None,
            "gold": _json_float(self.gold_value), "acc": int(self.official), "execution_rate": int(self.executed),
            "strict": int(self.strict), "divergence": self.divergence}
        if self.result.message:
            record["message"] = self.result.message
        if self.note:
            record["note"] = self.note
        if with_code:
            record["code"] = self.code
        return record


@dataclass(frozen=True, slots=True)
class ModelScore:
    """One model's items and aggregates (the official ones rounded as the official script rounds them)."""

    name: str
    items: tuple[Item, ...]
    missing: tuple[str, ...] = ()
    unknown: tuple[Item, ...] = ()
    bad_records: tuple[tuple[int, str], ...] = ()

    @property
    def accuracy(self) -> float:
        return official_mean([int(item.official) for item in self.items])

    @property
    def execution_rate(self) -> float:
        return official_mean([int(item.executed) for item in self.items])

    @property
    def strict_accuracy(self) -> float:
        return official_mean([int(item.strict) for item in self.items])

    def by_topic(self) -> dict[str, dict[str, float]]:
        topics: dict[str, list[Item]] = {}
        for item in self.items:
            topics.setdefault(item.topic or "", []).append(item)
        return {topic: {"accuracy": official_mean([int(i.official) for i in items]),
                        "execution_rate": official_mean([int(i.executed) for i in items]),
                        "strict_accuracy": official_mean([int(i.strict) for i in items]), "n": len(items)}
                for topic, items in topics.items()}

    def divergences(self) -> dict[str, int]:
        counts = dict.fromkeys(DIVERGENCE_CLASSES, 0)
        for item in self.items:
            if item.divergence is not None:
                counts[item.divergence] += 1
        return counts

    def statuses(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for item in self.items:
            counts[item.result.status.value] = counts.get(item.result.status.value, 0) + 1
        return dict(sorted(counts.items()))

    def wall_clock_stops(self) -> int:
        """Solutions stopped by the wall-clock backstop, not the CPU limit: verdicts the machine's load may decide."""
        return sum(item.result.wall_clock for item in self.items)

    def summary(self) -> dict[str, Any]:
        return {"model": self.name, "n": len(self.items), "accuracy": self.accuracy,
                "execution_rate": self.execution_rate, "strict_accuracy": self.strict_accuracy,
                "official_only": sum(self.divergences().values()), "divergences": self.divergences(),
                "statuses": self.statuses(), "wall_clock_stops": self.wall_clock_stops(), "missing": list(self.missing),
                "unknown_ids": [item.id for item in self.unknown],
                "bad_records": [{"line": line, "reason": reason} for line, reason in self.bad_records]}


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """Every model scored against one gold file."""

    dataset: Dataset
    gold: tuple[GoldQuestion, ...]
    models: tuple[ModelScore, ...]
    isolation: str = ""
    libraries: dict[str, str] = field(default_factory=dict)

    def gold_records(self) -> list[dict[str, Any]]:
        records = []
        for question in self.gold:
            result = question.result
            records.append({"question_id": question.id, "line": question.line, "topic": question.topic,
                            "status": question.problem or (result.status.value if result else None),
                            "type": result.type_name if result else None,
                            "value": _json_float(result.number) if result else None,
                            "recorded": _json_float(question.recorded),
                            "message": (result.message if result else "") or None})
        return records


def _json_float(value: float | None) -> float | str | None:
    if value is None or math.isfinite(value):
        return value
    return repr(value)


def load_records(path: str | Path) -> list[Record]:
    """Every record of a JSON list, JSON Lines or gzip file (or ``-``), through the shared readers."""
    try:
        return list(read_records(path))
    except InputError as error:
        raise InputError(str(error)) from None
    except OSError as error:
        raise InputError(f"{path}: cannot read ({error.strerror or error})") from None


def model_name(path: str | Path) -> str:
    """The official name of a prediction file's model: its file name up to the first dot."""
    return Path(path).name.split(".")[0]


def gold_questions(dataset: Dataset, records: Sequence[Record]) -> list[GoldQuestion]:
    """Every gold record as a question, in file order; unusable and duplicated ones carry their problem."""
    questions: list[GoldQuestion] = []
    seen: dict[str, int] = {}
    for record in records:
        if record.error is not None:
            questions.append(GoldQuestion(record.number, None, "", None, None, f"bad_input: {record.error}"))
            continue
        key = dataset.record_id(record.value)
        code = record.value.get(dataset.gold_code_field or "") if isinstance(record.value, dict) else None
        if key is None or not isinstance(code, str):
            questions.append(GoldQuestion(record.number, key, "", None, None,
                                          f"bad_input: no {dataset.id_fields[0]!r} or no {dataset.gold_code_field!r}"))
            continue
        topic = record.value.get(dataset.topic_field) if dataset.topic_field else None
        recorded = record.value.get(dataset.gold_value_field or "")
        number = float(recorded) if isinstance(recorded, (int, float)) and not isinstance(recorded, bool) else None
        seen[key] = seen.get(key, 0) + 1
        questions.append(GoldQuestion(record.number, key, code, topic if isinstance(topic, str) else None, number))
    return [GoldQuestion(q.line, q.id, q.code, q.topic, q.recorded, "duplicate_id")
            if q.id is not None and seen.get(q.id, 0) > 1 and q.problem is None else q for q in questions]


@dataclass(frozen=True, slots=True)
class _Prediction:
    line: int
    id: str | None
    topic: str | None
    code: str | None
    error: str | None = None


def _predictions(dataset: Dataset, records: Sequence[Record]) -> list[_Prediction]:
    found = []
    for record in records:
        if record.error is not None:
            found.append(_Prediction(record.number, None, None, None, record.error))
            continue
        key = dataset.record_id(record.value)
        if key is None:
            found.append(_Prediction(record.number, None, None, None, f"no {dataset.id_fields[0]!r}"))
            continue
        topic = record.value.get(dataset.topic_field) if dataset.topic_field else None
        code = dataset.extract(record.value.get(dataset.prediction_field))
        found.append(_Prediction(record.number, key, topic if isinstance(topic, str) else None, code))
    return found


def _request(dataset: Dataset, code: str) -> Request:
    return Request(code, dataset.entry, dataset.allowed_imports)


def run_gold(dataset: Dataset, questions: Sequence[GoldQuestion], pool: Pool) -> list[GoldQuestion]:
    """Execute every usable gold solution (in its own pool: no model solution's worker ever holds gold code)."""
    runnable = [index for index, question in enumerate(questions) if question.problem is None]
    results = pool.run([_request(dataset, questions[index].code) for index in runnable])
    done = list(questions)
    for index, result in zip(runnable, results):
        question = questions[index]
        problem = None if result.status.returned else "bad_gold"
        done[index] = GoldQuestion(question.line, question.id, question.code, question.topic, question.recorded,
                                   problem, result)
    return done


def _judge(model: str, prediction: _Prediction, question: GoldQuestion, result: SolutionResult) -> Item:
    gold = question.gold
    number = result.number if result.status is Status.OK else None
    if gold is None:
        official, strict, divergence = False, False, None
        note = "the gold solution failed (bad_gold): no prediction is correct"
    else:
        official, strict, divergence = verdicts(number, gold)
        note = ""
    gold_number = question.result.number if question.result is not None else None
    topic = prediction.topic if prediction.topic is not None else question.topic
    return Item(model, prediction.id, prediction.line, topic, prediction.code or "", result, gold_number,
                official, result.status.returned, strict, divergence, note)


def score_runs(dataset: Dataset, gold_records: Sequence[Record], runs: Sequence[tuple[str, Sequence[Record]]],
               *, jobs: int = 2, budget: Budget | None = None, unsafe_no_isolation: bool = False,
               progress: Callable[[int], None] | None = None) -> Leaderboard:
    """Score every run (model name, prediction records) against the gold records.

    Raises InputError when no gold question is usable and SetupError when
    the machine cannot isolate (unless ``unsafe_no_isolation``).
    """
    questions = gold_questions(dataset, gold_records)
    if not any(question.problem is None for question in questions):
        raise InputError(f"no usable gold question (each needs {dataset.id_fields[0]!r} and "
                                 f"{dataset.gold_code_field!r})")
    with Pool(jobs, budget, unsafe_no_isolation=unsafe_no_isolation) as gold_pool:
        questions = run_gold(dataset, questions, gold_pool)
        isolation = gold_pool.isolation
    by_id = {question.id: question for question in questions if question.id is not None
             and question.problem != "duplicate_id"}
    bound = current().max_sandbox_code_chars
    parsed = [(name, _predictions(dataset, records)) for name, records in runs]
    codes: dict[str, int] = {}
    for _, predictions in parsed:
        for prediction in predictions:
            if prediction.id in by_id and prediction.code and len(prediction.code) <= bound:
                codes.setdefault(prediction.code, len(codes))
    with Pool(jobs, budget, unsafe_no_isolation=unsafe_no_isolation) as pool:
        ran = pool.run([_request(dataset, code) for code in codes], progress)
    models = []
    for name, predictions in parsed:
        items: list[Item] = []
        unknown: list[Item] = []
        bad: list[tuple[int, str]] = []
        for prediction in predictions:
            if prediction.error is not None:
                bad.append((prediction.line, safe_text(prediction.error)))
                continue
            if prediction.code is None:
                result = failure("no_code", f"the prediction's {dataset.prediction_field!r} is not text")
            elif not prediction.code:
                result = failure("no_code", "the extraction gives no code (empty output, or 'argparse' in it)")
            elif len(prediction.code) > bound:
                result = failure("too_long", f"{plural(len(prediction.code), 'character')}, over {bound} "
                                             "(max_sandbox_code_chars)")
            else:
                result = ran[codes[prediction.code]] if prediction.code in codes else failure("sandbox_error", "not run")
            question = by_id.get(prediction.id) if prediction.id is not None else None
            if question is None:
                unknown.append(Item(name, prediction.id, prediction.line, prediction.topic, prediction.code or "",
                                    result, None, False, False, False, None, "no gold question with this id"))
                continue
            items.append(_judge(name, prediction, question, result))
        predicted = {item.id for item in items}
        missing = tuple(question.id for question in questions if question.id is not None
                        and question.id in by_id and question.id not in predicted)
        models.append(ModelScore(name, tuple(items), missing, tuple(unknown), tuple(bad)))
    from .pool import offered_libraries
    return Leaderboard(dataset, tuple(questions), tuple(models), isolation, offered_libraries())
