"""MathQA's rows builder (:class:`progexec.rows.RowsSpec`): problems to training Examples shown with their
options, its instructions, and the embedded corpora's verl rows."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ...reward import Policy
from ...rows import Example, Questions, RowsSpec, make_gold, verl_row
from .corpus import mathqa_records

def _mathqa(value: Mapping[str, Any], where: str, fallback: str) -> Iterator[Example]:
    gold = make_gold(f"{where} ({fallback})", answer=value.get("correct"), program=value.get("linear_formula"),
                 dialect="mathqa", options=value.get("options"), problem=value.get("Problem"))
    problem = value.get("Problem")
    yield Example(fallback, "mathqa", problem if isinstance(problem, str) else None, gold)


def _corpus(name: str) -> Iterator[Example]:
    """The embedded problems (no passages)."""
    corpus, _, split = name.partition(":")
    for index, record in enumerate(mathqa_records(split)):
        for example in _mathqa(record, name, f"mathqa-{split}-{index}"):
            yield Example(example.id, example.dialect, example.question, example.gold, split, index)


def _verl_mathqa(spec: RowsSpec, split: str, policy: Policy, questions: Questions) -> Iterator[dict[str, Any]]:
    for index, record in enumerate(mathqa_records(split)):
        body = f"Problem: {record['Problem']}\nOptions: {record['options']}\n"
        extra = {"id": f"mathqa-{split}-{index}", "split": split, "index": index, "question": record["Problem"],
                 "program": record["linear_formula"], "dialect": "mathqa", "options": record["options"],
                 "problem": record["Problem"], "policy": policy.value}
        yield verl_row(spec, policy, extra, str(record["correct"]), body)


INSTRUCTIONS = {
    Policy.OFFICIAL: "Answer with one program in the MathQA DSL (for example "
                                 "add(n0,n1)|divide(#0,const_2)|) on a line starting 'Program:'.",
    Policy.NUMERIC: "Give the letter of the correct option on a line starting 'Answer:'.",
}

MATHQA_ROWS = RowsSpec("mathqa", lambda value: "Problem" in value and "options" in value and "correct" in value,
                       _mathqa, INSTRUCTIONS, "progexec/mathqa", "math", corpus=_corpus, option_question=True,
                       verl_splits=("test", "dev", "challenge_test"), verl_rows=_verl_mathqa)

__all__ = ["MATHQA_ROWS"]
