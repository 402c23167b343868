"""Scoring FinanceReasoning runs: program-of-thought solutions in the sandbox, chain-of-thought recorded answers.

As the official ``eval_pot``: each prediction record is one item; its code is extracted as
``extract_pot_answers`` does; ``execution_rate`` is 1 when ``solution()`` returned a value the
official result queue could carry (picklable) within 10 s; ``acc`` is ``get_acc(value,
ground_truth)``. As ``eval_cot`` with recorded answers: ``execution_rate`` is 1 when
``result.extracted_answer`` is non-empty text without "none", and ``acc`` is ``get_acc`` of it.
The ``ground_truth`` is the gold file's (the official loop reads the same value from the record;
a record whose own copy differs gets a note). Answer texts the official ``normalize`` would
``eval`` are evaluated in the sandbox (``eval_text``), plain numerals read here (:func:`.rule.plain_value`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...core.limits import current
from ...core.plural import plural
from ..pysolution.extract import extract_code
from ..pysolution.pool import Pool
from ..pysolution.results import SolutionResult, Status, failure, safe_text
from ...readers import Record
from . import sandbox
from .rule import (DIVERGENCE_CLASSES, cot_valid, divergence, official_acc, official_average, plain_value,
                   strict_acc)
from .values import Value

_FAMILY = re.compile(r"(.+?)-(?:test|validation|dev|train)-\d+")
NEW_SOURCE = "FinanceReasoning"


def source_family(source: object) -> str:
    """``CodeFinQA-test-697`` -> ``CodeFinQA``; the 908 new questions are ``FinanceReasoning-test-N``."""
    if not isinstance(source, str):
        return ""
    match = _FAMILY.fullmatch(source)
    return match.group(1) if match else source


@dataclass(frozen=True, slots=True)
class GoldQuestion:
    """One gold record as the scorer needs it."""

    line: int
    id: str
    ground_truth: object
    source: str
    code: str
    context: str


def gold_questions(records: Sequence[Record]) -> tuple[dict[str, GoldQuestion], list[str]]:
    """The usable gold questions by ``question_id``, and a problem line for each unusable or repeated record."""
    found: dict[str, GoldQuestion] = {}
    problems: list[str] = []
    for record in records:
        value = record.value
        if record.error is not None or not isinstance(value, dict):
            problems.append(f"gold line {record.number}: unreadable ({record.error or 'not an object'})")
            continue
        key = value.get("question_id")
        if not isinstance(key, str) or not key:
            problems.append(f"gold line {record.number}: no 'question_id'")
            continue
        if key in found:
            problems.append(f"gold line {record.number}: question_id {key!r} repeated (the first is kept)")
            continue
        code, context = value.get("python_solution"), value.get("context")
        found[key] = GoldQuestion(record.number, key, value.get("ground_truth"), source_family(value.get("source")),
                                  code if isinstance(code, str) else "", context if isinstance(context, str) else "")
    return found, problems


@dataclass(frozen=True, slots=True)
class Item:
    """One prediction record, both verdicts and how they came about."""

    model: str
    mode: str
    id: str | None
    line: int
    source: str
    status: str
    message: str
    prediction: Value | None
    judged: Value | None
    ground_truth: object
    acc: int
    execution_rate: int
    strict: int
    divergence: str | None
    eval_text: bool = False
    notes: tuple[str, ...] = ()
    published: tuple[int, int] | None = None
    code: str = ""
    wall_clock: bool = False

    @property
    def agrees(self) -> bool | None:
        """Whether acc and execution_rate equal the record's published ``result`` (None: it has none)."""
        return None if self.published is None else self.published == (self.acc, self.execution_rate)

    def record(self, with_code: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "model": self.model, "mode": self.mode, "question_id": self.id, "line": self.line, "source": self.source,
            "status": self.status, "value": self.prediction.record() if self.prediction else None,
            "judged": self.judged.record() if self.judged else None, "ground_truth": self.ground_truth,
            "acc": self.acc, "execution_rate": self.execution_rate, "strict": self.strict,
            "divergence": self.divergence, "eval_text": self.eval_text}
        if self.published is not None:
            out["published"] = {"acc": self.published[0], "execution_rate": self.published[1]}
            out["agrees"] = self.agrees
        if self.message:
            out["message"] = self.message
        if self.notes:
            out["notes"] = list(self.notes)
        if with_code:
            out["code" if self.mode == "pot" else "answer"] = self.code
        return out


