"""FinQA and ConvFinQA: the official ``evaluate.py`` of czyssrs/FinQA and czyssrs/ConvFinQA.

Both read program text with the FinQA grammar and the official tokenizer (split on ``", "``), run the
ten FinQA ops and round once, to 5 places, at the end. ConvFinQA differs in two rules: a constant must be
spelled ``const_`` and a one-token program is a bare number (its answer).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..readers import _item_id, make_item, qa_record
from ..core.dataset import Dialect
from ..grammar.parse import parse_program
from ..grammar.tokens import official_tokenize
from ..core.arithmetic import CONVFINQA_LITERALS, FINQA_LITERALS
from ..core.verdict import OfficialVerdict
from ..interp.official import official_verdict
from ..core.ops import FINQA_OPS
from ..core.table import Table
from ..core.item import Item, bad_item
from ..corpus import convfinqa_records, finqa_records
from ..jsonrecords import Record

FINQA_SPLITS = ("test", "dev", "train")


def _finqa_official(tokens: Sequence[str], table: Table | None) -> OfficialVerdict:
    return official_verdict(tokens, table, FINQA)


def _convfinqa_official(tokens: Sequence[str], table: Table | None) -> OfficialVerdict:
    return official_verdict(tokens, table, CONVFINQA)


def _finqa(record: Record, stem: str) -> Iterator[Item]:
    read = qa_record(record, stem, FINQA)
    if isinstance(read, Item):
        yield read
        return
    item_id, item, qa = read
    yield make_item(item_id, qa.get("program"), item.get("table"), qa.get("exe_ans"), FINQA, record.where,
                    qa.get("answer"))


def _conversation(record: Record, stem: str) -> Iterator[Item]:
    item = record.value
    fallback = f"{stem}-{record.number - 1}"
    base = _item_id(item.get("id"), fallback) if isinstance(item, dict) else fallback
    annotation = item.get("annotation") if isinstance(item, dict) else None
    if not isinstance(annotation, dict):
        yield bad_item(base, f"{record.where} has no annotation", record.where, CONVFINQA)
        return
    if "turn_program" not in annotation:
        yield make_item(base, annotation.get("cur_program"), item.get("table"), annotation.get("exe_ans"),
                        CONVFINQA, record.where)
        return
    programs = annotation.get("turn_program") or []
    answers = annotation.get("exe_ans_list") or []
    if not isinstance(programs, list):
        yield bad_item(base, f"{record.where}: turn_program must be a list, not {type(programs).__name__}",
                       record.where, CONVFINQA)
        return
    if not isinstance(answers, list):
        answers = []  # unusable gold answers: the turns still run, without gold
    for turn, program in enumerate(programs):
        gold = answers[turn] if turn < len(answers) else None
        yield make_item(f"{base}_{turn}", program, item.get("table"), gold, CONVFINQA,
                        f"{record.where} turn {turn}")


def finqa_items(splits: tuple[str, ...] = FINQA_SPLITS) -> Iterator[Item]:
    """The FinQA gold programs as batch Items, in split order then dataset order."""
    for split in splits:
        for record in finqa_records():
            if record["split"] == split:
                yield Item(record["id"], record["program"], record["table"], record["exe_ans"], True, dialect=FINQA,
                           source=f"finqa {split} {record['index']}")


def convfinqa_items(splits: tuple[str, ...] = ("dev", "train")) -> Iterator[Item]:
    """ConvFinQA turns as Items named ``<conversation id>_<turn>``."""
    for split in splits:
        for record in convfinqa_records():
            if record["split"] != split:
                continue
            for turn, (program, gold) in enumerate(zip(record["turn_program"], record["exe_ans_list"])):
                yield Item(f"{record['id']}_{turn}", program, record["table"], gold, True, dialect=CONVFINQA,
                           source=f"convfinqa {split} {record['index']} turn {turn}")


def _finqa_corpus(name: str) -> Iterator[Item]:
    split = name.partition(":")[2]
    return finqa_items((split,) if split else FINQA_SPLITS)


def _convfinqa_corpus(name: str) -> Iterator[Item]:
    split = name.partition(":")[2]
    return convfinqa_items((split,) if split else ("dev", "train"))


FINQA = Dialect(
    name="finqa", title="FinQA", ops=FINQA_OPS, literals=FINQA_LITERALS, tokenize=official_tokenize,
    parse=parse_program, official=_finqa_official, scorer="official", reward_policy="official",
    reader=_finqa, corpus=_finqa_corpus,
    program_example="subtract(5829, 5735), divide(#0, 5735)",
    summary="FinQA (Chen et al. 2021): ten ops over a table, final value rounded to 5 places")

CONVFINQA = Dialect(
    name="convfinqa", title="ConvFinQA", ops=FINQA_OPS, literals=CONVFINQA_LITERALS, tokenize=official_tokenize,
    parse=parse_program, official=_convfinqa_official, bare_numbers=True, scorer="official",
    program_needs_valid_execution=True, reader=_conversation, corpus=_convfinqa_corpus,
    reward_policy="official", program_example="subtract(206588, 181001), divide(#0, 181001)",
    summary="ConvFinQA (Chen et al. 2022): FinQA's ops; constants spelled const_; a bare number is a program")

__all__ = ["FINQA", "CONVFINQA", "FINQA_SPLITS", "finqa_items", "convfinqa_items"]
