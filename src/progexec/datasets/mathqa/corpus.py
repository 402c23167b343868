"""The embedded MathQA files (package data built by ``scripts/build_mathqa_corpus.py``)."""

from __future__ import annotations

import gzip
import json
from functools import lru_cache
from importlib import resources
from typing import Any

from ...core.errors import SetupError

MATHQA_SPLITS = ("test", "dev", "challenge_test")


@lru_cache(maxsize=None)
def mathqa_records(split: str = "test") -> tuple[dict[str, Any], ...]:
    """The official MathQA records of one split, in the official order (``Rationale`` dropped)."""
    if split not in MATHQA_SPLITS:
        raise ValueError(f"unknown MathQA split {split!r}; one of {', '.join(MATHQA_SPLITS)}")
    name = f"mathqa_{split}.json.gz"
    try:
        raw = resources.files("progexec.data").joinpath(name).read_bytes()
    except FileNotFoundError:
        raise SetupError(
            f"embedded corpus {name} is missing; run scripts/build_mathqa_corpus.py") from None
    data = json.loads(gzip.decompress(raw).decode("utf-8"))
    return tuple(data)
