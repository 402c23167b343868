"""The embedded gold corpora (package data built by ``scripts/build_corpus.py``)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from functools import lru_cache
from importlib import resources
from typing import Any

from .errors import SetupError
from .items import Item

FINQA_SPLITS = ("test", "dev", "train")


class CorpusMissingError(SetupError):
    """The package data is missing: the corpus was not built or not installed."""


def _rows(name: str) -> list[dict[str, Any]]:
    resource = resources.files("progexec.data").joinpath(name)
    try:
        raw = resource.read_bytes()
    except FileNotFoundError:
        raise CorpusMissingError(f"embedded corpus {name} is missing; run scripts/build_corpus.py") from None
    return [json.loads(line) for line in gzip.decompress(raw).decode("utf-8").splitlines()]


@lru_cache(maxsize=None)
def finqa_records() -> tuple[dict[str, Any], ...]:
    """Every embedded FinQA gold record: id, split, index, program, table, exe_ans."""
    return tuple(_rows("finqa.jsonl.gz"))


@lru_cache(maxsize=None)
def convfinqa_records() -> tuple[dict[str, Any], ...]:
    """Every embedded ConvFinQA conversation: id, split, index, table, turn_program, exe_ans_list."""
    return tuple(_rows("convfinqa.jsonl.gz"))


def finqa_items(splits: tuple[str, ...] = FINQA_SPLITS) -> Iterator[Item]:
    """The FinQA gold programs as batch Items, in split order then dataset order."""
    for split in splits:
        for record in finqa_records():
            if record["split"] == split:
                yield Item(record["id"], record["program"], record["table"], record["exe_ans"], True, "finqa",
                           source=f"finqa {split} {record['index']}")


def convfinqa_items(splits: tuple[str, ...] = ("dev", "train")) -> Iterator[Item]:
    """ConvFinQA turns as Items named ``<conversation id>_<turn>``."""
    for split in splits:
        for record in convfinqa_records():
            if record["split"] != split:
                continue
            for turn, (program, gold) in enumerate(zip(record["turn_program"], record["exe_ans_list"])):
                yield Item(f"{record['id']}_{turn}", program, record["table"], gold, True, "convfinqa",
                           source=f"convfinqa {split} {record['index']} turn {turn}")


CORPUS_NAMES = ("finqa", "finqa:test", "finqa:dev", "finqa:train", "convfinqa", "convfinqa:dev", "convfinqa:train",
                "mathqa:test", "mathqa:dev", "mathqa:challenge_test", "tatqa:dev", "tatqa:test")
"""Every embedded corpus by the name ``read``, ``--gold`` and the batch commands accept."""


def mathqa_items(split: str = "test") -> Iterator[Item]:
    """The official MathQA problems of one split as Items (dialect ``mathqa``), in the official order."""
    from .mathqa.corpus import mathqa_records

    for index, record in enumerate(mathqa_records(split)):
        formula = record.get("linear_formula")
        yield Item(str(index), formula if isinstance(formula, str) else None, dialect="mathqa",
                   source=f"mathqa {split} {index}", record=record)


def corpus_items(name: str) -> Iterator[Item]:
    """The Items of an embedded corpus named as in :data:`CORPUS_NAMES` (``finqa``: every split)."""
    corpus, _, split = name.partition(":")
    if name not in CORPUS_NAMES:
        raise CorpusMissingError(f"unknown embedded corpus {name!r}; known: {', '.join(CORPUS_NAMES)}")
    if corpus == "finqa":
        return finqa_items((split,) if split else FINQA_SPLITS)
    if corpus == "convfinqa":
        return convfinqa_items((split,) if split else ("dev", "train"))
    if corpus == "tatqa":
        from .tatqa.items import corpus_items as tatqa_items

        return tatqa_items(name)
    return mathqa_items(split)
