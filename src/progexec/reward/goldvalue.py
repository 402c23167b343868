"""The value a gold record stands for: its answer read, or its program run under the official semantics."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core.registry import get_dataset as get_dialect
from .gold import GoldRecord
from .numbers import read_gold
from .programs import run_official

GoldValue = float | bool | str
"""A number, a yes/no (bool), or a MathQA option letter."""


@dataclass(frozen=True, slots=True)
class ResolvedGold:
    """The gold value, or why there is none (``error``); MathQA options parsed once."""

    value: GoldValue | None
    options: Mapping[str, Any]
    error: str = ""


def resolve(gold: GoldRecord) -> ResolvedGold:
    """Read the gold's answer; without one, run its program (a gold without a value is bad_gold)."""
    dataset = get_dialect(gold.dialect)
    options = dataset.read_options(gold.options) if gold.options and dataset.read_options is not None else {}
    letters = dataset.option_letters and bool(options)
    if gold.answer is not None:
        value = read_gold(gold.answer, letters)
        if value is None:
            return ResolvedGold(None, options, f"the answer {gold.answer!r} is not one number, yes/no or option letter")
        if isinstance(value, str) and value not in options:
            return ResolvedGold(None, options, f"the answer letter {value!r} is not among the options")
        return ResolvedGold(value, options)
    assert gold.program is not None  # GoldRecord guarantees one of the two
    run = run_official(gold.program, gold.table, gold.dialect, gold.problem)
    if run.value is None:
        return ResolvedGold(None, options, f"the gold program has no value ({run.detail})")
    if isinstance(run.value, str):
        return ResolvedGold(run.value == "yes", options)
    return ResolvedGold(run.value, options)


def official_form(value: GoldValue) -> float | str:
    """The gold as the official evaluator compares it: a float, or ``"yes"``/``"no"``."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value


def describe(value: GoldValue | None) -> str:
    """A gold value for a human reason."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return f"option {value}"
    return repr(value)
