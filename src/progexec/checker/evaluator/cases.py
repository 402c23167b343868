"""The suite of ``check-evaluator``: gold programs, one family per rule and quirk, boundaries, hostile input.

A suite is a pure function of ``(name, cases, seed)``. Gold families are the embedded FinQA and
ConvFinQA programs with their tables (a seeded sample when fewer cases are asked for); every
generated case is drawn from its own ``random.Random("<seed>:<family>:<index>")``, so a case
does not depend on how many others were asked for. Expected verdicts are not stored here:
they come from the reference (:mod:`.reference`) when a chunk is checked.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Optional

from ...corpus import convfinqa_records, finqa_records
from ...core.limits import DEFAULT_LIMITS, current

from ...core.ops import FINQA_OPS

_ARITHMETIC = tuple(name for name, spec in FINQA_OPS.items() if spec.algebra in ("sum", "product"))
"""The four arithmetic ops, in the op table's order (add, subtract, multiply, divide): the generated cases draw them."""

TableRows = Optional[list[list[str]]]


class Family(str, Enum):
    """A family of cases; the value is its name in reports."""

    GOLD_FINQA = "gold_finqa"
    GOLD_CONVFINQA = "gold_convfinqa"
    TOKENIZER = "tokenizer"            # ', ' is the only separator; spaces around parens
    LITERALS = "literals"              # float() forms SPEC names: 1e5, 1_000, ' 5', inf, nan, .5, 5.
    THOUSANDS = "thousands"            # '1,000' in arguments and cells
    PERCENT = "percent"                # '5%' -> 5 / 100.0
    CONSTANTS = "constants"            # const_100, const_m1, const_1000000; const vs const_ per dialect
    REFERENCES = "references"          # #n backward only; forward, self, missing; refs to yes/no
    DIVISION = "division"              # divide by zero, by tiny numbers
    EXPONENT = "exponent"              # exp: overflow, negative bases, fractional exponents
    GREATER = "greater"                # yes/no answers, greater over yes/no strings
    TABLE_CELLS = "table_cells"        # '$', '( 5 )', '5 (a)', '', 'n/a', '-'
    DUPLICATE_ROWS = "duplicate_rows"  # a later row with the same name wins
    STALE_ROW = "stale_row"            # a table op on '#n' reuses the previous table op's row
    EMPTY_ROWS = "empty_rows"          # an empty row anywhere breaks every table op
    ROW_AGGREGATES = "row_aggregates"  # sum left to right, average = sum / len, empty-cell rows
    ROUND_ONCE = "round_once"          # intermediates unrounded, round(x, 5) once at the end
    NONFINITE = "nonfinite"            # inf and nan results are valid answers
    BARE_NUMBERS = "bare_numbers"      # ConvFinQA's one-token programs, and the same in FinQA
    BOUNDARIES = "boundaries"          # results on or next to 5-place rounding boundaries
    REFUSALS = "refusals"              # programs the official evaluator refuses
    LONG_CHAINS = "long_chains"        # 10-60 steps of references
    HOSTILE_TABLES = "hostile_tables"  # many rows, odd names and cells, no table at all
    FLAT_CONTRACT = "flat_contract"    # flat protocol only: raw lists breaking each contract check


GOLD = (Family.GOLD_FINQA, Family.GOLD_CONVFINQA)
RULES = (Family.TOKENIZER, Family.LITERALS, Family.THOUSANDS, Family.PERCENT, Family.CONSTANTS,
         Family.REFERENCES, Family.DIVISION, Family.EXPONENT, Family.GREATER, Family.TABLE_CELLS,
         Family.DUPLICATE_ROWS, Family.STALE_ROW, Family.EMPTY_ROWS, Family.ROW_AGGREGATES,
         Family.ROUND_ONCE, Family.NONFINITE, Family.BARE_NUMBERS, Family.REFUSALS, Family.LONG_CHAINS,
         Family.HOSTILE_TABLES, Family.FLAT_CONTRACT)
BOUNDARY = (Family.BOUNDARIES,)
SUITES: dict[str, tuple[Family, ...]] = {"gold": GOLD, "rules": RULES, "boundaries": BOUNDARY,
                                         "all": GOLD + RULES + BOUNDARY}
