"""What a training row is made of, whatever the dataset: :class:`Example`, the gold record, the prompt's parts.

A dataset's rows builder (its :class:`RowsSpec`, registered in :data:`progexec.datasets.ROWS`) turns its
official records and embedded corpora into Examples; :mod:`progexec.integrations.rows` renders them as rows
for verl, TRL and OpenRLHF. This module names no dataset.

May import: ``core``, ``reward`` (the gold record and its policies), and the layers below them.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .core.errors import InputError
from .reward import Policy
from .reward.gold import GoldRecord, GoldRecordError

TARGETS = ("verl", "trl", "openrlhf")
"""The frameworks rows are written for."""

DEFAULT_TEMPLATE = "{pre_text}\n\n{table}\n\n{post_text}\n\n{history}{question}\n\n{instruction}"
"""The prompt, before blank runs are collapsed to one empty line and the ends stripped."""

FIELDS = ("pre_text", "table", "post_text", "history", "question", "options", "instruction")
"""The names a template may use (``str.format`` fields)."""

GOLD_FIELDS = ("answer", "program", "table", "dialect", "options", "problem", "policy", "unit", "scale", "answer_type")
VERL_EXTRA_KEYS = ("id", "split", "index", "question", "table", "program", "dialect", "options", "problem",
                   "policy", "unit", "scale", "answer_type")
"""The keys of every verl row's ``extra_info``, in order (None where a dataset has no such field)."""

_UNIT = re.compile(r"\bin\s+(thousands|millions|billions)\b", re.IGNORECASE)
_ASKED_SCALE = re.compile(r"\bin\s+(?:(?:us\s*)?\$\s*|usd\s+|dollars\s+)?(thousand|million|billion)s?\b", re.IGNORECASE)
"""A unit a question asks its answer in: ``in billions``, ``in $ millions``, ``in thousand``."""
_ASKED_PERCENT = re.compile(r"\bin\s*%|\(\s*%\s*\)|(?<!\d)(?<!\d\s)\bpercent(?:age)?s?\b", re.IGNORECASE)
"""A question that asks for a percentage: ``in %``, ``(%)``, ``percent``, ``what percentage`` (not a stated
one: ``the 19 percent interest``)."""
BLANKS = re.compile(r"\n[ \t]*(?:\n[ \t]*)+")


RowsError = InputError
"""An input, template or output that cannot give rows (an :class:`InputError`; the message names it)."""


@dataclass(frozen=True, slots=True)
class Example:
    """One question with its context and gold, whatever the dataset."""

    id: str
    dialect: str
    question: str | None
    gold: dict[str, Any]
    split: str | None = None
    index: int | None = None
    pre_text: str = ""
    post_text: str = ""
    history: tuple[tuple[str, str], ...] = ()


def render_table(table: Sequence[Sequence[str]] | None) -> str:
    """The table as the prompt shows it: ``Table:`` then one ``| cell | cell |`` line per row."""
    if not table:
        return ""
    return "Table:\n" + "\n".join("| " + " | ".join(str(cell) for cell in row) + " |" for row in table)


