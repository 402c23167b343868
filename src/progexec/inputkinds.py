"""What an input is, what a command wants, and the rule that refuses the wrong one.

Every command states what it reads as a :class:`Wanted` (the shapes it accepts and which records
are of its kind). :func:`judged` looks at the start of an input before anything is written and
raises :class:`~progexec.textsource.InputError` (exit 2) naming the file, what it saw and what
was wanted, when

* the input's shape is not one the command reads (a JSON list where JSON Lines are wanted), or
* more than half of its first :data:`JUDGED_RECORDS` records cannot be used (CSV, text that is
  not JSON, records of another kind: a gold file where predictions belong, FinQA items given to
  ``reward``).

Past that window the input is streamed: a bad record there is one ``bad_input`` item.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import chain, islice
from typing import Any

from .core.registry import file_formats
from .jsonrecords import Record, looks_like_document
from .core.errors import InputError
from .core.limits import DEFAULT_LIMITS, current

JUDGED_RECORDS = DEFAULT_LIMITS.judged_records
"""Records, from the start of an input, that the refusal rule judges (the rest is streamed)."""

PROGRAM_KEYS = ("program", "predicted", "pred_prog", "predicted_program")
ANSWER_KEYS = ("answer", "completion", "predicted_answer", "output")

PROGRAMS = "programs"
"""The format of plain program records (``{"program": ..., "table": ...}``); every other format is a dataset's."""


def dataset_format(value: Any) -> str | None:
    """The format a record belongs to: the name of the dataset whose file shape it has
    (:func:`progexec.core.registry.file_formats`), :data:`PROGRAMS`, or None."""
    if not isinstance(value, dict):
        return None
    for name, shape, _ in file_formats():
        if shape(value):
            return name
    if "program" in value or "predicted" in value:
        return PROGRAMS
    return None


def record_kind(value: Any) -> str:
    """What a record is, in words (plural), for messages."""
    if not isinstance(value, dict):
        names = {bool: "booleans", int: "numbers", float: "numbers", str: "strings", list: "arrays",
                 type(None): "nulls"}
        return f"JSON {names.get(type(value), type(value).__name__)}, not objects"
    kind = dataset_format(value)
    words = next((words for name, _, words in file_formats() if name == kind), None)
    if words is not None:
        return words
    if "completion" in value and "gold" in value:
        return "reward inputs {id, completion, gold}"
    if "status" in value and ("score" in value or "code" in value):
        return "progexec output records (with status)"
    if "code" in value:
        return ("MathQA-Python items {id, text, code, answer}" if "answer" in value and "text" in value
                else "MathQA-Python predictions {id, code}")
    if kind == PROGRAMS or any(key in value for key in PROGRAM_KEYS):
        return "program records or predictions {id, program}"
    if any(key in value for key in ANSWER_KEYS):
        return "answer records {id, answer}"
    keys = ", ".join(sorted(map(str, value))[:6]) or "no keys"
    return f"JSON objects with keys {keys}"


@dataclass(frozen=True, slots=True)
class Wanted:
    """What one command input reads: its description, the shapes it accepts, and its records' test."""

    what: str
    shapes: tuple[str, ...]
    usable: Callable[[Any], bool]
    misplaced: tuple[tuple[str, str], ...] = ()
    """(words of a kind seen, a hint): e.g. dataset items where predictions belong are a swap."""


def _has_id(value: dict[str, Any]) -> bool:
    return "id" in value or "task_id" in value or ("record_id" in value and "turn_idx" in value)


def _prediction(value: Any) -> bool:
    if not isinstance(value, dict) or dataset_format(value) not in (None, PROGRAMS):
        return False
    if _has_id(value) and any(key in value for key in (*PROGRAM_KEYS, *ANSWER_KEYS)):
        return True
    return bool(value) and all(isinstance(entry, list) for entry in value.values())  # ConvFinQA {key: [n-best]}


DATASET_OR_PROGRAMS = Wanted(
    "a FinQA, ConvFinQA or MathQA dataset file (a JSON list) or JSON Lines of program records {id, program}",
    ("list", "lines"), lambda value: dataset_format(value) is not None)
GOLD = Wanted("a FinQA or ConvFinQA gold file (a JSON list of dataset items)", ("list", "lines"),
              lambda value: dataset_format(value) is not None)
_SWAPPED = (("dataset items", "the gold where predictions belong: are --gold and --pred swapped?"),
            ("MathQA-Python items", "the gold where predictions belong: are --gold and --pred swapped?"))
PREDICTIONS = Wanted("predictions {id, predicted | answer} (a JSON list, JSON Lines, or ConvFinQA's "
                     "{key: [records]})", ("list", "lines", "document"), _prediction, _SWAPPED)
