"""TAT-QA's official per-question metric (``tatqa_metric.py``): exact match, DROP-style bag F1, scale.

:func:`score_question` gives what ``TaTQAEmAndF1.__call__`` adds for one question, as floats equal
to the official ones, plus the normalised strings compared and a reason when the answer misses.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .normalize import answer_string, is_number, normalize_answer, percent_alternative, scale_to_num, to_number
from ...core.errors import OfficialAbort

SCALES = ("", "thousand", "million", "billion", "percent")
"""The scales the official scorer counts (any other gold scale makes it raise ``KeyError``)."""

NUMERIC_TYPES = ("arithmetic", "count")
"""Answer types whose F1 is their exact match."""


class Reason(enum.Enum):
    """Why a prediction scored what it did (one per question)."""

    MATCH = ("match", "the normalised prediction equals the normalised gold answer")
    MISSING = ("missing", "no prediction, or a falsy one ('', [], null, 0): scored 0, scale not counted")
    NO_GOLD = ("no_gold", "the gold answer is an empty list: scored 0")
    OFFICIAL_ERROR = ("official_error", "the official scorer raises on this question")
    BAD_INPUT = ("bad_input", "the prediction is not [answer, scale] as the official scorer can read it (it would "
                              "stop here): scored 0, the uid and the problem named")
    SCALE_MISSING = ("scale_missing", "the number is right but the scale is missing")
    SCALE_WRONG = ("scale_wrong", "the number is right but the scale is another")
    SIGN = ("sign", "the number has the opposite sign")
    ROUNDING = ("rounding", "the number differs from the gold answer by the 2-place rounding only")
    VALUE_DIFFERS = ("value_differs", "the number differs from the gold answer")
    NOT_A_NUMBER = ("not_a_number", "the gold answer is a number and the prediction does not read as one")
    SPAN_ORDER = ("span_order", "the same words in another order or case: F1 1, exact match 0")
    SPAN_PARTIAL = ("span_partial", "some words of the gold span(s) are predicted")
    SPAN_MISMATCH = ("span_mismatch", "no word of the gold span(s) is predicted")

    def __init__(self, label: str, text: str) -> None:
        self.label = label
        self.text = text


@dataclass(frozen=True, slots=True)
class QuestionScore:
    """The official figures of one question and what was compared."""

    uid: str
    answer_type: Any
    answer_from: Any
    gold_scale: Any
    prediction: Any
    pred_scale: Any
    em: float
    f1: float
    scale_counted: bool
    """True when the question adds 1 to the official scale score (a truthy prediction, a gold answer,
    and the predicted scale equal to the gold one)."""
    reason: Reason
    gold_string: str = ""
    pred_string: str = ""
    error: str | None = None

    def record(self) -> dict[str, Any]:
        """The JSON per-question record."""
        record: dict[str, Any] = {"uid": self.uid, "answer_type": self.answer_type, "answer_from": self.answer_from,
                                  "em": self.em, "f1": self.f1, "scale_counted": self.scale_counted,
                                  "gold_scale": self.gold_scale, "pred_scale": _plain(self.pred_scale),
                                  "prediction": _plain(self.prediction), "gold_normalized": self.gold_string,
                                  "pred_normalized": self.pred_string, "reason": self.reason.label}
        if self.error is not None:
            record["error"] = self.error
        return record


def _plain(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    return value


def numpy_round_2(value: float) -> float:
    """``round(numpy.float64(x), 2)``: numpy scales by 100, rounds half to even, scales back."""
    scaled = value * 100.0
    if not math.isfinite(scaled):
        return scaled
    return float(round(scaled)) / 100.0


def bag_f1(predicted: set[str], gold: set[str]) -> float:
    """DROP's F1 of two token sets (an empty set has precision or recall 1)."""
    common = len(gold & predicted)
    precision = 1.0 if not predicted else common / float(len(predicted))
    recall = 1.0 if not gold else common / float(len(gold))
    if precision == 0.0 and recall == 0.0:
        return 0.0
    return (2 * precision * recall) / (precision + recall)


def em_f1(predicted: str, gold: str) -> tuple[float, float, str, str]:
    """The official ``get_metrics`` on two answer strings: (EM, F1 rounded by numpy, both normalised)."""
    pred_norm, gold_norm = normalize_answer(predicted), normalize_answer(gold)
    exact = 1.0 if pred_norm == gold_norm else 0.0
    return exact, numpy_round_2(bag_f1(set(pred_norm.split()), set(gold_norm.split()))), pred_norm, gold_norm


def gold_answers(question: Mapping[str, Any]) -> tuple[Any, list[Any], Any]:
    """The official ``extract_gold_answers``: (type, answers, scale); a span answer must be a list,
    a count answer is read with ``int``."""
    try:
        answer_type, scale, content = question["answer_type"], question["scale"], question["answer"]
    except KeyError as error:
        raise OfficialAbort(f"the gold question has no {error} field") from None
    if answer_type in ("multi-span", "span"):
        if not isinstance(content, list):
            raise OfficialAbort(f"a {answer_type} answer must be a list (official assert), not {content!r}")
        return answer_type, content, scale
    if answer_type == "count":
        try:
            return answer_type, [str(int(content))], scale
        except (TypeError, ValueError) as error:
            raise OfficialAbort(f"the count answer {content!r} is not an int: {error}") from None
    return answer_type, [str(content)], scale


