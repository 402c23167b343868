"""TAT-QA's official scorer (``tatqa_eval.py``) over a gold file and a prediction file, item by item.

:func:`score` gives exact match, F1 and scale score equal as floats to the official ones (summed in
the official order, divided by the number of gold questions), the per answer type x answer source
tables the official script prints (pandas' ``pivot_table`` means, with its compensated sum), and
one :class:`~progexec.datasets.tatqa.metric.QuestionScore` per gold question. Where the official script
would stop with a traceback, the run says so (``aborted``) and still scores every other question.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...core.limits import Limits
from ...core.errors import InputError, OfficialAbort
from .data import Question, read_predictions, read_questions
from .metric import PredictionAbort, QuestionScore, Reason, score_question
from ...core.plural import plural


@dataclass(frozen=True, slots=True)
class Cell:
    """One answer type x answer source cell: count and mean EM / F1 (pandas' mean)."""

    count: int
    em: float
    f1: float


@dataclass(frozen=True, slots=True)
class TatqaScore:
    """The official figures of one prediction set and the per-question scores behind them."""

    em: float
    f1: float
    scale: float
    count: int
    questions: tuple[QuestionScore, ...]
    cells: Mapping[tuple[str, str], Cell] = field(default_factory=dict)
    """The answer type x answer source table."""
    aborted: str | None = None
    """Why and where the official script would stop (None: it runs to the end)."""

    @property
    def n(self) -> int:
        return self.count

    @property
    def ok(self) -> bool:
        """True when the official script runs to the end."""
        return self.aborted is None

    def record(self) -> dict[str, Any]:
        return {"dialect": "tatqa", **self.summary()}

    def table(self) -> list[str]:
        """The official printout: the figures x 100 at 2 places, then one line per table cell."""
        lines = [f"Exact-match accuracy {self.em * 100:.2f}", f"F1 score {self.f1 * 100:.2f}",
                 f"Scale score {self.scale * 100:.2f}"]
        lines += [f"{kind} / {source}: {plural(cell.count, 'question')}, EM {cell.em:.6f}, F1 {cell.f1:.6f}"
                  for (kind, source), cell in sorted(self.cells.items())]
        return lines

    def headline(self) -> str:
        text = f"exact match {self.em * 100:.2f}, F1 {self.f1 * 100:.2f}, scale score {self.scale * 100:.2f}"
        return text + (f"; the official script would stop ({self.aborted})" if self.aborted else "")

    def reasons(self) -> dict[str, int]:
        """How many questions got each reason."""
        counts: dict[str, int] = {}
        for question in self.questions:
            counts[question.reason.label] = counts.get(question.reason.label, 0) + 1
        return dict(sorted(counts.items()))

    def summary(self) -> dict[str, Any]:
        """The headline figures as JSON (official percentages: ``'{:.2f}'.format(x * 100)``)."""
        return {"exact_match": self.em, "f1": self.f1, "scale_score": self.scale, "count": self.count,
                "printed": {"exact_match": f"{self.em * 100:.2f}", "f1": f"{self.f1 * 100:.2f}",
                            "scale_score": f"{self.scale * 100:.2f}"},
                "official_aborted": self.aborted, "reasons": self.reasons(),
                "table": [{"answer_type": kind, "answer_from": source, "count": cell.count, "em": cell.em,
                           "f1": cell.f1} for (kind, source), cell in sorted(self.cells.items())]}


def compensated_mean(values: Iterable[float]) -> tuple[int, float]:
    """(count, mean) with pandas' group mean: Kahan-compensated sum, then one division."""
    total = compensation = 0.0
    count = 0
    for value in values:
        count += 1
        corrected = value - compensation
        running = total + corrected
        compensation = running - total - corrected
        total = running
    return count, (total / count if count else 0.0)


def pivot(questions: Iterable[QuestionScore]) -> dict[tuple[str, str], Cell]:
    """The official pivot tables: means of EM and F1 per (answer_type, answer_from); rows missing either
    key are left out, as pandas leaves out NaN keys."""
    groups: dict[tuple[str, str], list[QuestionScore]] = {}
    for question in questions:
        if isinstance(question.answer_type, str) and isinstance(question.answer_from, str):
            groups.setdefault((question.answer_type, question.answer_from), []).append(question)
    table = {}
    for key, members in groups.items():
        count, em = compensated_mean(member.em for member in members)
        _, f1 = compensated_mean(member.f1 for member in members)
        table[key] = Cell(count, em, f1)
    return table


def lookup(predictions: Any, uid: Any) -> tuple[Any, Any]:
    """``pred_answer, pred_scale = predicted_answers[uid]`` when ``uid in predicted_answers``, else
    (None, None); the official script's own Python operations, so their quirks hold (a two-character
    string unpacks to answer and scale)."""
    try:
        if uid not in predictions:
            return None, None
        value = predictions[uid]
    except (TypeError, KeyError, IndexError, AttributeError) as error:
        raise OfficialAbort(f"the prediction of {uid!r} cannot be looked up: {error}") from None
    try:
        answer, scale = value
    except (TypeError, ValueError) as error:
        raise PredictionAbort(f"the prediction of {uid!r} is {_shown(value)}, not a list [answer, scale] "
                              f"(the official `answer, scale = value` raises: {error})") from None
    return answer, scale


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 80 else text[:77] + "..."


def check_predictions(predictions: Any, name: str) -> None:
    """Refuse a prediction document that is not one JSON object ``{uid: [answer, scale]}`` (exit 2). The
    official ``tatqa_eval.py`` finds no uid in a list (``uid in list``) and silently scores every question 0."""
    if not isinstance(predictions, dict):
        kind = "a JSON list" if isinstance(predictions, list) else f"a JSON {type(predictions).__name__}"
        raise InputError(f"{name}: {kind}; expected one JSON object {{uid: [answer, scale]}} (the official "
                         f"tatqa_eval.py finds no uid in it and scores every question 0)")


def _abort_score(question: Mapping[str, Any], uid: str, message: str, reason: Reason) -> QuestionScore:
    return QuestionScore(uid, question.get("answer_type"), question.get("answer_from"), question.get("scale"),
                         None, None, 0.0, 0.0, False, reason, error=message)


def score_questions(questions: Iterable[Mapping[str, Any]], predictions: Any) -> TatqaScore:
    """Score gold question objects (as the official file holds them) against a prediction value."""
    total_em = total_f1 = scale_em = 0.0
    scores: list[QuestionScore] = []
    aborted: str | None = None
    for question in questions:
        uid = question.get("uid")
        try:
            answer, scale = lookup(predictions, uid)
            scored = score_question(question, answer, scale)
        except OfficialAbort as error:
            reason = Reason.BAD_INPUT if isinstance(error, PredictionAbort) else Reason.OFFICIAL_ERROR
            scored = _abort_score(question, str(uid), str(error), reason)
            aborted = aborted or f"question {uid}: {error}"
        scores.append(scored)
        total_em += scored.em
        total_f1 += scored.f1
        scale_em += 1.0 if scored.scale_counted else 0.0
    count = len(scores)
    return TatqaScore(total_em / count if count else 0.0, total_f1 / count if count else 0.0,
                      scale_em / count if count else 0.0, count, tuple(scores), pivot(scores), aborted)


def score_records(gold: Sequence[Any], predictions: Sequence[Any]) -> TatqaScore:
    """Score raw records as the reader registry gives them: gold contexts (or a whole gold list) and the
    prediction document (one object ``{uid: [answer, scale]}``; any other shape is scored as the
    official script would read it)."""
    contexts = gold[0] if len(gold) == 1 and isinstance(gold[0], list) else gold
    questions: list[Mapping[str, Any]] = []
    for context in contexts:
        if not isinstance(context, dict) or not isinstance(context.get("questions"), list):
            raise InputError("a TAT-QA gold record is not a context with questions")
        questions.extend(question for question in context["questions"] if isinstance(question, dict))
    document: Any = predictions[0] if len(predictions) == 1 and isinstance(predictions[0], (dict, list)) \
        else list(predictions)
    check_predictions(document, "the predictions")
    return score_questions(questions, document)


def gold_questions(gold: str | Path, limits: Limits | None = None) -> list[Question]:
    """Every question of a gold file; a record that cannot be used is an input error (the official
    script stops on it too), naming where it is."""
    questions = []
    for question in read_questions(gold, limits):
        if question.error is not None:
            raise InputError(f"{gold}: {question.error}")
        questions.append(question)
    return questions


def score(gold: str | Path, predictions: str | Path, limits: Limits | None = None) -> TatqaScore:
    """Score a prediction file against a TAT-QA gold file (paths, ``-``, or ``tatqa:dev`` / ``tatqa:test``)."""
    questions = gold_questions(gold, limits)
    document = read_predictions(predictions, limits)
    check_predictions(document, str(predictions))
    return score_questions([question.raw for question in questions], document)


__all__ = ["Cell", "TatqaScore", "compensated_mean", "pivot", "lookup", "check_predictions", "score_questions", "score_records", "gold_questions",
           "score"]