GENERATED_DEFAULT = DEFAULT_LIMITS.evaluator_generated_cases
"""Default cases per generated family (boundaries: four times as many)."""


@dataclass(frozen=True, slots=True)
class FlatArgs:
    """The nine ``run_flat`` arguments as a port receives them (lengths not necessarily consistent)."""

    ops: list[float]
    arg1_kind: list[float]
    arg1_num: list[float]
    arg2_kind: list[float]
    arg2_num: list[float]
    table_values: list[float]
    table_offset: list[float]
    table_len: list[float]
    n_steps: int


@dataclass(frozen=True, slots=True)
class EvalCase:
    """One program, its table and dialect, and where it comes from (``flat``: a raw flat-only case)."""

    id: str
    family: Family
    dialect: str
    program: str
    table: TableRows
    flat: Optional[FlatArgs] = None


# -- gold ---------------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _gold(family: Family) -> tuple[EvalCase, ...]:
    if family is Family.GOLD_FINQA:
        return tuple(EvalCase(f"finqa:{r['id']}", family, "finqa", r["program"], r["table"]) for r in finqa_records())
    return tuple(EvalCase(f"convfinqa:{r['id']}:{turn}", family, "convfinqa", program, r["table"])
                 for r in convfinqa_records() for turn, program in enumerate(r["turn_program"]))


# -- generators: one per family; each builds (program, table, dialect) from its own rng ---------

Draw = Callable[[random.Random], tuple[str, TableRows, str]]
_NAMES = ("net revenue", "total", "operating income", "cash", "2019", "interest expense", "eps")


def _num(rng: random.Random) -> str:
    """A literal as FinQA writes them: integers, decimals, negatives."""
    kind = rng.random()
    if kind < 0.35:
        return str(rng.randint(1, 99999))
    if kind < 0.8:
        return f"{rng.uniform(0.01, 9999):.{rng.randint(1, 4)}f}"
    if kind < 0.9:
        return f"-{rng.uniform(0.01, 999):.{rng.randint(1, 3)}f}"
    return rng.choice(("0", "1", "100", "1000", "0.5"))


def _op(rng: random.Random) -> str:
    return rng.choice(_ARITHMETIC)


def _table(rng: random.Random, rows: int = 3, cells: int = 3) -> list[list[str]]:
    names = rng.sample(_NAMES, min(rows, len(_NAMES)))
    return [[""] + [str(2015 + i) for i in range(cells)]] + [
        [name] + [_cell(rng) for _ in range(cells)] for name in names]


def _cell(rng: random.Random) -> str:
    value = _num(rng)
    return rng.choice((value, f"${value}", f"$ {value}", f"{value} ( a )", value))


def _tokenizer(rng: random.Random) -> tuple[str, TableRows, str]:
    a, b, c = _num(rng), _num(rng), _num(rng)
    forms = (f"subtract({a},{b})", f"subtract({a}, {b}),divide(#0, {c})", f"add( {a}, {b} )",
             f"add ({a}, {b})", f"add({a},  {b})", f"multiply({a}, {b}) , divide(#0, {c})",
             f" add({a}, {b})", f"add({a}, {b}), ", f"divide({a}, {b}), add(#0, {c})",
             f"add({a} , {b})", f"add({a}, {b} ), subtract(#0, {c})", f"add(\t{a}, {b})")
    return rng.choice(forms), None, rng.choice(("finqa", "convfinqa"))


def _literals(rng: random.Random) -> tuple[str, TableRows, str]:
    odd = rng.choice(("1e5", "2.5e-3", "1_000", " 5", "5 ", ".5", "5.", "+7", "-0", "-0.0", "1E3", "0.000001",
                      "1e-7", "00012", "3.0000001", "inf", "-inf", "nan", "INF", "0x10", "1__0",
                      "1e400", "12.5.1", "", "--5"))
    b = _num(rng)
    program = rng.choice((f"add({odd}, {b})", f"multiply({b}, {odd})", f"subtract({odd}, 0)", f"divide({odd}, {b})"))
    return program, None, "finqa"