REWARD_INPUTS = Wanted("reward inputs {id, completion, gold} (JSON Lines or a JSON list)", ("lines", "list"),
                       lambda value: isinstance(value, dict) and "completion" in value and "gold" in value)
MATHQA_PYTHON_GOLD = Wanted(
    "MathQA-Python gold items {id, answer} (a JSON list or JSON Lines)", ("list", "lines"),
    lambda value: isinstance(value, dict) and _has_id(value) and "answer" in value)
PYTHON_SOLUTION_GOLD = Wanted(
    "a Python-solution gold file: FinanceMath / DocMath-Eval records {question_id, python_solution} or "
    "MathQA-Python items {id, answer} (a JSON list or JSON Lines)", ("list", "lines"),
    lambda value: isinstance(value, dict) and (("question_id" in value and ("python_solution" in value
                                                                            or "ground_truth" in value))
                                               or (_has_id(value) and "answer" in value)))
MATHQA_PYTHON_PREDICTIONS = Wanted(
    "MathQA-Python predictions {id, code} (a JSON list or JSON Lines)", ("list", "lines"),
    lambda value: isinstance(value, dict) and _has_id(value) and "code" in value
    and not ("answer" in value and "text" in value), _SWAPPED)


_SHAPES = {"list": "a JSON array", "lines": "JSON Lines", "document": "one JSON object spread over lines"}


def describe(shape: str, records: list[Record], head: str = "") -> str:
    """What an input looks like, from its shape, its first records and its first characters."""
    first_line = head.lstrip("\ufeff \t\r\n").split("\n", 1)[0][:60]
    if "\x00" in head[:4096]:
        return "binary data, not text"
    values = [record.value for record in records if record.error is None]
    if shape == "lines" and len(values) * 2 <= len(records):
        if looks_like_document(head):
            return "one JSON document spread over lines, not JSON Lines"
        if first_line.count(",") >= 1 and not first_line.startswith(("{", "[", '"')):
            return f"CSV text (first line {first_line!r}), not JSON"
        if "\t" in first_line and not first_line.startswith(("{", "[")):
            return f"tab-separated text (first line {first_line!r}), not JSON"
        return f"text that is not JSON Lines (first line {first_line!r})"
    if not values:
        return f"{_SHAPES.get(shape, shape)} of unreadable records"
    kinds: dict[str, int] = {}
    for value in values:
        kinds[record_kind(value)] = kinds.get(record_kind(value), 0) + 1
    common = max(kinds, key=lambda kind: kinds[kind])
    if shape == "document":
        return f"one JSON document of {common}"
    return f"{_SHAPES.get(shape, shape)} of {common}"


def judge(name: str, shape: str, window: list[Record], wanted: Wanted, head: str = "") -> None:
    """Raise :class:`InputError` when the input is of a shape or kind ``wanted`` does not read (see the module)."""
    seen = describe(shape, window, head)
    hint = next((f"; {text}" for words, text in wanted.misplaced if words in seen), "")
    if shape not in wanted.shapes:
        raise InputError(f"{name}: this is {seen}; expected {wanted.what}{hint}", source=name, seen=seen,
                         expected=wanted.what)
    if not window:
        return
    bad = [record for record in window if record.error is not None or not wanted.usable(record.value)]
    if len(bad) * 2 > len(window):
        example = next((record.error for record in bad if record.error), None)
        detail = f", e.g. {example}" if example and "not JSON" not in seen else ""
        raise InputError(f"{name}: this is {seen}; expected {wanted.what}{hint} ({len(bad)} of the first {len(window)} "
                         f"records cannot be used{detail}; an input where most records cannot be used is refused, "
                         "not read as a stream of bad_input)", source=name, seen=seen, expected=wanted.what)


def judged(name: str, shape: str, records: Iterable[Record], wanted: Wanted | None,
           head: str = "") -> Iterator[Record]:
    """``records`` unchanged, once the first :data:`JUDGED_RECORDS` have passed :func:`judge` (None: no judging)."""
    iterator = iter(records)
    if wanted is None:
        return iterator
    window = list(islice(iterator, current().judged_records))
    judge(name, shape, window, wanted, head)
    return chain(window, iterator)


__all__ = ["JUDGED_RECORDS", "Wanted", "dataset_format", "record_kind", "describe", "judge", "judged",
           "DATASET_OR_PROGRAMS", "GOLD", "PYTHON_SOLUTION_GOLD", "PREDICTIONS", "REWARD_INPUTS", "MATHQA_PYTHON_GOLD",
           "MATHQA_PYTHON_PREDICTIONS"]
