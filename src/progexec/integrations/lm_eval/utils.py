"""The functions the YAML task configs name (lm-eval imports this file by path, as ``utils``).

Each is a one-line binding of a task name to :mod:`progexec.integrations.lm_eval.adapter`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from progexec.integrations.lm_eval.adapter import dataset, process_results


def finqa_program_dataset(**metadata: Any) -> Any:
    return dataset("progexec_finqa_program", metadata)


def finqa_program_results(doc: dict[str, Any], results: Sequence[str]) -> dict[str, float]:
    return process_results("progexec_finqa_program", doc, results)


def convfinqa_program_dataset(**metadata: Any) -> Any:
    return dataset("progexec_convfinqa_program", metadata)


def convfinqa_program_results(doc: dict[str, Any], results: Sequence[str]) -> dict[str, float]:
    return process_results("progexec_convfinqa_program", doc, results)


def finqa_answer_dataset(**metadata: Any) -> Any:
    return dataset("progexec_finqa_answer", metadata)


def finqa_answer_results(doc: dict[str, Any], results: Sequence[str]) -> dict[str, float]:
    return process_results("progexec_finqa_answer", doc, results)


def convfinqa_answer_dataset(**metadata: Any) -> Any:
    return dataset("progexec_convfinqa_answer", metadata)


def convfinqa_answer_results(doc: dict[str, Any], results: Sequence[str]) -> dict[str, float]:
    return process_results("progexec_convfinqa_answer", doc, results)


def mathqa_python_dataset(**metadata: Any) -> Any:
    return dataset("progexec_mathqa_python", metadata)


def mathqa_python_results(doc: dict[str, Any], results: Sequence[str]) -> dict[str, float]:
    return process_results("progexec_mathqa_python", doc, results)


def tatqa_answer_dataset(**metadata: Any) -> Any:
    return dataset("progexec_tatqa_answer", metadata)


def tatqa_answer_results(doc: dict[str, Any], results: Sequence[str]) -> dict[str, float]:
    return process_results("progexec_tatqa_answer", doc, results)