def _thousands(rng: random.Random) -> tuple[str, TableRows, str]:
    big = f"{rng.randint(1, 999)},{rng.randint(0, 999):03d}"
    if rng.random() < 0.3:
        big += f",{rng.randint(0, 999):03d}"
    if rng.random() < 0.3:
        big += f".{rng.randint(0, 99)}"
    b = _num(rng)
    if rng.random() < 0.5:
        return rng.choice((f"add({big}, {b})", f"divide({big}, {b})", f"subtract({b}, {big})")), None, "finqa"
    table = _table(rng)
    table[1][1 + rng.randrange(3)] = rng.choice((big, f"${big}", f"$ {big}"))
    return f"table_{rng.choice(('sum', 'max', 'average'))}({table[1][0]}, none)", table, "finqa"


def _percent(rng: random.Random) -> tuple[str, TableRows, str]:
    p = rng.choice((f"{rng.randint(1, 99)}%", f"{rng.uniform(0, 100):.{rng.randint(1, 3)}f}%", "0.5%", "100%",
                    "7 %", "%5", "1,000%", "-3%", "5%%"))
    b = _num(rng)
    if rng.random() < 0.6:
        return rng.choice((f"multiply({b}, {p})", f"add({p}, 0)", f"divide({p}, {b})")), None, "finqa"
    table = _table(rng)
    table[1][1 + rng.randrange(3)] = p
    return f"table_{rng.choice(('sum', 'max', 'min'))}({table[1][0]}, none)", table, "finqa"


def _constants(rng: random.Random) -> tuple[str, TableRows, str]:
    const = rng.choice(("const_100", "const_1000", "const_1000000", "const_m1", "const_1", "const_2", "const_3",
                        "const_12", "const_365", "const_0.5", "const_m2", "const100", "const_", "const_abc",
                        "const_1_000"))
    b = _num(rng)
    program = rng.choice((f"multiply({b}, {const})", f"divide({b}, {const})", f"add({const}, {b})"))
    return program, None, rng.choice(("finqa", "convfinqa"))


def _references(rng: random.Random) -> tuple[str, TableRows, str]:
    a, b, c = _num(rng), _num(rng), _num(rng)
    forms = (f"add({a}, {b}), multiply(#0, {c})", f"add({a}, #0)", f"add({a}, {b}), add(#1, {c})",
             f"add({a}, {b}), add(#2, {c})", f"greater({a}, {b}), add(#0, {c})", f"add({a}, {b}), add(#0, #0)",
             f"add({a}, {b}), subtract({c}, #0), divide(#1, #0)", f"add({a}, {b}), add(# 0, {c})",
             f"add({a}, {b}), add(#-1, {c})", f"add({a}, {b}), add(#00, {c})", f"add({a}, {b}), add(#0.0, {c})",
             f"add({a}, {b}), add(x#0, {c})")
    return rng.choice(forms), None, "finqa"


def _division(rng: random.Random) -> tuple[str, TableRows, str]:
    a, b = _num(rng), _num(rng)
    forms = (f"divide({a}, 0)", f"divide(0, 0)", f"subtract({a}, {a}), divide({b}, #0)",
             f"divide({a}, 1e-320)", f"divide({a}, {b})", f"divide(-{a}, 0.0)", f"divide({a}, -0)",
             f"divide({a}, {b}), divide(#0, 3)")
    return rng.choice(forms), None, "finqa"


def _exponent(rng: random.Random) -> tuple[str, TableRows, str]:
    a = _num(rng).lstrip("-")
    n = rng.choice(("2", "3", "0.5", "1.5", "-1", "-2", "0", "0.25", "10", "1000", "1e10", "0.3333"))
    base = rng.choice((a, f"-{a}", "0", "1.05", "1.1", "-8", "-1", "10", "0.9", "1.0734"))
    forms = (f"exp({base}, {n})", f"divide({a}, 100), add(#0, 1), exp(#1, {n})",
             f"subtract(0, {a}), exp(#0, {n})", f"exp({base}, {n}), add(#0, 1)",
             f"divide({rng.randint(101, 400)}, {rng.randint(100, 300)}), exp(#0, 0.{rng.randint(1, 9)})")
    return rng.choice(forms), None, "finqa"


