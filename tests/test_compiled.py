"""The compiled fast path (interp/compiled.py) is the general interpreter, only faster.

Every Execution the fast path gives must equal, field by field and float by float (compared by
``repr``, so ``-0.0`` differs from ``0.0``), the one the general path gives with the fast path
switched off: over every embedded FinQA and ConvFinQA item, over generated programs and tables
(tests/strategies.py) with hostile literals, cells and references mixed in, in both the text and the
token form, and under tight limits. The general path is the reference: it is what the interpreter
computed before the fast path existed, and it is checked against the datasets' gold answers elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given, settings, strategies as st

from progexec.datasets import get_dataset
from progexec import runner
from progexec.corpus import corpus_items
from progexec.core.nodes import Num, Program, Ref, Row, Step
from progexec.interp import compiled, run
from progexec.interp.compiled import CACHE, MAX_FAST_CELLS, fast_outcome
from progexec.core.item import Item
from progexec.core.limits import DEFAULT_LIMITS, Limits, using

from .strategies import programs, tables

HOSTILE_LITERALS = ["0", "-0", "0.0", "-0.0", "1e308", "-1e308", "1e-320", "nan", "inf", "-inf", "1,000", "5%",
                    "const_m1", "const_0", "1_000", " 7", "abc", "#x", "10%%", "9" * 30, "2e400", "-5", "0.5",
                    "#9", "const_", "1e5"]


@contextmanager
def general_only() -> Iterator[None]:
    """The general path alone: the fast path switched off where the interpreter and the runner call it."""
    saved = [(module, getattr(module, "fast_outcome")) for module in (run, runner)]
    for module, _ in saved:
        setattr(module, "fast_outcome", lambda *args, **kwargs: None)
    try:
        yield
    finally:
        for module, function in saved:
            setattr(module, "fast_outcome", function)


def both(item: Item, limits: Limits | None = None) -> tuple[str, str]:
    """repr of the runner's Execution with the fast path, then without it."""
    fast = repr(runner.execute(item, limits))
    with general_only():
        general = repr(runner.execute(item, limits))
    return fast, general


def test_every_corpus_item_is_identical_and_takes_the_fast_path() -> None:
    items = [*corpus_items("finqa"), *corpus_items("convfinqa")]
    fast = [repr(runner.execute(item)) for item in items]
    taken = sum(fast_outcome(item.program, item.table, item.dialect) is not None  # type: ignore[arg-type]
                for item in items)
    with general_only():
        general = [repr(runner.execute(item)) for item in items]
    assert fast == general
    assert taken / len(items) > 0.99  # the fast path really runs: not a vacuous equality


@st.composite
def hostile_programs(draw: st.DrawFn) -> Program:
    """Programs of the grammar with literals, references and row names that make the general path refuse."""
    program = draw(programs(max_steps=4))
    steps = []
    for index, step in enumerate(program.steps):
        args = list(step.args)
        if draw(st.integers(0, 3)) == 0:
            position = draw(st.integers(0, 1))
            if isinstance(args[0], Row):
                args[0] = Row(draw(st.sampled_from(["missing row", "empty", "bad", "2019"])))
            elif draw(st.booleans()):
                target = draw(st.integers(0, len(program.steps)))
                args[position] = Ref(target, f"#{target}")  # forward or to a yes/no result, sometimes
            else:
                args[position] = Num(draw(st.sampled_from(HOSTILE_LITERALS)))
        steps.append(Step(step.op, (args[0], args[1])))
    return Program(tuple(steps))


@st.composite
def hostile_tables(draw: st.DrawFn) -> list[list[str]] | None:
    table = draw(tables())
    choice = draw(st.integers(0, 5))
    if choice == 0:
        return None
    if choice == 1:
        table.append(["bad", "12", "n/a"])
    if choice == 2:
        table.append(["empty"])
    if choice == 3:
        table.append([])
    if choice == 4:
        table.append(["2019", "1e308", "1e308"])
    return table


@settings(max_examples=400, deadline=None)
@given(st.one_of(programs(), hostile_programs()), st.one_of(tables(), hostile_tables()),
       st.sampled_from(["finqa", "convfinqa"]), st.booleans())
def test_generated_programs_are_identical(program: Program, table: list[list[str]] | None, dialect: str,
                                          tokens: bool) -> None:
    body: str | list[str] = program.to_tokens() if tokens else program.to_text()
    fast, general = both(Item("p", body, table, 1.0, True, dialect=get_dataset(dialect)))
    assert fast == general


