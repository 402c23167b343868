"""FinQA and ConvFinQA: the official ``evaluate.py`` of czyssrs/FinQA and czyssrs/ConvFinQA.

Both read program text with the FinQA grammar and the official tokenizer (split on ``", "``), run the
ten FinQA ops and round once, to 5 places, at the end. ConvFinQA differs in two rules: a constant must be
spelled ``const_`` and a one-token program is a bare number (its answer).
"""

from __future__ import annotations

from collections.abc import Sequence

from . import Dialect
from ..grammar.parse import parse_program
from ..grammar.tokens import official_tokenize
from ..interp.arithmetic import CONVFINQA_LITERALS, FINQA_LITERALS
from ..interp.official import OfficialVerdict, official_verdict
from ..interp.ops import FINQA_OPS
from ..interp.table import Table


def _finqa_official(tokens: Sequence[str], table: Table | None) -> OfficialVerdict:
    return official_verdict(tokens, table, FINQA)


def _convfinqa_official(tokens: Sequence[str], table: Table | None) -> OfficialVerdict:
    return official_verdict(tokens, table, CONVFINQA)


FINQA = Dialect(
    name="finqa", title="FinQA", ops=FINQA_OPS, literals=FINQA_LITERALS, tokenize=official_tokenize,
    parse=parse_program, official=_finqa_official, scorer="official", reward_policy="official",
    program_example="subtract(5829, 5735), divide(#0, 5735)",
    summary="FinQA (Chen et al. 2021): ten ops over a table, final value rounded to 5 places")

CONVFINQA = Dialect(
    name="convfinqa", title="ConvFinQA", ops=FINQA_OPS, literals=CONVFINQA_LITERALS, tokenize=official_tokenize,
    parse=parse_program, official=_convfinqa_official, bare_numbers=True, scorer="official",
    program_needs_valid_execution=True,
    reward_policy="official", program_example="subtract(206588, 181001), divide(#0, 181001)",
    summary="ConvFinQA (Chen et al. 2022): FinQA's ops; constants spelled const_; a bare number is a program")

__all__ = ["FINQA", "CONVFINQA"]
