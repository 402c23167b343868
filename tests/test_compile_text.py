"""The compiler's one pass from program text (``compile_text``) is the parser followed by the compiler.

For every embedded FinQA and ConvFinQA program, and for generated programs with hostile literals, references,
row names and spacing, ``compile_text(text)`` must give a Compiled equal, slot by slot (floats by ``repr``), to
``compile_program(parse_program(text))``, which is the reference (the Lark grammar decides every text the fast
parser does not take), or None exactly where that path gives None or a syntax error.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from progexec.core.errors import ProgramSyntaxError
from progexec.core.nodes import Program
from progexec.corpus import corpus_items
from progexec.datasets import get_dataset
from progexec.grammar.parse import _arg_pattern, _parser, canonical_program, canonical_steps, parse_program
from progexec.grammar.tokens import ALL_OPS
from progexec.interp.compiled import Compiled, compile_program, compile_text, eligible

from .strategies import programs
from .test_compiled import HOSTILE_LITERALS, hostile_programs

DIALECTS = ["finqa", "convfinqa"]


def shape(compiled: Compiled | None) -> str | None:
    """Every slot of a Compiled, floats by repr (so ``-0.0`` differs from ``0.0``); functions by name."""
    if compiled is None:
        return None
    ops = [op.__name__ if callable(op) else op for op in compiled.ops]
    return repr((compiled.program, compiled.consts, compiled.rows, compiled.row_reads, ops, compiled.steps,
                 compiled.bare, compiled.longest, compiled.official_ok))


def reference(text: str, dialect: str) -> str | None:
    """The parser, then the compiler: what the fast path compiled before it had a pass of its own."""
    spec = eligible(get_dataset(dialect))
    assert spec is not None
    try:
        return shape(compile_program(parse_program(text), spec))
    except ProgramSyntaxError:
        return None


def one_pass(text: str, dialect: str) -> str | None:
    spec = eligible(get_dataset(dialect))
    assert spec is not None
    return shape(compile_text(text, spec))


def test_every_corpus_program_compiles_alike_in_one_pass() -> None:
    seen = 0
    canonical = 0
    for dialect in DIALECTS:
        texts = {item.program for item in corpus_items(dialect) if isinstance(item.program, str)}
        for text in sorted(texts):
            assert one_pass(text, dialect) == reference(text, dialect), text
            seen += 1
            canonical += canonical_steps(text) is not None
    assert seen > 5000 and canonical / seen > 0.9  # the one pass really reads them: not a vacuous equality


def spaced(text: str, draw: st.DrawFn) -> str:
    """The text with spacing the canonical form does not have, sometimes: the parser must take those."""
    choice = draw(st.integers(0, 5))
    if choice == 0:
        return text.replace(", ", ",", 1)
    if choice == 1:
        return " " + text
    if choice == 2:
        return text.replace("(", " (", 1)
    if choice == 3:
        return text.replace(")", " )", 1)
    return text


@st.composite
def texts(draw: st.DrawFn) -> str:
    program: Program = draw(st.one_of(programs(max_steps=4), hostile_programs()))
    return spaced(program.to_text(), draw)


@settings(max_examples=500, deadline=None)
@given(texts(), st.sampled_from(DIALECTS))
def test_generated_programs_compile_alike_in_one_pass(text: str, dialect: str) -> None:
    assert one_pass(text, dialect) == reference(text, dialect)


@pytest.mark.parametrize("text", [
    *(f"add({literal}, 1)" for literal in HOSTILE_LITERALS), "table_sum(net revenue ( loss ), none)",
    "table_max(#0, none)", "add(1, 2), table_sum(a, none), add(#1, #0)", "greater(1, 2), add(#0, 1)",
    "add(1, 2)|", "add(1, 2), ", "add(1, 2),add(3, 4)", "add((1), 2)", "add(1, 2, 3)", "add(1)", "foo(1, 2)",
    "exp(2, 3)", "add(#0, 1)", "add(1, #1)", "subtract(#00, 1)", "add(#１, 1)", "add(1, 2), add(#0#, 1)", "add(1, 2), add(#0#1, 1)", "1,000", "const_5", "",
    "add(1 ,2)", "add(1, 2))", "add(1, 2) ", "add(1, 1e400)", "add(10 %, 1)", "add(a b, 1)"])
@pytest.mark.parametrize("dialect", DIALECTS)
def test_edge_texts_compile_alike_in_one_pass(text: str, dialect: str) -> None:
    assert one_pass(text, dialect) == reference(text, dialect)


def each_argument_read_whole(text: str) -> bool:
    """The canonical form checked one argument at a time against the grammar's terminals (before one regex call
    took a whole program's arguments): the reference for :func:`canonical_steps`."""
    if "|" in text or "(" not in text or not text.endswith(")") or text != text.strip():
        return False
    for chunk in text[:-1].split("), "):
        op, paren, rest = chunk.partition("(")
        args = rest.split(", ")
        if not paren or op not in ALL_OPS or len(args) != 2:
            return False
        if any("(" in arg or ")" in arg or not _arg_pattern().match(arg) for arg in args):
            return False
    return True


ARGUMENT_CHARACTERS = "0123456789#,.%-+eE_ \n\tconst_mabc()|"


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["add", "divide", "table_sum", "greater"]),
                          st.text(ARGUMENT_CHARACTERS, max_size=8), st.text(ARGUMENT_CHARACTERS, max_size=8)),
                min_size=1, max_size=3))
def test_canonical_steps_read_each_argument_by_the_grammar(steps: list[tuple[str, str, str]]) -> None:
    """canonical_steps takes a text exactly when each argument alone is one of the grammar's arguments, and then
    the Lark grammar builds the same Program."""
    text = ", ".join(f"{op}({first}, {second})" for op, first, second in steps)
    assert (canonical_steps(text) is not None) == each_argument_read_whole(text)
    program = canonical_program(text)
    if program is not None:
        assert _parser().parse(text) == program
