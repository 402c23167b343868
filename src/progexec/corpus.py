"""The embedded gold corpora (package data built by ``scripts/build_corpus.py``)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from functools import lru_cache
from importlib import resources
from typing import Any

from .inputs import Item

FINQA_SPLITS = ("test", "dev", "train")


class CorpusMissingError(RuntimeError):
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
