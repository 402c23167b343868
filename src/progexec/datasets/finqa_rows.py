"""FinQA's and ConvFinQA's rows builders (:class:`progexec.rows.RowsSpec`): official records and embedded
corpora to training Examples, their instructions, and the embedded corpora's verl rows."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..corpus import convfinqa_records, finqa_records
from ..reward import Policy
from ..rows import Example, Questions, RowsSpec, make_gold, text_of, verl_row, verl_table_text
from ..core.errors import InputError
from ..core.plural import plural

def _finqa(value: Mapping[str, Any], where: str, fallback: str) -> Iterator[Example]:
    qa = value["qa"]
    table = value.get("table")
    item_id = value.get("id") if isinstance(value.get("id"), str) else fallback
    gold = make_gold(f"{where} ({item_id})", answer=qa.get("exe_ans"), program=qa.get("program"), table=table,
                 dialect="finqa")
    question = qa.get("question")
    yield Example(str(item_id), "finqa", question if isinstance(question, str) else None, gold,
                  pre_text=text_of(value.get("pre_text")), post_text=text_of(value.get("post_text")))


def _convfinqa(value: Mapping[str, Any], where: str, fallback: str) -> Iterator[Example]:
    annotation = value["annotation"]
    questions = annotation.get("dialogue_break") or []
    programs = annotation.get("turn_program") or []
    answers = annotation.get("exe_ans_list") or []
    conversation = value.get("id") if isinstance(value.get("id"), str) else fallback
    if not (len(questions) == len(programs) == len(answers)) or not questions:
        raise InputError(f"{where} ({conversation}): {plural(len(questions), 'question')}, "
                        f"{plural(len(programs), 'program')} and {plural(len(answers), 'answer')}; a conversation "
                        "needs one of each per turn")
    table = value.get("table")
    history: list[tuple[str, str]] = []
    for turn, (question, program, answer) in enumerate(zip(questions, programs, answers)):
        item_id = f"{conversation}_{turn}"
        gold = make_gold(f"{where} ({item_id})", answer=answer, program=program, table=table, dialect="convfinqa")
        yield Example(item_id, "convfinqa", question, gold, pre_text=text_of(value.get("pre_text")),
                      post_text=text_of(value.get("post_text")), history=tuple(history))
        history.append((str(question), str(answer)))


def _finqa_corpus(name: str) -> Iterator[Example]:
    """The embedded FinQA records (no passages and no question text)."""
    corpus, _, split = name.partition(":")
    for record in finqa_records():
        if split and record["split"] != split:
            continue
        where = f"{name} {record['split']} {record['index']}"
        gold = make_gold(where, answer=record["exe_ans"], program=record["program"], table=record["table"],
                         dialect="finqa")
        yield Example(record["id"], "finqa", None, gold, record["split"], record["index"])


def _convfinqa_corpus(name: str) -> Iterator[Example]:
    """The embedded ConvFinQA conversations, one example per turn (no passages and no question text)."""
    corpus, _, split = name.partition(":")
    for record in convfinqa_records():
        if split and record["split"] != split:
            continue
        where = f"{name} {record['split']} {record['index']}"
        for turn, (program, answer) in enumerate(zip(record["turn_program"], record["exe_ans_list"])):
            gold = make_gold(where, answer=answer, program=program, table=record["table"], dialect="convfinqa")
            yield Example(f"{record['id']}_{turn}", "convfinqa", None, gold, record["split"], record["index"])


def _verl_finqa(spec: RowsSpec, split: str, policy: Policy, questions: Questions) -> Iterator[dict[str, Any]]:
    for record in finqa_records():
        if record["split"] != split:
            continue
        question = next(iter(questions.get(record["id"], ())), None)
        body = verl_table_text(record["table"]) + (f"Question: {question}\n" if question else "")
        extra = {"id": record["id"], "split": split, "index": record["index"], "question": question,
                 "table": record["table"], "program": record["program"], "dialect": "finqa",
                 "policy": policy.value}
        yield verl_row(spec, policy, extra, str(record["exe_ans"]), body)


def _verl_convfinqa(spec: RowsSpec, split: str, policy: Policy, questions: Questions) -> Iterator[dict[str, Any]]:
    for record in convfinqa_records():
        if record["split"] != split:
            continue
        asked = list(questions.get(record["id"], ()))
        history = ""
        for turn, (program, gold) in enumerate(zip(record["turn_program"], record["exe_ans_list"])):
            question = asked[turn] if turn < len(asked) else None
            body = verl_table_text(record["table"]) + history + (f"Question: {question}\n" if question else "")
            extra = {"id": f"{record['id']}_{turn}", "split": split, "index": record["index"], "question": question,
                     "table": record["table"], "program": program, "dialect": "convfinqa", "policy": policy.value}
            yield verl_row(spec, policy, extra, str(gold), body)
            if question:
                history += f"Earlier question: {question}\nIts result: {gold}\n"


INSTRUCTIONS = {
    Policy.OFFICIAL: "Answer with one program in the FinQA DSL (for example subtract(5829, 5735), "
                                "divide(#0, 5735)) on a line starting 'Program:'.",
    Policy.NUMERIC: "Give the final answer as one number (or yes/no) on a line starting 'Answer:'.",
}
"""FinQA's instructions (ConvFinQA's too: the same program language)."""

FINQA_ROWS = RowsSpec("finqa", lambda value: isinstance(value.get("qa"), Mapping) and "question" in value["qa"], _finqa,
                      INSTRUCTIONS, "progexec/finqa", "finance", corpus=_finqa_corpus,
                      verl_splits=("test", "dev", "train"), verl_rows=_verl_finqa)
CONVFINQA_ROWS = RowsSpec("convfinqa", lambda value: isinstance(value.get("annotation"), Mapping)
                          and "dialogue_break" in value["annotation"], _convfinqa, INSTRUCTIONS, "progexec/convfinqa",
                          "finance", corpus=_convfinqa_corpus, verl_splits=("dev", "train"), verl_rows=_verl_convfinqa)

__all__ = ["FINQA_ROWS", "CONVFINQA_ROWS"]