def _greater(rng: random.Random) -> tuple[str, TableRows, str]:
    a, b = _num(rng), _num(rng)
    forms = (f"greater({a}, {b})", f"greater({a}, {a})", f"subtract({a}, {b}), greater(#0, 0)",
             f"greater({a}, {b}), greater({b}, {a}), greater(#0, #1)", f"greater({a}, {b}), multiply(#0, 2)",
             f"greater(1e400, {b})", f"greater(nan, {b})", f"greater({a}, {b}), add({a}, {b})")
    return rng.choice(forms), None, "finqa"


def _table_cells(rng: random.Random) -> tuple[str, TableRows, str]:
    table = _table(rng)
    odd = rng.choice(("( 5 )", "(5)", "$ ( 1.2 )", "5 (a)", "", " ", "n/a", "-", "—", "$", "$$5", "5$", "( 12.5 %)",
                      "12.5 %", "3.2 ( 4.1 )", "1,234 ( 5 )", "$ -3", "inf", "nan", "1e3", "0x10", "1_000"))
    table[1][1 + rng.randrange(3)] = odd
    op = rng.choice(("sum", "max", "min", "average"))
    return f"table_{op}({table[1][0]}, none)", table, "finqa"


def _duplicate_rows(rng: random.Random) -> tuple[str, TableRows, str]:
    table = _table(rng)
    name = table[1][0]
    table.insert(rng.randrange(1, len(table) + 1), [name] + [_num(rng) for _ in range(3)])
    if rng.random() < 0.3:
        table.append([name + " "] + [_num(rng) for _ in range(3)])
    op = rng.choice(("sum", "max", "min", "average"))
    return f"table_{op}({name}, none)", table, "finqa"


def _stale_row(rng: random.Random) -> tuple[str, TableRows, str]:
    table = _table(rng)
    a, b = table[1][0], table[2][0]
    forms = (f"table_sum({a}, none), table_max(#0, none)", f"table_max(#0, none)",
             f"add(1, 2), table_min(#0, none)", f"table_sum({a}, none), table_average({b}, none), table_max(#0, none)",
             f"table_sum({a}, none), add(#0, 1), table_min(#1, none), add(#2, #0)",
             f"table_sum({a}, none), table_max(#5, none)", f"table_sum({a}, none), table_max(#0, #0)")
    return rng.choice(forms), table, "finqa"


def _empty_rows(rng: random.Random) -> tuple[str, TableRows, str]:
    table = _table(rng)
    table.insert(rng.randrange(0, len(table) + 1), [])
    forms = (f"table_sum({table[-1][0] if table[-1] else table[1][0]}, none)", f"add(1, 2)",
             f"add(1, 2), table_max({_NAMES[0]}, none)")
    return rng.choice(forms), table, "finqa"


def _row_aggregates(rng: random.Random) -> tuple[str, TableRows, str]:
    cells = rng.randint(0, 9)
    row = [rng.choice((f"{rng.uniform(0, 1):.17f}", f"1e{rng.randint(10, 20)}", _num(rng), "0.1", "0.2", "0.3"))
           for _ in range(cells)]
    table = [["", *map(str, range(cells))], ["row", *row]]
    op = rng.choice(("sum", "max", "min", "average"))
    dummy = rng.choice(("none", "none", "none", "5", "#0", "row", "const_100"))  # the official ignores it
    return f"table_{op}(row, {dummy})", table, "finqa"


def _round_once(rng: random.Random) -> tuple[str, TableRows, str]:
    a, b, c = rng.randint(1, 999), rng.randint(1, 999), rng.randint(1, 99)
    forms = (f"divide({a}, {b}), multiply(#0, {c})", f"divide({a}, 3), multiply(#0, 3)",
             f"divide({a}, 7), add(#0, #0), multiply(#1, const_100)", f"divide(1, {b}), multiply(#0, {b})",
             f"add(0.1, 0.2), multiply(#0, 1e5)", f"divide({a}, {b}), subtract(#0, 0.000004)")
    return rng.choice(forms), None, "finqa"


