"""TAT-QA (Zhu et al., ACL 2021): infix derivations over a table and text, and its official scorer.

The items are questions, not programs over a table, so the entry has a ``run`` hook
(:func:`progexec.datasets.tatqa.run.run_item`: an arithmetic question's derivation is lowered to the one
interpreter's AST and run under float64 without FinQA's final rounding; other types are counted, not
executed) and a ``score`` hook (the official ``tatqa_eval.py``: EM, F1, scale score). Everything else
lives in :mod:`progexec.datasets.tatqa`; docs/tatqa.md has every rule with an example.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ...core.dataset import Dialect
from ...core.arithmetic import LiteralRule
from ...core.verdict import INVALID, OfficialVerdict
from ...core.ops import FINQA_OPS, subset
from ...core.execution import Execution
from ...core.table import Table
from ...core.item import Item

TATQA_LITERALS = LiteralRule("tatqa")
"""A lowered derivation's literals (``1,496.5``, ``-110``, ``15%``): commas removed, ``%`` divides by 100."""

TATQA_OPS = {name: spec for name, spec in FINQA_OPS.items() if spec.algebra in ("sum", "product")}
"""The four operators of a derivation."""


def _tokens(text: str) -> list[str]:
    """A derivation has no official token form: the text is one token."""
    return [text, "EOF"]


def _parse(text: str) -> Any:
    from .derivation import parse_and_lower

    return parse_and_lower(text)


def _official(tokens: Sequence[str], table: Table | None) -> OfficialVerdict:
    """TAT-QA's official code never executes a derivation: there is no official model of one."""
    return INVALID


def _run(item: Item, semantics: Any) -> Execution:
    from .run import run_item

    return run_item(item)


def _reader(record: Any, stem: str) -> Iterator[Item]:
    from .items import record_items

    return record_items(record, stem, TATQA)


def _corpus(name: str) -> Iterator[Item]:
    from .items import corpus_items

    return corpus_items(name, TATQA)


def _score(gold: Sequence[Any], predictions: Sequence[Any]) -> Any:
    from .scoring import score_records

    return score_records(gold, predictions)


TATQA = Dialect(
    name="tatqa", title="TAT-QA", ops=TATQA_OPS, literals=TATQA_LITERALS, tokenize=_tokens, parse=_parse,
    official=_official, round_digits=None, run=_run, scorer="official", reward_policy="numeric", score=_score,
    program_example="(4.00 - 3.75)/3.75", reader=_reader, corpus=_corpus,
    summary="TAT-QA (Zhu et al. 2021): infix derivations; answers scored by EM, F1 and scale, as tatqa_eval.py")

def is_question_item(item: Item) -> bool:
    """True for an Item made from a TAT-QA question (the report then lists derivations)."""
    return item.dialect is TATQA and item.record is not None and "answer_type" in item.record


__all__ = ["is_question_item", "TATQA", "TATQA_LITERALS", "TATQA_OPS"]