def _absolute(text: str, scale: Any) -> float | None:
    """The value a single answer stands for in absolute units, or None when it is not a number."""
    if not is_number(text):
        return None
    number = to_number(text)
    if number is None:
        return None
    value = float(number) if "%" in text else float(number) * scale_to_num(scale)
    return value if math.isfinite(value) else None


def _numeric_reason(prediction: list[Any], pred_scale: Any, gold: list[Any], gold_scale: Any) -> Reason:
    if len(prediction) != 1 or len(gold) != 1:
        return Reason.VALUE_DIFFERS
    gold_value = _absolute(str(gold[0]), gold_scale)
    pred_value = _absolute(str(prediction[0]), pred_scale if isinstance(pred_scale, str) else "")
    if gold_value is None:
        return Reason.VALUE_DIFFERS
    if pred_value is None:
        return Reason.NOT_A_NUMBER
    unit = 0.01 * float(scale_to_num(gold_scale))
    if gold_value != 0 and math.isclose(pred_value, -gold_value, rel_tol=1e-9):
        return Reason.SIGN
    if gold_value != 0 and pred_value != 0 and pred_scale != gold_scale:
        ratio = math.log10(abs(pred_value / gold_value))
        if abs(ratio - round(ratio)) < 1e-6 and round(ratio) != 0 and pred_value * gold_value > 0:
            return Reason.SCALE_WRONG if pred_scale else Reason.SCALE_MISSING
    if abs(pred_value - gold_value) <= unit * (1 + 1e-9):
        return Reason.ROUNDING
    return Reason.VALUE_DIFFERS


def _reason(answer_type: Any, prediction: list[Any], pred_scale: Any, gold: list[Any], gold_scale: Any,
            f1: float) -> Reason:
    single_number = len(gold) == 1 and is_number(str(gold[0]))
    if answer_type in NUMERIC_TYPES or single_number:
        if pred_scale != gold_scale or answer_type in NUMERIC_TYPES or is_number(str(prediction[0])):
            try:
                return _numeric_reason(prediction, pred_scale, gold, gold_scale)
            except (OfficialAbort, OverflowError, ValueError, ZeroDivisionError):
                return Reason.VALUE_DIFFERS
    if f1 >= 1.0:
        return Reason.SPAN_ORDER
    return Reason.SPAN_PARTIAL if f1 > 0 else Reason.SPAN_MISMATCH


class PredictionAbort(OfficialAbort):
    """The official scorer raises on this question because of its prediction (a list answer mixing numbers
    and strings, a number with a scale that is not a string): the question is ``bad_input``, named by uid."""


def score_question(question: Mapping[str, Any], prediction: Any, pred_scale: Any) -> QuestionScore:
    """What the official scorer adds for one question given ``[prediction, pred_scale]`` (both None when
    the uid has no prediction). Raises :class:`OfficialAbort` where the official scorer raises."""
    uid = str(question.get("uid"))
    try:
        gold_scale = question["scale"]
    except KeyError:
        raise OfficialAbort("the gold question has no 'scale' field") from None
    if not isinstance(gold_scale, str) or gold_scale not in SCALES:
        raise OfficialAbort(f"the gold scale {gold_scale!r} is not one of {SCALES} (official KeyError)")
    base = dict(uid=uid, answer_type=question.get("answer_type"), answer_from=question.get("answer_from"),
                gold_scale=gold_scale, prediction=prediction, pred_scale=pred_scale)
    if not prediction:
        return QuestionScore(**base, em=0.0, f1=0.0, scale_counted=False, reason=Reason.MISSING)
    answer_type, gold, scale = gold_answers(question)
    if not gold:
        return QuestionScore(**base, em=0.0, f1=0.0, scale_counted=False, reason=Reason.NO_GOLD)
    gold_string = answer_string(gold, scale)
    scale_counted = bool(scale == pred_scale)
    answers = prediction if isinstance(prediction, list) else [prediction]
    try:
        candidates = [answer_string(answers, pred_scale)]
        alternative = percent_alternative(answers, pred_scale)
    except OfficialAbort as error:
        raise PredictionAbort(f"the prediction of {uid!r} cannot be read ({error}); expected [answer, scale]: "
                              "a string, a number or a list of strings, and a scale string") from None
    if alternative is not None:
        candidates.append(alternative)
    best: tuple[float, float, str, str] | None = None
    for candidate in candidates:
        scored = em_f1(candidate, gold_string)
        if best is None or scored[:2] > best[:2]:
            best = scored
    assert best is not None
    em, f1, pred_norm, gold_norm = best
    if answer_type in NUMERIC_TYPES:
        f1 = em
    reason = Reason.MATCH if em == 1.0 else _reason(answer_type, answers, pred_scale, gold, scale, f1)
    return QuestionScore(**base, em=em, f1=f1, scale_counted=scale_counted, reason=reason,
                         gold_string=gold_norm, pred_string=pred_norm)


__all__ = ["SCALES", "NUMERIC_TYPES", "Reason", "QuestionScore", "PredictionAbort", "numpy_round_2", "bag_f1", "em_f1",
           "gold_answers", "score_question"]