def _nonfinite(rng: random.Random) -> tuple[str, TableRows, str]:
    a = _num(rng)
    forms = (f"multiply(1e308, 10)", f"add(inf, {a})", f"subtract(inf, inf)", f"exp(10, 400)",
             f"multiply(1e200, 1e200), divide({a}, #0)", f"add(nan, 1)", f"multiply(-1e308, 10)",
             f"exp(1e200, 2)", f"divide(1e-300, 1e300)", f"multiply(1e308, 10), greater(#0, {a})")
    return rng.choice(forms), None, "finqa"


def _bare(rng: random.Random) -> tuple[str, TableRows, str]:
    token = rng.choice((_num(rng), "206588", "const_5", "const_m1", "5%", "1,234", "abc", "#0", " 12", "inf", "const5"))
    return token, None, rng.choice(("convfinqa", "convfinqa", "finqa"))


def _boundary_value(rng: random.Random) -> float:
    """A float on or within a few ulps of a 5-place tie, or an exact binary tie m / 64."""
    kind = rng.random()
    if kind < 0.3:
        m = 2 * rng.randint(0, 10 ** rng.randint(1, 7)) + 1
        return math.copysign(m / 64, rng.choice((1.0, -1.0)))
    digits = rng.randint(1, 10)
    k = rng.randrange(10 ** (digits - 1), 10 ** digits)
    x = float(f"{10 * k + 5}e-6")
    for _ in range(rng.choice((0, 0, 1, 2, 3))):
        x = math.nextafter(x, rng.choice((math.inf, -math.inf)))
    return -x if rng.random() < 0.3 else x


def _boundaries(rng: random.Random) -> tuple[str, TableRows, str]:
    x = _boundary_value(rng)
    kind = rng.random()
    if kind < 0.25:
        return f"add({x!r}, 0)", None, "finqa"
    if kind < 0.45 and (x * 64).is_integer():
        return f"divide({int(x * 64)}, 64)", None, "finqa"
    if kind < 0.7:
        b = rng.choice((3, 7, 1.1, 0.3, 13, 100, 1e-3))
        return f"multiply({x / b!r}, {b!r})", None, "finqa"
    if kind < 0.85:
        b = rng.choice((0.1, 1.7, 250.25, 1e6))
        return f"add({x - b!r}, {b!r})", None, "finqa"
    a = rng.randint(1, 9)
    table = [["", "a", "b"], ["r", repr(x - a), str(a)]]
    return "table_sum(r, none)", table, "finqa"


def _refusals(rng: random.Random) -> tuple[str, TableRows, str]:
    a, b = _num(rng), _num(rng)
    forms = (f"foo({a}, {b})", f"add({a})", f"add({a}, {b}, 3)", f"add({a}, {b}", f"add({a}, x{b})", "",
             f"add(({a}), {b})", f"table_sum(missing row, none)", f"table_sum({a}, none)", f"Add({a}, {b})",
             f"add({a}, {b}))", f"add({a}, {b}) add(#0, 1)", f"add({a}, {b}), EOF", f"add({a}|{b}, 1)",
             f"add({a}, {b}), foo(#0, 1)", f"add({a}, none)", f"divide({a}, {b}), exp(#0, x)")
    return rng.choice(forms), _table(rng) if rng.random() < 0.5 else None, "finqa"


def _long_chain(rng: random.Random) -> tuple[str, TableRows, str]:
    steps = [f"{_op(rng)}({_num(rng)}, {_num(rng)})"]
    for index in range(1, rng.randint(10, 60)):
        left = f"#{rng.randrange(index)}"
        right = f"#{rng.randrange(index)}" if rng.random() < 0.4 else _num(rng)
        op = rng.choice(_ARITHMETIC + _ARITHMETIC[:2])  # sums twice as often
        if FINQA_OPS[op].algebra == "product" and right.startswith("#"):
            right = _num(rng)
        steps.append(f"{op}({left}, {right})" if rng.random() < 0.5 else f"{op}({right}, {left})")
    return ", ".join(steps), None, "finqa"


