"""Hypothesis strategies that build valid FinQA programs and tables by construction."""

from __future__ import annotations

from hypothesis import strategies as st

from progexec.core.nodes import Num, Program, Ref, Row, Step

ARITH_OPS = ["add", "subtract", "multiply", "divide", "exp", "greater"]
TABLE_OPS = ["table_max", "table_min", "table_sum", "table_average"]
ROW_NAMES = ["revenue", "net income", "2019", "total", "u.s .", "cost of sales 2018"]


@st.composite
def number_text(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["int", "dec", "pct", "const", "grouped", "neg"]))
    if kind == "int":
        return str(draw(st.integers(0, 10**7)))
    if kind == "dec":
        whole = draw(st.integers(0, 99999))
        frac = draw(st.integers(0, 99999))
        return f"{whole}.{frac:0{draw(st.integers(1, 5))}d}"[: 6 + len(str(whole))]
    if kind == "pct":
        return f"{draw(st.integers(0, 100))}.{draw(st.integers(0, 9))}%"
    if kind == "const":
        return draw(st.sampled_from(["const_100", "const_1000", "const_2", "const_m1", "const_1000000", "const_1"]))
    if kind == "grouped":
        return f"{draw(st.integers(1, 999))},{draw(st.integers(0, 999)):03d}"
    return f"-{draw(st.integers(0, 9999))}.{draw(st.integers(0, 99))}"


@st.composite
def cell_text(draw: st.DrawFn) -> str:
    value = draw(st.integers(-99999, 99999))
    style = draw(st.sampled_from(["plain", "dollar", "paren", "pct", "dec"]))
    if style == "dollar":
        return f"$ {value}"
    if style == "paren":
        return f"{value} ( {abs(value)} )"
    if style == "pct":
        return f"{value / 10}%"
    if style == "dec":
        return f"{value / 100}"
    return str(value)


@st.composite
def tables(draw: st.DrawFn) -> list[list[str]]:
    width = draw(st.integers(1, 4))
    rows = [["", *[f"col{i}" for i in range(width)]]]
    for name in ROW_NAMES:
        rows.append([name, *[draw(cell_text()) for _ in range(width)]])
    return rows


@st.composite
def programs(draw: st.DrawFn, max_steps: int = 5, ops: tuple[str, ...] = (*ARITH_OPS, *TABLE_OPS)) -> Program:
    """A structurally valid program: steps of ``ops`` over literals, backward references and rows."""
    count = draw(st.integers(1, max_steps))
    steps: list[Step] = []
    for index in range(count):
        op = draw(st.sampled_from(ops))
        if op in TABLE_OPS:
            steps.append(Step(op, (Row(draw(st.sampled_from(ROW_NAMES))), Row("none"))))
            continue
        args = []
        for _ in range(2):
            if index and draw(st.booleans()):
                ref = draw(st.integers(0, index - 1))
                args.append(Ref(ref, f"#{ref}"))
            else:
                args.append(Num(draw(number_text())))
        steps.append(Step(op, (args[0], args[1])))
    return Program(tuple(steps))
