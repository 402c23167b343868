"""FinanceReasoning records as training examples for ``progexec rows`` (verl, TRL, OpenRLHF): its rows builder
(:class:`progexec.rows.RowsSpec`).

One example per question: the ``context`` (Markdown tables and text; CodeTAT-QA's table as its JSON)
as the passage, the question, and the gold record ``{"dialect": "financereasoning", "answer":
ground_truth}`` that :mod:`.reward` scores. The instruction asks for a Python ``solution()``, the
program-of-thought form the official evaluation runs.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ...reward import Policy
from ...rows import Example, RowsSpec
from ...core.errors import InputError

DIALECT = "financereasoning"
INSTRUCTION = ("Answer with a Python program in one ```python block that defines solution() and returns the "
               "final answer as a number (or True/False), rounded as the question asks.")


def is_record(value: Any) -> bool:
    """Whether a record is a FinanceReasoning question (``python_solution`` beside ``source`` and ``context``)."""
    return isinstance(value, Mapping) and all(key in value for key in ("question_id", "python_solution",
                                                                      "ground_truth", "source", "context"))


def examples(value: Mapping[str, Any], where: str, fallback: str) -> Iterator[Example]:
    """The one example of a record; a gold that is not an int, float or bool is an error naming the record."""
    answer = value.get("ground_truth")
    if not isinstance(answer, (int, float, bool)):
        raise InputError(f"{where} ({fallback}): no usable gold (ground_truth {answer!r:.60})")
    key = value.get("question_id")
    question = value.get("question")
    context = value.get("context")
    yield Example(key if isinstance(key, str) else fallback, DIALECT, question if isinstance(question, str) else None,
                  {"answer": answer, "dialect": DIALECT}, pre_text=context if isinstance(context, str) else "")


FINANCEREASONING_ROWS = RowsSpec(DIALECT, is_record, examples, {Policy.NUMERIC: INSTRUCTION},
                                 "progexec/financereasoning", "finance")

__all__ = ["DIALECT", "FINANCEREASONING_ROWS", "INSTRUCTION", "examples", "is_record"]