@dataclass(frozen=True, slots=True)
class ModelScore:
    """One run (a model in one mode): items and the official aggregates."""

    name: str
    mode: str
    items: tuple[Item, ...]
    unknown: tuple[Item, ...] = ()
    bad_records: tuple[tuple[int, str], ...] = ()
    published: dict[str, float] = field(default_factory=dict)

    @property
    def avg_accuracy(self) -> float:
        return official_average([item.acc for item in self.items])

    @property
    def avg_execution_rate(self) -> float:
        return official_average([item.execution_rate for item in self.items])

    @property
    def strict_accuracy(self) -> float:
        return official_average([item.strict for item in self.items])

    def divergences(self) -> dict[str, int]:
        counts = dict.fromkeys(DIVERGENCE_CLASSES, 0)
        for item in self.items:
            if item.divergence is not None:
                counts[item.divergence] = counts.get(item.divergence, 0) + 1
        return counts

    def by_source(self) -> dict[str, dict[str, float]]:
        groups: dict[str, list[Item]] = {}
        for item in self.items:
            groups.setdefault(item.source, []).append(item)
        return {source: {"n": len(items), "avg_accuracy": official_average([i.acc for i in items]),
                         "avg_execution_rate": official_average([i.execution_rate for i in items]),
                         "strict_accuracy": official_average([i.strict for i in items])}
                for source, items in sorted(groups.items())}

    def summary(self) -> dict[str, Any]:
        published = [item for item in self.items if item.published is not None]
        return {"model": self.name, "mode": self.mode, "n": len(self.items), "avg_accuracy": self.avg_accuracy,
                "avg_execution_rate": self.avg_execution_rate, "strict_accuracy": self.strict_accuracy,
                "official_only": sum(self.divergences().values()),
                "strict_only": sum(1 for item in self.items if item.strict and not item.acc),
                "divergences": self.divergences(),
                "eval_text": [item.id for item in self.items if item.eval_text],
                "official_stops_or_hangs": [item.id for item in self.items if item.notes],
                "published_items": len(published),
                "published_disagreements": [item.id for item in published if not item.agrees],
                "wall_clock_stops": sum(item.wall_clock for item in self.items),
                "unknown_ids": [item.id for item in self.unknown],
                "bad_records": [{"line": line, "reason": reason} for line, reason in self.bad_records]}


@dataclass(frozen=True, slots=True)
class Run:
    """One prediction file: the model's name (its folder) and its records."""

    name: str
    records: Sequence[Record]


@dataclass(frozen=True, slots=True)
class _Pending:
    line: int
    id: str | None
    text: str          # PoT: the extracted code; CoT: the extracted answer
    valid: bool        # PoT: there is code; CoT: the official vailid()
    published: tuple[int, int] | None
    record_truth: object


def run_mode(records: Sequence[Record]) -> str:
    """``cot`` when the records carry recorded answers (``result.extracted_answer``), else ``pot``."""
    for record in records:
        value = record.value
        if isinstance(value, dict) and isinstance(value.get("result"), dict) and "extracted_answer" in value["result"]:
            return "cot"
    return "pot"


def _published(value: dict[str, Any]) -> tuple[int, int] | None:
    result = value.get("result")
    if not isinstance(result, dict):
        return None
    acc, rate = result.get("acc"), result.get("execution_rate")
    if isinstance(acc, int) and isinstance(rate, int) and not isinstance(acc, bool) and not isinstance(rate, bool):
        return acc, rate
    return None


def _pending(mode: str, records: Sequence[Record]) -> tuple[list[_Pending], list[tuple[int, str]]]:
    found: list[_Pending] = []
    bad: list[tuple[int, str]] = []
    for record in records:
        value = record.value
        if record.error is not None or not isinstance(value, dict):
            bad.append((record.number, safe_text(record.error or "not an object")))
            continue
        key = value.get("question_id")
        key = key if isinstance(key, str) else None
        if mode == "cot":
            result = value.get("result")
            answer = result.get("extracted_answer") if isinstance(result, dict) else None
            text = answer if isinstance(answer, str) else ""
            found.append(_Pending(record.number, key, text, cot_valid(answer), _published(value),
                                  value.get("ground_truth")))
        else:
            output = value.get("output")
            code = extract_code(output) if isinstance(output, str) or output is None else ""
            found.append(_Pending(record.number, key, code, bool(code), _published(value), value.get("ground_truth")))
    return found, bad


def _text_key(value: Value) -> str | None:
    """The answer text a described value still needs normalized in the sandbox (None: none, or read here)."""
    if value.kind != "text" or value.text is None or plain_value(value.text) is not None:
        return None
    return value.text


