"""The embedded gold corpora (package data built by ``scripts/build_corpus.py``)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from functools import lru_cache
from importlib import resources
from typing import Any

from .core.errors import SetupError
from .core.item import Item
from .core.registry import corpus_names, get_dataset

def _rows(name: str) -> list[dict[str, Any]]:
    resource = resources.files("progexec.data").joinpath(name)
    try:
        raw = resource.read_bytes()
    except FileNotFoundError:
        raise SetupError(f"embedded corpus {name} is missing; run scripts/build_corpus.py") from None
    return [json.loads(line) for line in gzip.decompress(raw).decode("utf-8").splitlines()]


@lru_cache(maxsize=None)
def finqa_records() -> tuple[dict[str, Any], ...]:
    """Every embedded FinQA gold record: id, split, index, program, table, exe_ans."""
    return tuple(_rows("finqa.jsonl.gz"))


@lru_cache(maxsize=None)
def convfinqa_records() -> tuple[dict[str, Any], ...]:
    """Every embedded ConvFinQA conversation: id, split, index, table, turn_program, exe_ans_list."""
    return tuple(_rows("convfinqa.jsonl.gz"))


CORPUS_NAMES = corpus_names()
"""Every embedded corpus by the name ``read``, ``--gold`` and the batch commands accept (the registry's)."""


def corpus_items(name: str) -> Iterator[Item]:
    """The Items of an embedded corpus named as in :data:`CORPUS_NAMES` (``finqa``: every split): the
    dataset named before the colon reads it (:attr:`progexec.core.dataset.Dataset.corpus`)."""
    if name not in CORPUS_NAMES:
        raise SetupError(f"unknown embedded corpus {name!r}; known: {', '.join(CORPUS_NAMES)}")
    dataset = get_dataset(name.partition(":")[0])
    if dataset.corpus is None:
        raise SetupError(f"embedded corpus {name!r}: dataset {dataset.name!r} has no corpus reader")
    return dataset.corpus(name)
