"""The Python-solution datasets, one registry entry each: record shape, code extraction, answer rule.

A dataset is a :class:`Dataset`: which field names a question, where the gold code and the
model's text live, how the code is extracted from that text, how the solution's value is
read (``solution()`` or a variable ``answer``), which imports it may make, and which answer
rule scores it. FinanceMath and DocMath-Eval share the official program-of-thought rule
(:mod:`progexec.datasets.pysolution.official`) and extraction (:mod:`progexec.datasets.pysolution.extract`);
MathQA-Python is scored by ``progexec.datasets.mathqa.score_python`` (``math.isclose``), its own
entry here says so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .extract import extract_code


@dataclass(frozen=True, slots=True)
class Dataset:
    """One benchmark of Python solutions."""

    name: str
    title: str
    id_fields: tuple[str, ...]
    gold_code_field: str | None
    gold_value_field: str | None
    prediction_field: str
    extract: Callable[[Any], str | None]
    entry: str
    rule: str
    topic_field: str | None = None
    allowed_imports: tuple[str, ...] | None = None
    citation: str = ""

    def record_id(self, record: Any) -> str | None:
        """The record's question id as text (an int or a string), or None."""
        if not isinstance(record, dict):
            return None
        for name in self.id_fields:
            raw = record.get(name)
            if isinstance(raw, (int, str)) and not isinstance(raw, bool):
                return str(raw)
        return None


def pot_output_code(output: Any) -> str | None:
    """The code of an official prediction's ``output``: the first element of a list, or a string, extracted
    as FinanceMath's ``process_single_pot_output`` does; None when ``output`` is neither (the official
    loop would stop with an error there)."""
    if isinstance(output, list):
        if not output:
            return None
        first = output[0]
        return extract_code(first) if isinstance(first, str) or first is None else None
    if isinstance(output, str):
        return extract_code(output)
    return None


def plain_code(value: Any) -> str | None:
    return value if isinstance(value, str) else None


FINANCEMATH = Dataset(
    name="financemath", title="FinanceMath", id_fields=("question_id",), gold_code_field="python_solution",
    gold_value_field="ground_truth", prediction_field="output", extract=pot_output_code, entry="solution",
    rule="official", topic_field="topic",
    citation="Zhao et al., FinanceMath: Knowledge-Intensive Math Reasoning in Finance Domains, ACL 2024")
DOCMATH = Dataset(
    name="docmath", title="DocMath-Eval", id_fields=("question_id",), gold_code_field="python_solution",
    gold_value_field="ground_truth", prediction_field="output", extract=pot_output_code, entry="solution",
    rule="official",
    citation="Zhao et al., DocMath-Eval: Evaluating Math Reasoning Capabilities of LLMs in Understanding "
             "Long and Specialized Documents, ACL 2024")
MATHQA_PYTHON = Dataset(
    name="mathqa-python", title="MathQA-Python", id_fields=("id", "task_id"), gold_code_field=None,
    gold_value_field="answer", prediction_field="code", extract=plain_code, entry="answer", rule="isclose",
    allowed_imports=("math", "scipy"),
    citation="Austin et al., Program Synthesis with Large Language Models, 2021")

DATASETS: dict[str, Dataset] = {dataset.name: dataset for dataset in (FINANCEMATH, DOCMATH, MATHQA_PYTHON)}


def detect(record: Any) -> Dataset | None:
    """The dataset a gold record belongs to, from its fields: a ``python_solution`` with a ``topic`` is
    FinanceMath, without one DocMath-Eval (``paragraphs``) or FinanceMath; ``{id, answer}`` is MathQA-Python."""
    if not isinstance(record, dict):
        return None
    if "python_solution" in record and "question_id" in record:
        return DOCMATH if "paragraphs" in record and "topic" not in record else FINANCEMATH
    if "answer" in record and ("id" in record or "task_id" in record):
        return MATHQA_PYTHON
    return None