def score_runs(gold_records: Sequence[Record], runs: Sequence[Run], *, jobs: int = 2,
               unsafe_no_isolation: bool = False, progress: Callable[[int], None] | None = None,
               timeout: float | None = None) -> tuple[list[ModelScore], list[str], str]:
    """Every run scored against the gold records: (models, gold problems, isolation description)."""
    questions, problems = gold_questions(gold_records)
    parsed = []
    for run in runs:
        mode = run_mode(run.records)
        pending, bad = _pending(mode, run.records)
        parsed.append((run, mode, pending, bad))
    bound = current().max_sandbox_code_chars
    codes = [("pot", p.text, "") for _, mode, pending, _ in parsed if mode == "pot" for p in pending
             if p.valid and p.id in questions and len(p.text) <= bound]
    with Pool(jobs, sandbox.budget(timeout), unsafe_no_isolation=unsafe_no_isolation) as pool:
        isolation = pool.isolation
        ran = dict(zip((code for _, code, _ in codes), sandbox.run(pool, codes, progress)))
        texts: set[str] = set()
        for _, mode, pending, _ in parsed:
            for p in pending:
                if mode == "cot" and p.valid and plain_value(p.text) is None:
                    texts.add(p.text)
                elif mode == "pot" and p.text in ran and (value := ran[p.text].value) is not None:
                    key = _text_key(value)
                    if key is not None:
                        texts.add(key)
        ordered = sorted(texts)
        normalized = dict(zip(ordered, sandbox.run(pool, [("text", text, "") for text in ordered])))
    models = []
    for run, mode, pending, bad in parsed:
        items: list[Item] = []
        unknown: list[Item] = []
        for p in pending:
            question = questions.get(p.id) if p.id is not None else None
            item = _judge(run.name, mode, p, question, ran, normalized, bound)
            (items if question is not None else unknown).append(item)
        models.append(ModelScore(run.name, mode, tuple(items), tuple(unknown), tuple(bad)))
    return models, problems, isolation


def _judge(model: str, mode: str, p: _Pending, question: GoldQuestion | None, ran: dict[str, sandbox.Outcome],
           normalized: dict[str, sandbox.Outcome], bound: int) -> Item:
    gt = question.ground_truth if question is not None else None
    source = question.source if question is not None else ""
    notes: list[str] = []
    if question is not None and p.record_truth is not None and p.record_truth != gt:
        notes.append(f"the record's own ground_truth {p.record_truth!r} differs from the gold's; the gold's is used")
    if mode == "cot":
        if not p.valid:
            return Item(model, mode, p.id, p.line, source, "no_answer", "", None, None, gt, 0, 0, 0, None,
                        notes=tuple(notes), published=p.published, code=p.text)
        prediction = Value("text", "str", "str", text=p.text)
        return _verdict(model, mode, p, source, gt, Status.OK, "", prediction, notes, normalized)
    if question is None or not p.valid or len(p.text) > bound:
        if not p.valid:
            result: SolutionResult = sandbox.no_code().result
        elif len(p.text) > bound:
            result = failure("too_long", f"{plural(len(p.text), 'character')}, over {bound} (max_sandbox_code_chars)")
        else:
            result = failure("sandbox_error", "not run: no gold question with this id")
        return Item(model, mode, p.id, p.line, source, result.status.value, result.message, None, None, gt, 0, 0, 0,
                    None, notes=tuple(notes), published=p.published, code=p.text)
    outcome = ran[p.text]
    value = outcome.value
    if value is None:
        return Item(model, mode, p.id, p.line, source, outcome.result.status.value, outcome.result.message, None,
                    None, gt, 0, 0, 0, None, notes=tuple(notes), published=p.published, code=p.text,
                    wall_clock=outcome.result.wall_clock)
    if value.unpicklable is not None:
        message = (f"the value cannot be pickled ({value.unpicklable}): the official result queue never delivers "
                   "it and the official loop waits out its 10 s")
        return Item(model, mode, p.id, p.line, source, "unpicklable", message, value, None, gt, 0, 0, 0, None,
                    notes=tuple(notes), published=p.published, code=p.text)
    if value.str_fails is not None:
        notes.append(f"official_stops: str() of this value raises ({value.str_fails[:80]}); the official "
                     "evaluation of the whole file stops here")
    return _verdict(model, mode, p, source, gt, Status.OK, "", value, notes, normalized)


def _verdict(model: str, mode: str, p: _Pending, source: str, gt: object, status: Status, message: str,
             prediction: Value, notes: list[str], normalized: dict[str, sandbox.Outcome]) -> Item:
    judged: Value | None = prediction
    eval_text = False
    if prediction.kind == "text" and prediction.text is not None:
        judged = plain_value(prediction.text)
        if judged is None:
            eval_text = True
            outcome = normalized.get(prediction.text)
            judged = outcome.value if outcome is not None else None
            if judged is None:
                notes.append("official_hangs: evaluating this text did not end within the limit "
                             f"({outcome.result.status.value if outcome else 'not run'}); the official "
                             "evaluator would wait on it")
    elif prediction.normalized is not None:
        eval_text = True
        judged = prediction.normalized
    if judged is not None and judged.aborts:
        notes.append("official_stops: evaluating this text raises SystemExit/KeyboardInterrupt, which the "
                     "official get_acc does not catch")
    acc = official_acc(judged, gt)
    strict = strict_acc(prediction, gt)
    kind = divergence(prediction, judged, gt) if acc and not strict and judged is not None else None
    return Item(model, mode, p.id, p.line, source, status.value, message, prediction, judged, gt, acc, 1, strict,
                kind, eval_text, tuple(notes), p.published, p.text)
