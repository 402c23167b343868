"""The gold records the reward suite is written from: the embedded FinQA, ConvFinQA and MathQA corpora.

Each :class:`Gold` is one item's gold record as a reward function receives it (``answer``,
``program``, ``table``, ``dialect``, ``options``, ``problem``; the ``policy`` is added per case)
plus what the suite needs to write completions for it: the numeric value (for MathQA, the correct
option's value), the numbers of its table, and whether its gold program reproduces the gold under
the official semantics (checked once, by the interpreter, only for items a program form uses).
"""

from __future__ import annotations

import math
import re
from ...core.registry import get_dataset
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ...core.limits import current
from ...corpus import convfinqa_records, finqa_records
from ...core.item import Item
from ...datasets.mathqa.corpus import mathqa_records
from ...datasets.mathqa.execute import execute_problem
from ...datasets.mathqa.options import read_options
from ...runner import execute

_TABLE_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")
_PLAIN_OPTION = re.compile(r"\s*(?:rs\s*\.|\$)?\s*\d[\d,]*(?:\.\d+)?\s*(?:%|[a-z][a-z .]*)?\s*$", re.IGNORECASE)
"""An option that is one positive number, maybe with a currency, ``%`` or a unit word (no ratio, fraction, pi)."""


@dataclass(frozen=True, eq=False)
class Gold:
    """One gold record and what the suite writes completions from (compared and hashed by identity)."""

    key: str
    record: dict[str, Any]
    value: float | bool
    table_numbers: tuple[float, ...] = ()
    letters: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def dialect(self) -> str:
        return str(self.record["dialect"])

    @property
    def is_yes_no(self) -> bool:
        return isinstance(self.value, bool)

    @property
    def is_option(self) -> bool:
        return get_dataset(self.dialect).option_letters


def _numbers(table: Sequence[Sequence[str]] | None) -> tuple[float, ...]:
    found: list[float] = []
    for row in table or ():
        for cell in row[1:]:
            for match in _TABLE_NUMBER.finditer(cell.replace(",", "")):
                number = float(match.group())
                if number not in found:
                    found.append(number)
                if len(found) >= current().max_table_numbers:
                    return tuple(found)
    return tuple(found)


def _value(answer: Any) -> float | bool | None:
    if isinstance(answer, bool):
        return answer
    if isinstance(answer, str):
        word = answer.strip().lower()
        return True if word == "yes" else False if word == "no" else None
    if isinstance(answer, (int, float)) and math.isfinite(float(answer)):
        return float(answer)
    return None


@lru_cache(maxsize=1)
def gold_pool() -> tuple[Gold, ...]:
    """Every usable gold of the three corpora, in a fixed order (FinQA, ConvFinQA turns, MathQA test)."""
    pool: list[Gold] = []
    for row in finqa_records():
        value = _value(row["exe_ans"])
        if value is None:
            continue
        record = {"answer": row["exe_ans"], "program": row["program"], "table": row["table"], "dialect": "finqa"}
        pool.append(Gold(f"finqa:{row['id']}", record, value, _numbers(row["table"])))
    for row in convfinqa_records():
        numbers = _numbers(row["table"])
        for turn, (program, answer) in enumerate(zip(row["turn_program"], row["exe_ans_list"])):
            value = _value(answer)
            if value is None:
                continue
            record = {"answer": answer, "program": program, "table": row["table"], "dialect": "convfinqa"}
            pool.append(Gold(f"convfinqa:{row['id']}:{turn}", record, value, numbers))
    for index, row in enumerate(mathqa_records("test")):
        options = read_options(row["options"]).options
        correct = options.get(str(row["correct"]).strip())
        if correct is None or correct.value is None or len(options) != 5:
            continue
        record = {"answer": correct.letter, "program": row["linear_formula"], "table": None, "dialect": "mathqa",
                  "options": row["options"], "problem": row["Problem"]}
        values = tuple(option.value for option in options.values() if option.value is not None)
        plain = _PLAIN_OPTION.match(correct.text) is not None
        pool.append(Gold(f"mathqa:test:{index}", record, correct.value, values, tuple(sorted(options)),
                         {"index": index, "row": row, "plain_option": plain}))
    return tuple(pool)


@lru_cache(maxsize=None)
def _program_reproduces(gold: Gold) -> bool:
    if gold.is_option:  # a problem answered by option (MathQA)
        result = execute_problem(gold.extra["row"], gold.extra["index"])
        return result.match is True and result.option == gold.record["answer"]
    program = gold.record["program"]
    if "(" not in program:  # a ConvFinQA turn that is a bare number: no program to write
        return False
    item = Item(gold.key, program, gold.record["table"], gold.record["answer"], True, dialect=get_dataset(gold.dialect))
    return execute(item).match is True


def program_reproduces(gold: Gold) -> bool:
    """True when the gold program, run with the official semantics, gives the gold answer."""
    return _program_reproduces(gold)

