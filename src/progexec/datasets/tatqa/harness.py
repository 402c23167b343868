"""TAT-QA answer generation for the harness integrations: documents (prompt, target, gold) and the judge.

A document shows the question's table, its paragraphs and the question, and asks for a last line
``Answer: <answer> <scale>`` (several spans separated by `` | ``). The judge reads that answer and
its scale (:func:`progexec.datasets.tatqa.reward.final_answer`) and scores it with the official metric: the
per-document ``tatqa_em`` and ``tatqa_f1`` average to ``tatqa_eval.py``'s exact match and F1 when every
question is answered.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .data import Question, read_questions
from .metric import NUMERIC_TYPES, score_question
from .reward import final_answer
from ...core.errors import OfficialAbort

EXACT_MATCH = "tatqa_em"
F1 = "tatqa_f1"
INSTRUCTION = ("Answer the question from the table and the text. End with one line 'Answer: <answer> <scale>', "
               "where the scale is thousand, million, billion, percent or nothing; separate several answers "
               "with ' | '.")


def _prompt(question: Question) -> str:
    table = "\n".join(" | ".join(row) for row in question.table)
    text = "\n".join(question.paragraphs)
    return f"Table:\n{table}\n\nText:\n{text}\n\nQ: {question.raw.get('question', '')}\n{INSTRUCTION}\n"


def _target(question: Question) -> str:
    answer = question.answer
    shown = " | ".join(str(span) for span in answer) if isinstance(answer, list) else str(answer)
    return f"Answer: {shown} {question.scale or ''}".rstrip()


def tatqa_docs(source: str) -> list[dict[str, str]]:
    """One document per question of a TAT-QA dataset file or ``tatqa:dev`` / ``tatqa:test``, in file order
    (records that cannot be read are left out)."""
    docs = []
    for question in read_questions(source):
        if question.error is not None:
            continue
        gold = {key: question.raw.get(key) for key in ("uid", "answer", "scale", "answer_type", "answer_from")}
        gold["dialect"] = "tatqa"
        docs.append({"id": question.uid, "prompt": _prompt(question), "target": _target(question),
                     "gold": json.dumps(gold, ensure_ascii=False)})
    return docs


def judge_tatqa(doc: Mapping[str, Any], completion: str) -> tuple[dict[str, float], str, str]:
    """(metrics, status, reason) of one completion: the official EM and F1 of its stated answer and scale."""
    gold = json.loads(doc["gold"])
    stated = final_answer(completion, gold.get("answer_type") in NUMERIC_TYPES)
    if stated is None:
        return {EXACT_MATCH: 0.0, F1: 0.0}, "missing", "no answer found"
    answer, scale = stated
    prediction: Any = [part.strip() for part in answer.split("|")] if "|" in answer else answer
    try:
        scored = score_question(gold, prediction, scale)
    except OfficialAbort as error:
        return {EXACT_MATCH: 0.0, F1: 0.0}, "official_error", str(error)
    reason = f"{scored.reason.text}: {scored.pred_string!r} against {scored.gold_string!r}"
    return {EXACT_MATCH: scored.em, F1: scored.f1}, scored.reason.label, reason


__all__ = ["EXACT_MATCH", "F1", "INSTRUCTION", "tatqa_docs", "judge_tatqa"]
