"""TAT-QA gold records for the reward: a completion that states an answer and its scale in words
(``$1,496.5 million``, ``6.67%``, ``The answer is 2019``) judged by the official rule or the numeric rule.

Gold record: ``{"dialect": "tatqa", "answer", "scale", "answer_type", "policy"?}`` (``answer`` a number,
a string or a list of spans; ``scale`` one of ``""``, thousand, million, billion, percent; ``answer_type``
defaults to arithmetic for a number, multi-span for a list of several spans, span otherwise).

* ``official``: the final answer and its scale are scored by TAT-QA's official exact match
  (:func:`progexec.datasets.tatqa.metric.score_question`); a trailing ``%`` or ``percent`` is the percent scale,
  a trailing thousand / million / billion the others.
* ``numeric``: for a numeric gold, the stated value times its scale against the gold value times its
  scale, within 0.1 % (relative) — so ``0.0667`` and ``6.67%`` both match 6.67 percent, ``6.67`` alone
  is a scale mismatch; a span gold falls back to the official exact match.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from ...core.limits import current
from ...reward.model import Policy, RewardResult, RewardStatus, make_result
from .metric import Reason, score_question
from .normalize import is_number, scale_to_num, to_number
from ...core.errors import OfficialAbort

REL_TOL = 1e-3
"""numeric: relative tolerance of a stated value against the gold value (both times their scales)."""

_FINAL = re.compile(r"(?:final answer|answer)\s*(?:is\s*:?|:)\s*", re.IGNORECASE)
_NUMBER = re.compile(r"-?\(?-?\$?\s?\d[\d,]*(?:\.\d+)?\)?(?:\s*(?:%|percent(?:age)?\b|thousands?\b|millions?\b|"
                     r"billions?\b))?", re.IGNORECASE)
_SCALE = re.compile(r"\s*(%|percent(?:age)?|thousands?|millions?|billions?)\s*$", re.IGNORECASE)
_SCALES = {"%": "percent", "percent": "percent", "percentage": "percent", "thousand": "thousand",
           "thousands": "thousand", "million": "million", "millions": "million", "billion": "billion",
           "billions": "billion"}


def _gold_question(gold: Mapping[str, Any] | str) -> dict[str, Any]:
    record = json.loads(gold) if isinstance(gold, str) else dict(gold)
    if not isinstance(record, dict) or "answer" not in record:
        raise ValueError("a TAT-QA gold record needs an answer")
    answer = record["answer"]
    if isinstance(answer, str) and answer.startswith("["):  # a list of spans as JSON text (a verl ground_truth)
        try:
            spans = json.loads(answer)
        except ValueError:
            spans = None
        if isinstance(spans, list) and spans and all(isinstance(span, str) for span in spans):
            answer = spans
    kind = record.get("answer_type") or ("arithmetic" if isinstance(answer, (int, float)) and not isinstance(
        answer, bool) else "multi-span" if isinstance(answer, list) and len(answer) > 1 else "span")
    if kind in ("span", "multi-span") and not isinstance(answer, list):
        answer = [str(answer)]
    scale = record.get("scale", "")
    if scale not in ("", "thousand", "million", "billion", "percent"):
        raise ValueError(f"scale must be '', thousand, million, billion or percent, got {scale!r}")
    return {"uid": str(record.get("uid", "")), "answer": answer, "answer_type": kind, "scale": scale,
            "answer_from": record.get("answer_from")}


def final_answer(completion: str, numeric: bool = False) -> tuple[str, str] | None:
    """(answer text, scale) stated by a completion: after its last ``answer is`` / ``answer:``, else its
    last non-empty line; for a ``numeric`` gold, the last number there (with its scale word). A trailing
    scale word or ``%`` after a number becomes the scale (after the last of several `` | ``-separated
    numbers, when the others are plain numbers: it is then the scale of all of them)."""
    found = list(_FINAL.finditer(completion))
    text = completion[found[-1].end():] if found else next(
        (line for line in reversed(completion.splitlines()) if line.strip()), "")
    text = text.strip().splitlines()[0] if text.strip() else ""
    text = text[-current().max_span_chars:].strip().strip("*`\"' ").strip()
    if numeric:
        text = text.rstrip(".").strip()
        if not is_number(text):
            numbers = _NUMBER.findall(text)
            text = numbers[-1].strip() if numbers else text
    if not text:
        return None
    *others, last = text.split("|")
    match = _SCALE.search(last)
    plain = all(is_number(part.strip() or "x") and not _SCALE.search(part) for part in others)
    if match and plain and is_number(last[:match.start()].strip() or "x"):
        return text[:len(text) - len(last) + match.start()].strip(), _SCALES[match.group(1).lower()]
    return text, ""


def _absolute(answer: str, scale: str) -> float | None:
    if not is_number(answer):
        return None
    number = to_number(answer)
    if number is None:
        return None
    value = float(number) * (1 if "%" in answer else scale_to_num(scale))
    return value if math.isfinite(value) else None


def score_tatqa(completion: object, gold: Mapping[str, Any] | str, policy: Policy | str | None = None) -> RewardResult:
    """Judge a completion against a TAT-QA gold record; never raises."""
    try:
        chosen = Policy(policy.value if isinstance(policy, Policy) else (policy or gold_policy(gold)))
    except ValueError:
        return make_result(RewardStatus.BAD_POLICY, Policy.NUMERIC, name=str(policy)[:100])
    if chosen is Policy.HELM:
        return make_result(RewardStatus.BAD_POLICY, chosen, name="helm (not defined for TAT-QA)")
    try:
        question = _gold_question(gold)
    except (ValueError, TypeError) as error:
        return make_result(RewardStatus.BAD_GOLD, chosen, detail=str(error)[:300])
    if not isinstance(completion, str):
        return make_result(RewardStatus.BAD_INPUT, chosen, detail="the completion must be a string")
    if len(completion) > (bound := current().max_completion_chars):
        return make_result(RewardStatus.TOO_LARGE, chosen, what="the completion", size=len(completion), limit=bound)
    stated = final_answer(completion, question["answer_type"] in ("arithmetic", "count"))
    if stated is None:
        return make_result(RewardStatus.NO_ANSWER, chosen)
    answer, scale = stated
    shown = f"{answer} {scale}".strip()
    try:
        scored = score_question(question, answer, scale)
    except OfficialAbort as error:
        return make_result(RewardStatus.BAD_GOLD, chosen, detail=str(error)[:300])
    gold_text = f"{question['answer']} {question['scale']}".strip()
    if chosen is Policy.NUMERIC and question["answer_type"] in ("arithmetic", "count"):
        return _numeric(answer, scale, question, shown, gold_text)
    if scored.em == 1.0:
        return make_result(RewardStatus.OK, chosen, extracted=shown, gold=gold_text)
    if scored.reason in (Reason.SCALE_MISSING, Reason.SCALE_WRONG):
        return make_result(RewardStatus.SCALE_MISMATCH, chosen, extracted=shown, value=_absolute(answer, scale),
                           gold=gold_text, factor=f"the gold's scale ({question['scale'] or 'none'})")
    return make_result(RewardStatus.WRONG, chosen, extracted=shown, value=_absolute(answer, scale), gold=gold_text)


def gold_policy(gold: Mapping[str, Any] | str) -> str:
    """The policy a gold record names, numeric by default."""
    try:
        record = json.loads(gold) if isinstance(gold, str) else gold
    except ValueError:
        return "numeric"
    policy = record.get("policy") if isinstance(record, Mapping) else None
    return str(policy).strip().lower() if policy else "numeric"


def _numeric(answer: str, scale: str, question: dict[str, Any], shown: str, gold_text: str) -> RewardResult:
    value = _absolute(answer, scale)
    try:
        gold = float(question["answer"]) * scale_to_num(question["scale"])
    except (TypeError, ValueError, OverflowError):
        return make_result(RewardStatus.BAD_GOLD, Policy.NUMERIC, detail="the gold answer is not a number")
    if value is None:
        return make_result(RewardStatus.UNREADABLE, Policy.NUMERIC, extracted=shown)
    if abs(value - gold) <= max(REL_TOL * abs(gold), 1e-9):
        return make_result(RewardStatus.OK, Policy.NUMERIC, extracted=shown, value=value, gold=gold_text)
    for factor in (100.0, 1000.0, 1e6, 1e9):
        for candidate in (value * factor, value / factor):
            if abs(candidate - gold) <= max(REL_TOL * abs(gold), 1e-9):
                return make_result(RewardStatus.SCALE_MISMATCH, Policy.NUMERIC, extracted=shown, value=value,
                                   gold=gold_text, factor=factor)
    return make_result(RewardStatus.WRONG, Policy.NUMERIC, extracted=shown, value=value, gold=gold_text)


__all__ = ["REL_TOL", "final_answer", "score_tatqa", "gold_policy"]
