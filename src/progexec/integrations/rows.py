"""Training rows for verl, TRL and OpenRLHF from the official files of every dataset with a rows builder.

One row per question (per turn for ConvFinQA, with the earlier turns and their gold answers as
history): a prompt rendered from a template (:data:`DEFAULT_TEMPLATE`, or one's own) holding the
passages (``pre_text``, ``post_text``), the table (one ``| cell | cell |`` line per row), the
question and an instruction, plus the gold record the reward adapters read back without
configuration. An input record that cannot become rows is an error naming it, never skipped. Each dataset's
part (its records' shape, its examples, its instruction, its verl ``data_source``) is its rows builder
(:class:`progexec.rows.RowsSpec`, :data:`progexec.datasets.ROWS`); this module names none.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from ..core.errors import InputError, ProgexecError
from ..core.registry import rows_builders
from ..corpus import CORPUS_NAMES
from ..readers import read_records
from ..reward import Policy
from ..rows import (DEFAULT_TEMPLATE, FIELDS, GOLD_FIELDS, TARGETS, VERL_EXTRA_KEYS, Example, InputError, RowsSpec,
                    BLANKS, answer_text, check_template, question_units, render_table, row_unit,
                    table_unit)


def prompt_text(example: Example, policy: Policy, template: str = DEFAULT_TEMPLATE) -> str:
    """The example's prompt by ``template`` (see the module docstring)."""
    spec = _builder(example.dialect)
    instruction = spec.instruction(policy)
    history = "".join(f"Earlier question: {asked}\nIts result: {answer}\n\n" for asked, answer in example.history)
    options = example.gold.get("options") or ""
    question = example.question or ""
    if spec.option_question:
        question = f"Problem: {question}\nOptions: {options}"
    elif question:
        question = f"Question: {question}"
    text = template.format(pre_text=example.pre_text, table=render_table(example.gold.get("table")),
                           post_text=example.post_text, history=history, question=question, options=options,
                           instruction=instruction)
    return BLANKS.sub("\n\n", text).strip()


def _builders() -> tuple[RowsSpec, ...]:
    found: tuple[RowsSpec, ...] = rows_builders()
    return found


def _builder(name: str) -> RowsSpec:
    """The rows builder of the dataset an Example belongs to."""
    return next(spec for spec in _builders() if spec.name == name)


def detect(value: Any) -> str | None:
    """Which dataset's official format a record is in (its rows builder's name), or None."""
    if not isinstance(value, Mapping):
        return None
    return next((spec.name for spec in _builders() if spec.detect(value)), None)


def file_examples(source: str) -> Iterator[Example]:
    """The examples of an official FinQA, ConvFinQA or MathQA file (JSON list or JSON Lines, maybe gzipped)."""
    stem = Path(source).name.split(".")[0] if source != "-" else "stdin"
    count = 0
    try:
        for record in read_records(source):
            if record.error is not None:
                raise InputError(f"{source}: {record.where}: {record.error}")
            kind = detect(record.value)
            if kind is None:
                keys = sorted(record.value)[:12] if isinstance(record.value, Mapping) else type(record.value).__name__
                raise InputError(f"{source}: {record.where} is not an official FinQA (qa.question), ConvFinQA "
                                f"(annotation.dialogue_break) MathQA (Problem, options, correct) or TAT-QA (questions) record; "
                                f"it has {keys}")
            yield from _builder(kind).read(record.value, f"{source}: {record.where}", f"{stem}-{record.number - 1}")
            count += 1
    except InputError as error:
        raise InputError(str(error)) from None
    if count == 0:
        raise InputError(f"{source}: no records")


def corpus_examples(name: str) -> Iterator[Example]:
    """The examples of an embedded corpus (the FinQA family's records hold no passages and no question text)."""
    corpus = name.partition(":")[0]
    spec = next((spec for spec in _builders() if spec.name == corpus and spec.corpus is not None), None)
    if spec is None or spec.corpus is None:
        raise InputError(f"{name}: no rows builder reads this embedded corpus")
    yield from spec.corpus(name)


def examples(source: str) -> Iterator[Example]:
    """The examples of ``source``: an embedded corpus name, a path, or ``-``."""
    return corpus_examples(source) if source in CORPUS_NAMES else file_examples(source)


def make_row(example: Example, target: str, policy: Policy, template: str = DEFAULT_TEMPLATE,
             table_units: bool = False) -> dict[str, Any]:
    """One row for ``target`` (see docs/reward-integrations.md for each shape)."""
    gold = {**example.gold, "policy": policy.value}
    units: dict[str, Any] = {}
    if table_units:
        asked: list[str] = []
        if not _builder(example.dialect).option_question:
            unit, asked = row_unit(example)
            if unit is not None:
                gold["unit"] = unit
        units["question_units"] = asked  # two or more: the question is ambiguous, and the gold has no unit
    prompt = prompt_text(example, policy, template)
    if target == "verl":
        extra = {"id": example.id, "split": example.split, "index": example.index, "question": example.question,
                 **gold}
        spec = _builder(example.dialect)
        return {"data_source": spec.data_source, "prompt": [{"role": "user", "content": prompt}],
                "ability": spec.ability,
                "reward_model": {"style": "rule", "ground_truth": answer_text(gold.get("answer"))},
                "extra_info": {**{key: extra.get(key) for key in VERL_EXTRA_KEYS}, **units}}
    if target == "trl":  # the answer as text, so a column mixing numbers and yes/no has one type
        columns = {key: gold.get(key) for key in GOLD_FIELDS}
        columns["answer"] = answer_text(columns["answer"])
        return {"id": example.id, "prompt": [{"role": "user", "content": prompt}], **columns, **units}
    if target == "openrlhf":
        return {"id": example.id, "input": prompt, "label": json.dumps(gold, ensure_ascii=False), **units}
    raise InputError(f"unknown target {target!r}; one of {', '.join(TARGETS)}")


def build_rows(source: str, target: str, policy: Policy = Policy.NUMERIC, template: str = DEFAULT_TEMPLATE,
               table_units: bool = False) -> Iterator[dict[str, Any]]:
    """Every row of ``source`` for ``target``, in input order (raises InputError, see the module docstring)."""
    if target not in TARGETS:
        raise InputError(f"unknown target {target!r}; one of {', '.join(TARGETS)}")
    check_template(template)
    for example in examples(source):
        yield make_row(example, target, policy, template, table_units)


def write_rows(rows: Iterable[dict[str, Any]], out: Path) -> int:
    """Write ``rows`` to ``out``: Parquet for ``.parquet``, JSON Lines for ``.jsonl``; the row count."""
    from .verl_rows import write_jsonl, write_parquet  # one writer for both row commands

    if out.suffix not in (".parquet", ".jsonl"):
        raise InputError(f"{out}: the output's name must end in .parquet or .jsonl")
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        return write_parquet(rows, out) if out.suffix == ".parquet" else write_jsonl(rows, out)
    except ProgexecError as error:
        raise InputError(str(error)) from None


__all__ = ["DEFAULT_TEMPLATE", "FIELDS", "TARGETS", "Example", "InputError", "build_rows", "check_template",
           "examples", "make_row", "prompt_text", "question_units", "render_table", "row_unit", "table_unit",
           "write_rows"]