@settings(max_examples=200, deadline=None)
@given(programs(), tables(), st.integers(1, 6), st.integers(1, 3), st.integers(0, 3))
def test_identical_under_tight_limits(program: Program, table: list[list[str]], literal: int, steps: int,
                                      cache: int) -> None:
    limits = DEFAULT_LIMITS.with_(max_literal_chars=literal, max_steps=steps, max_compiled_programs=cache)
    fast, general = both(Item("p", program.to_text(), table, None, False, dialect=get_dataset("convfinqa")), limits)
    assert fast == general


@pytest.mark.parametrize("text", ["1,000", " const_m1", "5%", "nan", "add(1, 2)x", "add(1 , 2)", "subtract(5829,5735)",
                                  "divide(1, 0)", "exp(-8, 0.3333)", "exp(10, 400)", "greater(2, 1), add(#0, 1)",
                                  "add(#1, 1)", "table_sum(#0, none)", "foo(1, 2)", ""])
@pytest.mark.parametrize("dialect", ["finqa", "convfinqa"])
def test_edge_programs_are_identical(text: str, dialect: str) -> None:
    fast, general = both(Item("p", text, [["x", "1"]], 1.0, True, dialect=get_dataset(dialect)))
    assert fast == general


def test_the_cache_is_bounded_and_keeps_answers() -> None:
    CACHE.clear()
    with using(DEFAULT_LIMITS.with_(max_compiled_programs=3)):
        for number in range(10):
            assert run.execute_text(f"add({number}, 1)", None, get_dataset("finqa")).official.value == number + 1.0
            assert len(CACHE.entries) <= 3
    CACHE.clear()
    with using(DEFAULT_LIMITS.with_(max_compiled_programs=0)):
        assert run.execute_text("add(1, 2)", None, get_dataset("finqa")).official.value == 3.0
        assert not CACHE.entries


def test_work_over_the_cell_bound_goes_to_the_general_path() -> None:
    width = MAX_FAST_CELLS // 2 + 1
    table = [["big", *["1"] * width]]
    assert fast_outcome("table_sum(big, none)", table, get_dataset("finqa")) is None
    execution = run.execute_text("table_sum(big, none)", table, get_dataset("finqa"))
    assert execution.official.value == float(width)  # the general path answers it, under the item's clock
    assert compiled.fast_outcome("table_sum(big, none)", [["big", "1", "2"]], get_dataset("finqa")) is not None


def test_the_cache_is_bounded_by_estimated_bytes() -> None:
    """191-step programs (about 100 KB each by the estimate) within a 1 MiB bound: at most about ten are kept,
    whatever their count, and each answer is the one computed without the cache."""
    from progexec.interp.compiled import STEP_BYTES, entry_bytes
    CACHE.clear()
    bound = 2**20
    programs = [", ".join([f"add({seed}, 1)"] + [f"add(#{index}, 1)" for index in range(190)]) for seed in range(40)]
    with using(DEFAULT_LIMITS.with_(max_compiled_bytes=bound)):
        for seed, text in enumerate(programs):
            assert run.execute_text(text, None, get_dataset("finqa")).official.value == seed + 191.0
            assert CACHE.total_bytes <= bound
    kept = len(CACHE.entries)
    assert 0 < kept <= bound // (191 * STEP_BYTES)
    assert CACHE.total_bytes == sum(entry_bytes(key, value) for (_, key), value in CACHE.entries.items())
    CACHE.clear()
    with using(DEFAULT_LIMITS.with_(max_compiled_bytes=0)):
        assert run.execute_text(programs[0], None, get_dataset("finqa")).official.value == 191.0
        assert not CACHE.entries
    CACHE.clear()


def test_an_entrys_estimate_counts_steps_and_characters() -> None:
    """The estimate is a function of the program's step count and text length only (the same on every Python)."""
    from progexec.core.bytecache import CHAR_BYTES, ENTRY_OVERHEAD
    from progexec.interp.compiled import STEP_BYTES, compile_program, entry_bytes, eligible
    from progexec.grammar.parse import parse_program
    text = "add(1, 2), multiply(#0, 3)"
    compiled = compile_program(parse_program(text), eligible(get_dataset("finqa")))
    assert entry_bytes(text, compiled) == ENTRY_OVERHEAD + CHAR_BYTES * len(text) + 2 * STEP_BYTES
    assert entry_bytes(text, None) == ENTRY_OVERHEAD + CHAR_BYTES * len(text)