def _hostile_tables(rng: random.Random) -> tuple[str, TableRows, str]:
    kind = rng.random()
    if kind < 0.1:
        return f"table_sum({_NAMES[0]}, none)", None, "finqa"
    rows = rng.choice((1, 2, 3, 5, 8, 20, 200))
    table = [[rng.choice(_NAMES + ("", " ", "a|b", "x)y", "naïve", "ＥＰＳ", "row " * 20))]
             + [_cell(rng) for _ in range(rng.randint(0, 6))] for _ in range(rows)]
    if rng.random() < 0.2:
        table[rng.randrange(rows)].append("9" * rng.randint(300, 500))
    name = table[rng.randrange(rows)][0]
    op = rng.choice(("sum", "max", "min", "average"))
    return f"table_{op}({name}, none)", table, rng.choice(("finqa", "convfinqa"))


def flat_contract(rng: random.Random) -> FlatArgs:
    """A small valid flat program with one contract check broken (or none)."""
    steps = rng.randint(1, 4)
    ops: list[float] = [float(rng.choice((0, 1, 2, 3, 4, 5))) for _ in range(steps)]
    k1: list[float] = [0.0] * steps
    n1: list[float] = [float(rng.randint(1, 99)) for _ in range(steps)]
    k2: list[float] = [0.0] * steps
    n2: list[float] = [float(rng.randint(1, 9)) for _ in range(steps)]
    values: list[float] = [float(rng.randint(-50, 50)) for _ in range(rng.randint(0, 6))]
    offset: list[float] = [0.0] * steps
    length: list[float] = [0.0] * steps
    for step in range(1, steps):
        if rng.random() < 0.6 and ops[step - 1] != 5:
            k1[step], n1[step] = 1.0, float(step - 1)
    last = steps - 1
    count = steps
    breakage = rng.choice(("none", "none", "no_steps", "negative_steps", "long_steps", "short_list", "op_code",
                           "op_fraction", "table_kind", "slice", "empty_slice", "bad_cell", "nan_literal",
                           "inf_literal", "forward_ref", "self_ref", "fraction_ref", "negative_ref", "bool_ref",
                           "row_kind_in_arith", "unknown_kind", "table_ok", "zero_divide"))
    if breakage == "no_steps":
        count = 0
    elif breakage == "negative_steps":
        count = -rng.randint(1, 3)
    elif breakage == "long_steps":
        count = steps + rng.randint(1, 3)
    elif breakage == "short_list":
        rng.choice((ops, k1, n1, k2, n2, offset, length)).pop()
    elif breakage in ("op_code", "op_fraction"):
        ops[last] = float(rng.choice((10, 11, -1, 255))) if breakage == "op_code" else 2.5
    elif breakage in ("table_kind", "slice", "empty_slice", "bad_cell", "table_ok"):
        ops[last] = float(rng.randint(6, 9))
        k1[last] = 0.0 if breakage == "table_kind" else 2.0
        values = values or [1.0, 2.0]
        offset[last], length[last] = 0.0, float(len(values))
        if breakage == "slice":
            offset[last], length[last] = float(rng.randint(0, 3)), float(len(values) + rng.randint(1, 3))
        elif breakage == "empty_slice":
            length[last] = 0.0
        elif breakage == "bad_cell":
            values[rng.randrange(len(values))] = rng.choice((math.inf, -math.inf, math.nan))
    elif breakage in ("nan_literal", "inf_literal"):
        k1[last], n1[last] = 0.0, math.nan if breakage == "nan_literal" else rng.choice((math.inf, -math.inf))
    elif breakage in ("forward_ref", "self_ref", "fraction_ref", "negative_ref"):
        k2[last] = 1.0
        n2[last] = {"forward_ref": float(last + 1), "self_ref": float(last), "fraction_ref": 0.5,
                    "negative_ref": -1.0}[breakage]
    elif breakage == "bool_ref" and steps > 1:
        ops[0], k1[last], n1[last] = 5.0, 1.0, 0.0
        ops[last] = float(rng.choice((0, 1, 2, 3)))
    elif breakage == "row_kind_in_arith":
        k2[last] = 2.0
    elif breakage == "unknown_kind":
        k1[last] = float(rng.choice((3, -1, 9)))
    elif breakage == "zero_divide":
        ops[last], k2[last], n2[last] = 3.0, 0.0, rng.choice((0.0, -0.0))
    return FlatArgs(ops, k1, n1, k2, n2, values, offset, length, count)


