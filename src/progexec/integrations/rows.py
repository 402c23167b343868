"""Training rows for verl, TRL and OpenRLHF from the official FinQA, ConvFinQA, MathQA and TAT-QA files.

One row per question (per turn for ConvFinQA, with the earlier turns and their gold answers as
history): a prompt rendered from a template (:data:`DEFAULT_TEMPLATE`, or one's own) holding the
passages (``pre_text``, ``post_text``), the table (one ``| cell | cell |`` line per row), the
question and an instruction, plus the gold record the reward adapters read back without
configuration. An input record that cannot become rows is an error naming it, never skipped.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..datasets.financereasoning import rows as financereasoning
from ..dialects import BUILTIN as BUILTIN_DIALECTS, get_dialect
from ..corpus import CORPUS_NAMES, convfinqa_records, finqa_records
from ..errors import InputError, ProgexecError
from ..readers import read_records
from ..reward import Policy
from ..reward.gold import GoldRecord, GoldRecordError

TARGETS = ("verl", "trl", "openrlhf")
"""The frameworks rows are written for."""

DEFAULT_TEMPLATE = "{pre_text}\n\n{table}\n\n{post_text}\n\n{history}{question}\n\n{instruction}"
"""The prompt, before blank runs are collapsed to one empty line and the ends stripped."""

FIELDS = ("pre_text", "table", "post_text", "history", "question", "options", "instruction")
"""The names a template may use (``str.format`` fields)."""

INSTRUCTIONS = {
    (Policy.OFFICIAL, "finqa"): "Answer with one program in the FinQA DSL (for example subtract(5829, 5735), "
                                "divide(#0, 5735)) on a line starting 'Program:'.",
    (Policy.OFFICIAL, "mathqa"): "Answer with one program in the MathQA DSL (for example "
                                 "add(n0,n1)|divide(#0,const_2)|) on a line starting 'Program:'.",
    (Policy.NUMERIC, "finqa"): "Give the final answer as one number (or yes/no) on a line starting 'Answer:'.",
    (Policy.NUMERIC, "mathqa"): "Give the letter of the correct option on a line starting 'Answer:'.",
    (Policy.NUMERIC, "tatqa"): "Give the final answer on a line starting 'Answer:', with its scale when it has one "
                               "(thousand, million, billion or %), for example 'Answer: 1,496.5 million'.",
    (Policy.NUMERIC, financereasoning.DIALECT): financereasoning.INSTRUCTION,
}
"""The instruction by policy and dialect family (ConvFinQA is FinQA's; TAT-QA has no program, so its
official policy takes its numeric instruction; helm takes numeric's)."""

DATA_SOURCES = {"finqa": "progexec/finqa", "convfinqa": "progexec/convfinqa", "mathqa": "progexec/mathqa",
                "tatqa": "progexec/tatqa", financereasoning.DIALECT: "progexec/financereasoning"}
ABILITY = {"finqa": "finance", "convfinqa": "finance", "mathqa": "math", "tatqa": "finance",
           financereasoning.DIALECT: "finance"}
GOLD_FIELDS = ("answer", "program", "table", "dialect", "options", "problem", "policy", "unit", "scale", "answer_type")
VERL_EXTRA_KEYS = ("id", "split", "index", "question", "table", "program", "dialect", "options", "problem",
                   "policy", "unit", "scale", "answer_type")
"""The keys of every verl row's ``extra_info``, in order (None where a dataset has no such field)."""

_UNIT = re.compile(r"\bin\s+(thousands|millions|billions)\b", re.IGNORECASE)
_BLANKS = re.compile(r"\n[ \t]*(?:\n[ \t]*)+")


class RowsError(InputError):
    """An input, template or output that cannot give rows; the message names it."""


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
    """``template``, or RowsError naming a field it uses that is not one of :data:`FIELDS`."""
    try:
        names = {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
    except ValueError as error:
        raise RowsError(f"the template is not a format string: {error}") from None
    unknown = sorted(names - set(FIELDS))
    if unknown:
        raise RowsError(f"the template uses unknown field(s) {unknown}; known: {', '.join(FIELDS)}")
    return template


def prompt_text(example: Example, policy: Policy, template: str = DEFAULT_TEMPLATE) -> str:
    """The example's prompt by ``template`` (see the module docstring)."""
    if (Policy.NUMERIC, example.dialect) in INSTRUCTIONS:  # a dataset with an instruction of its own (TAT-QA)
        family = example.dialect
    else:
        family = "mathqa" if get_dialect(example.dialect).option_letters else "finqa"  # the instruction family
    instruction = INSTRUCTIONS.get((policy, family), INSTRUCTIONS[(Policy.NUMERIC, family)])
    history = "".join(f"Earlier question: {asked}\nIts result: {answer}\n\n" for asked, answer in example.history)
    options = example.gold.get("options") or ""
    question = example.question or ""
    if family == "mathqa":
        question = f"Problem: {question}\nOptions: {options}"
    elif question:
        question = f"Question: {question}"
    text = template.format(pre_text=example.pre_text, table=render_table(example.gold.get("table")),
                           post_text=example.post_text, history=history, question=question, options=options,
                           instruction=instruction)
    return _BLANKS.sub("\n\n", text).strip()


def table_unit(table: Sequence[Sequence[str]] | None, *texts: str) -> str | None:
    """The unit a table states (``in millions`` in a cell or a passage), when exactly one is stated."""
    found = {match.group(1).lower().removesuffix("s")
             for text in [cell for row in table or [] for cell in row] + list(texts)
             for match in _UNIT.finditer(str(text))}
    return found.pop() if len(found) == 1 else None


def _text(value: Any) -> str:
    if isinstance(value, list):
        return "\n".join(str(part) for part in value if str(part).strip())
    return value if isinstance(value, str) else ""


def _gold(where: str, **fields: Any) -> dict[str, Any]:
    gold = {key: value for key, value in fields.items() if value is not None}
    try:
        GoldRecord.from_mapping(gold)
    except GoldRecordError as error:
        raise RowsError(f"{where}: no usable gold ({error})") from None
    return gold


def _finqa(value: Mapping[str, Any], where: str, fallback: str) -> Iterator[Example]:
    qa = value["qa"]
    table = value.get("table")
    item_id = value.get("id") if isinstance(value.get("id"), str) else fallback
    gold = _gold(f"{where} ({item_id})", answer=qa.get("exe_ans"), program=qa.get("program"), table=table,
                 dialect="finqa")
    question = qa.get("question")
    yield Example(str(item_id), "finqa", question if isinstance(question, str) else None, gold,
                  pre_text=_text(value.get("pre_text")), post_text=_text(value.get("post_text")))


def _convfinqa(value: Mapping[str, Any], where: str, fallback: str) -> Iterator[Example]:
    annotation = value["annotation"]
    questions = annotation.get("dialogue_break") or []
    programs = annotation.get("turn_program") or []
    answers = annotation.get("exe_ans_list") or []
    conversation = value.get("id") if isinstance(value.get("id"), str) else fallback
    if not (len(questions) == len(programs) == len(answers)) or not questions:
        raise RowsError(f"{where} ({conversation}): {len(questions)} questions, {len(programs)} programs and "
                        f"{len(answers)} answers; a conversation needs one of each per turn")
    table = value.get("table")
    history: list[tuple[str, str]] = []
    for turn, (question, program, answer) in enumerate(zip(questions, programs, answers)):
        item_id = f"{conversation}_{turn}"
        gold = _gold(f"{where} ({item_id})", answer=answer, program=program, table=table, dialect="convfinqa")
        yield Example(item_id, "convfinqa", question, gold, pre_text=_text(value.get("pre_text")),
                      post_text=_text(value.get("post_text")), history=tuple(history))
        history.append((str(question), str(answer)))


def _mathqa(value: Mapping[str, Any], where: str, fallback: str) -> Iterator[Example]:
    gold = _gold(f"{where} ({fallback})", answer=value.get("correct"), program=value.get("linear_formula"),
                 dialect="mathqa", options=value.get("options"), problem=value.get("Problem"))
    problem = value.get("Problem")
    yield Example(fallback, "mathqa", problem if isinstance(problem, str) else None, gold)


def _tatqa(value: Mapping[str, Any], where: str, fallback: str) -> Iterator[Example]:
    """Every question of one TAT-QA context: its paragraphs as the passage, its table, the gold record
    ``{dialect: tatqa, answer, scale, answer_type}`` the reward core scores by TAT-QA's rules."""
    from ..tatqa.data import questions_of

    stem, _, number = fallback.rpartition("-")
    for question in questions_of(value, where, stem, int(number) + 1 if number.isdigit() else 1):
        if question.error is not None:
            raise RowsError(f"{question.where}: {question.error}")
        yield _tatqa_example(question)


def _tatqa_example(question: Any) -> Example:
    scale = question.scale if question.scale is not None else ""
    if question.answer is None or scale not in ("", "thousand", "million", "billion", "percent"):
        raise RowsError(f"{question.where} ({question.uid}): no usable gold (answer {question.answer!r}, "
                        f"scale {scale!r})")
    gold = {"answer": question.answer, "table": [list(row) for row in question.table], "dialect": "tatqa",
            "scale": scale, "answer_type": question.answer_type}
    text = question.raw.get("question")
    return Example(question.uid, "tatqa", text if isinstance(text, str) else None, gold,
                   pre_text="\n".join(question.paragraphs))


def detect(value: Any) -> str | None:
    """Which official format a record is in: ``finqa``, ``convfinqa``, ``mathqa``, ``tatqa`` or None."""
    if not isinstance(value, Mapping):
        return None
    if isinstance(value.get("questions"), list) and ("paragraphs" in value or "table" in value):
        return "tatqa"
    annotation = value.get("annotation")
    if isinstance(annotation, Mapping) and "dialogue_break" in annotation:
        return "convfinqa"
    if isinstance(value.get("qa"), Mapping) and "question" in value["qa"]:
        return "finqa"
    if "Problem" in value and "options" in value and "correct" in value:
        return "mathqa"
    if financereasoning.is_record(value):
        return financereasoning.DIALECT
    return None


_READERS = {"finqa": _finqa, "convfinqa": _convfinqa, "mathqa": _mathqa, "tatqa": _tatqa,
            financereasoning.DIALECT: financereasoning.examples}


def file_examples(source: str) -> Iterator[Example]:
    """The examples of an official FinQA, ConvFinQA or MathQA file (JSON list or JSON Lines, maybe gzipped)."""
    stem = Path(source).name.split(".")[0] if source != "-" else "stdin"
    count = 0
    try:
        for record in read_records(source):
            if record.error is not None:
                raise RowsError(f"{source}: {record.where}: {record.error}")
            kind = detect(record.value)
            if kind is None:
                keys = sorted(record.value)[:12] if isinstance(record.value, Mapping) else type(record.value).__name__
                raise RowsError(f"{source}: {record.where} is not an official FinQA (qa.question), ConvFinQA "
                                f"(annotation.dialogue_break) MathQA (Problem, options, correct) or TAT-QA (questions) record; "
                                f"it has {keys}")
            yield from _READERS[kind](record.value, f"{source}: {record.where}", f"{stem}-{record.number - 1}")
            count += 1
    except InputError as error:
        raise RowsError(str(error)) from None
    if count == 0:
        raise RowsError(f"{source}: no records")


def corpus_examples(name: str) -> Iterator[Example]:
    """The examples of an embedded corpus (its records hold no passages and no question text)."""
    from ..mathqa.corpus import mathqa_records

    corpus, _, split = name.partition(":")
    if corpus == "tatqa":  # the embedded TAT-QA files are the official files: passages and questions included
        from ..tatqa.data import read_questions

        for index, question in enumerate(read_questions(name)):
            if question.error is not None:
                raise RowsError(f"{name}: {question.where}: {question.error}")
            example = _tatqa_example(question)
            yield Example(example.id, example.dialect, example.question, example.gold, split, index,
                          pre_text=example.pre_text)
        return
    if corpus == "mathqa":
        for index, record in enumerate(mathqa_records(split)):
            for example in _mathqa(record, name, f"mathqa-{split}-{index}"):
                yield Example(example.id, example.dialect, example.question, example.gold, split, index)
        return
    records = finqa_records() if corpus == "finqa" else convfinqa_records()
    for record in records:
        if split and record["split"] != split:
            continue
        where = f"{name} {record['split']} {record['index']}"
        if corpus == "finqa":
            gold = _gold(where, answer=record["exe_ans"], program=record["program"], table=record["table"],
                         dialect="finqa")
            yield Example(record["id"], "finqa", None, gold, record["split"], record["index"])
            continue
        for turn, (program, answer) in enumerate(zip(record["turn_program"], record["exe_ans_list"])):
            gold = _gold(where, answer=answer, program=program, table=record["table"], dialect="convfinqa")
            yield Example(f"{record['id']}_{turn}", "convfinqa", None, gold, record["split"], record["index"])


def examples(source: str) -> Iterator[Example]:
    """The examples of ``source``: an embedded corpus name, a path, or ``-``."""
    return corpus_examples(source) if source in CORPUS_NAMES else file_examples(source)


def make_row(example: Example, target: str, policy: Policy, template: str = DEFAULT_TEMPLATE,
             table_units: bool = False) -> dict[str, Any]:
    """One row for ``target`` (see docs/reward-integrations.md for each shape)."""
    gold = {**example.gold, "policy": policy.value}
    if table_units and example.dialect in BUILTIN_DIALECTS and not get_dialect(example.dialect).option_letters:
        unit = table_unit(gold.get("table"), example.pre_text, example.post_text)
        if unit is not None:
            gold["unit"] = unit
    prompt = prompt_text(example, policy, template)
    if target == "verl":
        extra = {"id": example.id, "split": example.split, "index": example.index, "question": example.question,
                 **gold}
        return {"data_source": DATA_SOURCES[example.dialect], "prompt": [{"role": "user", "content": prompt}],
                "ability": ABILITY[example.dialect],
                "reward_model": {"style": "rule", "ground_truth": _answer_text(gold.get("answer"))},
                "extra_info": {key: extra.get(key) for key in VERL_EXTRA_KEYS}}
    if target == "trl":  # the answer as text, so a column mixing numbers and yes/no has one type
        columns = {key: gold.get(key) for key in GOLD_FIELDS}
        columns["answer"] = _answer_text(columns["answer"])
        return {"id": example.id, "prompt": [{"role": "user", "content": prompt}], **columns}
    if target == "openrlhf":
        return {"id": example.id, "input": prompt, "label": json.dumps(gold, ensure_ascii=False)}
    raise RowsError(f"unknown target {target!r}; one of {', '.join(TARGETS)}")


def _answer_text(answer: Any) -> str | None:
    """The gold answer as text (verl's ``ground_truth``, TRL's answer column): a list of spans (TAT-QA) as its
    JSON text, which the TAT-QA reward reads back as the list."""
    if answer is None:
        return None
    return json.dumps(answer, ensure_ascii=False) if isinstance(answer, list) else str(answer)


def build_rows(source: str, target: str, policy: Policy = Policy.NUMERIC, template: str = DEFAULT_TEMPLATE,
               table_units: bool = False) -> Iterator[dict[str, Any]]:
    """Every row of ``source`` for ``target``, in input order (raises RowsError, see the module docstring)."""
    if target not in TARGETS:
        raise RowsError(f"unknown target {target!r}; one of {', '.join(TARGETS)}")
    check_template(template)
    for example in examples(source):
        yield make_row(example, target, policy, template, table_units)


def write_rows(rows: Iterable[dict[str, Any]], out: Path) -> int:
    """Write ``rows`` to ``out``: Parquet for ``.parquet``, JSON Lines for ``.jsonl``; the row count."""
    from .verl_rows import write_jsonl, write_parquet  # one writer for both row commands

    if out.suffix not in (".parquet", ".jsonl"):
        raise RowsError(f"{out}: the output's name must end in .parquet or .jsonl")
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        return write_parquet(rows, out) if out.suffix == ".parquet" else write_jsonl(rows, out)
    except ProgexecError as error:
        raise RowsError(str(error)) from None


__all__ = ["DEFAULT_TEMPLATE", "FIELDS", "TARGETS", "Example", "RowsError", "build_rows", "check_template",
           "examples", "make_row", "prompt_text", "render_table", "table_unit", "write_rows"]