def check_template(template: str) -> str:
    """``template``, or InputError naming a field it uses that is not one of :data:`FIELDS`."""
    try:
        names = {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
    except ValueError as error:
        raise InputError(f"the template is not a format string: {error}") from None
    unknown = sorted(names - set(FIELDS))
    if unknown:
        raise InputError(f"the template uses unknown field(s) {unknown}; known: {', '.join(FIELDS)}")
    return template


def table_unit(table: Sequence[Sequence[str]] | None, *texts: str) -> str | None:
    """The unit a table states (``in millions`` in a cell or a passage), when exactly one is stated."""
    found = {match.group(1).lower().removesuffix("s")
             for text in [cell for row in table or [] for cell in row] + list(texts)
             for match in _UNIT.finditer(str(text))}
    return found.pop() if len(found) == 1 else None


def question_units(question: str | None) -> list[str]:
    """The units ``question`` asks its answer in (``thousand``, ``million``, ``billion``, ``percent``), sorted."""
    if not question:
        return []
    found = {match.group(1).lower() for match in _ASKED_SCALE.finditer(question)}
    if _ASKED_PERCENT.search(question):
        found.add("percent")
    return sorted(found)


def row_unit(example: Example) -> tuple[str | None, list[str]]:
    """``--table-units``: the gold's ``unit`` and the units the question names. The unit the question asks
    for wins over the table's (a question "in billions" over a table "in millions"); a question asking
    for a percentage has no scale unit; a question naming two units gets none (the row's
    ``question_units`` lists them). Without a unit in the question, the table's or a passage's."""
    asked = question_units(example.question)
    if len(asked) > 1:
        return None, asked
    if asked:
        return (None if asked[0] == "percent" else asked[0]), asked
    return table_unit(example.gold.get("table"), example.pre_text, example.post_text), asked


def text_of(value: Any) -> str:
    if isinstance(value, list):
        return "\n".join(str(part) for part in value if str(part).strip())
    return value if isinstance(value, str) else ""


def make_gold(where: str, **fields: Any) -> dict[str, Any]:
    gold = {key: value for key, value in fields.items() if value is not None}
    try:
        GoldRecord.from_mapping(gold)
    except GoldRecordError as error:
        raise InputError(f"{where}: no usable gold ({error})") from None
    return gold


def answer_text(answer: Any) -> str | None:
    """The gold answer as text (verl's ``ground_truth``, TRL's answer column): a list of spans (TAT-QA) as its
    JSON text, which the TAT-QA reward reads back as the list."""
    if answer is None:
        return None
    return json.dumps(answer, ensure_ascii=False) if isinstance(answer, list) else str(answer)


Questions = Mapping[str, Sequence[str]]
"""Item id -> its questions (one for FinQA, one per turn for ConvFinQA), for the embedded corpora's verl rows."""


@dataclass(frozen=True)
class RowsSpec:
    """One dataset's rows builder: which official records are its own, how they and its embedded corpora
    become Examples, its instruction per policy, and its verl ``data_source`` and ``ability``.

    ``instructions`` maps a policy to the instruction; a policy without one takes the numeric one.
    ``option_question``: the question is shown as a problem with its options (MathQA). ``verl_splits`` and
    ``verl_rows`` build the embedded corpora's verl rows of ``python -m progexec.integrations.verl_rows``.
    """

    name: str
    detect: Callable[[Mapping[str, Any]], bool]
    read: Callable[[Mapping[str, Any], str, str], Iterator[Example]]
    instructions: Mapping[Policy, str]
    data_source: str
    ability: str
    corpus: Callable[[str], Iterator[Example]] | None = None
    option_question: bool = False
    verl_splits: tuple[str, ...] = ()
    verl_rows: Callable[[RowsSpec, str, Policy, Questions], Iterator[dict[str, Any]]] | None = field(
        default=None, repr=False)

    def instruction(self, policy: Policy) -> str:
        return self.instructions.get(policy, self.instructions[Policy.NUMERIC])


VERL_CORPUS_KEYS = ("id", "split", "index", "question", "table", "program", "dialect", "options", "problem", "policy")
"""The keys of every embedded-corpus verl row's ``extra_info``, in order (None where a dataset has no such field)."""


def verl_table_text(table: Sequence[Sequence[str]] | None) -> str:
    """The table of an embedded-corpus verl row's prompt (one ``| cell |`` line per row, a newline after)."""
    if not table:
        return ""
    return "Table:\n" + "\n".join("| " + " | ".join(row) + " |" for row in table) + "\n"


def verl_row(spec: RowsSpec, policy: Policy, extra: dict[str, Any], ground_truth: str, body: str) -> dict[str, Any]:
    """One embedded-corpus verl row: the body, then the dataset's instruction for ``policy``."""
    content = f"{body}\n{spec.instruction(policy)}"
    return {
        "data_source": spec.data_source,
        "prompt": [{"role": "user", "content": content}],
        "ability": spec.ability,
        "reward_model": {"style": "rule", "ground_truth": ground_truth},
        "extra_info": {key: extra.get(key) for key in VERL_CORPUS_KEYS},
    }


__all__ = ["DEFAULT_TEMPLATE", "FIELDS", "TARGETS", "GOLD_FIELDS", "VERL_EXTRA_KEYS", "Example", "Questions",
           "InputError", "RowsSpec", "answer_text", "check_template", "make_gold", "question_units", "render_table",
           "row_unit", "table_unit",
           "text_of", "BLANKS", "VERL_CORPUS_KEYS", "verl_row", "verl_table_text"]