DRAWS: dict[Family, Draw] = {
    Family.TOKENIZER: _tokenizer, Family.LITERALS: _literals, Family.THOUSANDS: _thousands,
    Family.PERCENT: _percent, Family.CONSTANTS: _constants, Family.REFERENCES: _references,
    Family.DIVISION: _division, Family.EXPONENT: _exponent, Family.GREATER: _greater,
    Family.TABLE_CELLS: _table_cells, Family.DUPLICATE_ROWS: _duplicate_rows, Family.STALE_ROW: _stale_row,
    Family.EMPTY_ROWS: _empty_rows, Family.ROW_AGGREGATES: _row_aggregates, Family.ROUND_ONCE: _round_once,
    Family.NONFINITE: _nonfinite, Family.BARE_NUMBERS: _bare, Family.BOUNDARIES: _boundaries,
    Family.REFUSALS: _refusals, Family.LONG_CHAINS: _long_chain, Family.HOSTILE_TABLES: _hostile_tables,
}


def generated(family: Family, seed: int, index: int) -> EvalCase:
    """Case ``index`` of a generated family (independent of every other case)."""
    rng = random.Random(f"{seed}:{family.value}:{index}")
    if family is Family.FLAT_CONTRACT:
        return EvalCase(f"{family.value}:{seed}:{index}", family, "finqa", "", None, flat_contract(rng))
    program, table, dialect = DRAWS[family](rng)
    return EvalCase(f"{family.value}:{seed}:{index}", family, dialect, program, table)


def default_size(family: Family) -> int:
    if family in GOLD:
        return len(_gold(family))
    return current().evaluator_generated_cases * (4 if family is Family.BOUNDARIES else 1)


def _allocate(total: int, sizes: dict[Family, int]) -> dict[Family, int]:
    """Split ``total`` by the families' default sizes (largest remainder, deterministic)."""
    whole = sum(sizes.values())
    shares = {family: total * size / whole for family, size in sizes.items()}
    counts = {family: int(share) for family, share in shares.items()}
    for family in sorted(shares, key=lambda f: (int(shares[f]) - shares[f], f.value))[:total - sum(counts.values())]:
        counts[family] += 1
    return counts


def suite(name: str = "all", cases: Optional[int] = None, seed: int = 0, flat: bool = False) -> Iterator[EvalCase]:
    """The cases of a suite, family by family: every case of the default size, or ``cases`` of them.

    With fewer cases than the default, each family gets its share (gold: a seeded sample in
    dataset order); with more, gold stays whole and the generated families grow. The
    ``flat_contract`` family is only in the suites of the flat protocol (``flat``).
    """
    families = tuple(f for f in SUITES[name] if flat or f is not Family.FLAT_CONTRACT)
    sizes = {family: default_size(family) for family in families}
    if cases is None:
        counts = sizes
    else:
        counts = _allocate(cases, sizes)
        gold_total = sum(sizes[f] for f in families if f in GOLD)
        if cases > sum(sizes.values()) and gold_total:
            counts = {f: sizes[f] for f in families if f in GOLD}
            rest = _allocate(cases - gold_total, {f: sizes[f] for f in families if f not in GOLD})
            counts.update(rest)
    for family in families:
        count = counts.get(family, 0)
        if family in GOLD:
            gold = _gold(family)
            if count < len(gold):
                picked = sorted(random.Random(f"{seed}:{family.value}").sample(range(len(gold)), count))
                gold = tuple(gold[index] for index in picked)
            yield from gold[:count]
        else:
            for index in range(count):
                yield generated(family, seed, index)


def chunks(cases: Iterator[EvalCase], size: int) -> Iterator[list[EvalCase]]:
    """The suite in lists of ``size`` cases (the unit of work a pool could share out)."""
    chunk: list[EvalCase] = []
    for case in cases:
        chunk.append(case)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def families_of(name: str, flat: bool = False) -> Sequence[Family]:
    return tuple(f for f in SUITES[name] if flat or f is not Family.FLAT_CONTRACT)
