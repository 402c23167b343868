"""An independent, deliberately plain implementation of SPEC §1-2 (the official FinQA /
ConvFinQA evaluator), written from the SPEC text for differential fuzzing.

Nothing here imports progexec's interpreter, arithmetic or official model: the only
shared thing is Python itself, whose dynamic operators the SPEC names as the official
semantics ("float64, Python semantics"). Values are whatever Python produces — floats,
the strings ``"yes"``/``"no"``, even complex numbers or concatenated strings — and any
exception means "invalid", as in the official evaluator.

Besides the official verdict, :func:`reference_eval` records whether the run stayed
*clean* — only finite real floats, no string arithmetic, no stale-row reuse, no
over-long literal — which is exactly when the progexec contract (SPEC §6) must answer
with the same value instead of refusing.

:func:`error_bound` derives a sound forward error bound for a float64 run of
``add/subtract/multiply/divide/greater`` and table ops (no ``exp``), from operand
magnitudes, for checking the float result against the exact oracle.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

OPS = ("add", "subtract", "multiply", "divide", "exp", "greater",
       "table_max", "table_min", "table_sum", "table_average")
ARITH = frozenset(OPS[:6])
TABLES = frozenset(OPS[6:])
CONTRACT_MAX_LITERAL = 400  # SPEC §6 / docs/robustness.md: longer literals and cells are refused


class Invalid(Exception):
    """Any failure of the official evaluator: the whole program is invalid."""


# --------------------------------------------------------------------------- tokens (SPEC §1 "Token form")

def ref_tokenize(text: str) -> list[str]:
    """Split on ``", "`` only; in each piece, cut after ``(`` and before and after ``)``; append ``EOF``."""
    out: list[str] = []
    for piece in text.split(", "):
        buf = ""
        for ch in piece:
            if ch == ")":
                if buf:
                    out.append(buf)
                out.append(")")
                buf = ""
            elif ch == "(":
                out.append(buf + "(")
                buf = ""
            else:
                buf += ch
        if buf:
            out.append(buf)
    return out + ["EOF"]


# --------------------------------------------------------------------------- numbers (SPEC §1 "Argument -> number")

def ref_number(arg: str, dialect: str = "finqa") -> float:
    """The four-rule argument reading; raise Invalid when no rule gives a number."""
    without_commas = arg.replace(",", "")
    try:
        return float(without_commas)
    except ValueError:
        pass
    if "%" in without_commas:
        try:
            return float(without_commas.replace("%", "")) / 100.0
        except ValueError:
            raise Invalid(f"bad percentage {arg!r}") from None
    marker = "const_" if dialect == "convfinqa" else "const"
    if marker in without_commas:
        rest = without_commas.replace("const_", "")
        if rest == "m1":
            rest = "-1"
        try:
            return float(rest)
        except ValueError:
            raise Invalid(f"bad constant {arg!r}") from None
    raise Invalid(f"not a number {arg!r}")


def ref_cell(cell: str, dialect: str = "finqa") -> float:
    """SPEC §1 "Table ops": drop ``$``, strip, keep text before the first ``(``, strip, then ref_number."""
    return ref_number(cell.replace("$", "").strip().split("(")[0].strip(), dialect)


# --------------------------------------------------------------------------- evaluation

@dataclass
class RefResult:
    """The official verdict (``valid``, ``value``: a rounded float, ``"yes"``/``"no"`` or None for ``n/a``),
    ``clean`` (the contract must answer the same), and the float literals/rows used, per step, for bounds."""

    valid: bool
    value: Any = None
    clean: bool = False
    why: str = ""
    raw: Any = None
    steps: list[tuple[str, list[Any]]] = field(default_factory=list)


def _ref_index(arg: str) -> int:
    """``int(arg without '#')`` — Python's int, so ``#1_0`` and `` #3`` read as it reads them."""
    return int(arg.replace("#", ""))


def reference_eval(tokens: Sequence[str], table: Any, dialect: str = "finqa") -> RefResult:
    """Run a token list (``EOF`` last) the way SPEC §1-2 describes; never raises."""
    state = {"clean": True}
    try:
        return _run(list(tokens), table, dialect, state)
    except Invalid as error:
        return RefResult(False, None, False, str(error))
    except Exception as error:  # the official bare except
        return RefResult(False, None, False, f"{type(error).__name__}: {error}")


def _unclean(state: dict[str, bool]) -> None:
    state["clean"] = False


def _run(tokens: list[str], table: Any, dialect: str, state: dict[str, bool]) -> RefResult:
    body = tokens[:-1]  # the official code drops the last token, whatever it is
    if dialect == "convfinqa" and len(body) == 1:
        value = round(float(ref_number(body[0], dialect)), 5)
        finite = isinstance(value, float) and math.isfinite(value)
        return RefResult(True, value, finite and len(body[0]) <= CONTRACT_MAX_LITERAL, raw=value)
    # structure: every 4th token (from 0) is an op (after stripping parentheses), every 4th from 3 is ")"
    for position, token in enumerate(body):
        if position % 4 == 0 and token.strip("(") not in OPS:
            return RefResult(False, None, False, f"token {position} is not an op")
        if position % 4 == 3 and token != ")":
            return RefResult(False, None, False, f"token {position} is not ')'")
    # steps: the tokens joined with '|', cut at ')'; the text after the last ')' is dropped
    chunks = "|".join(body).split(")")[:-1]
    results: dict[int, Any] = {}
    result: Any = "n/a"
    current_row: list[float] | None = None
    current_cells: list[str] = []
    steps: list[tuple[str, list[Any]]] = []
    for index, chunk in enumerate(chunks):
        parts = chunk.strip().split("(")
        if len(parts) > 2:
            raise Invalid(f"step {index} has two '('")
        op = parts[0].strip("|").strip()
        fields = parts[1].strip("|").strip().split("|")
        a_text, b_text = fields[0].strip(), fields[1].strip()
        if op in ARITH:
            a = results[_ref_index(a_text)] if "#" in a_text else _literal(a_text, dialect, state)
            b = results[_ref_index(b_text)] if "#" in b_text else _literal(b_text, dialect, state)
            if not (type(a) is float and type(b) is float):
                _unclean(state)  # a yes/no string (or a complex) used as an operand
            steps.append((op, [a_text, b_text, a, b]))
            result = _apply(op, a, b)
            results[index] = result
            if op != "greater":
                _check_number(result, state)
        elif "table" in op:
            rows = {}
            for row in table:  # an empty row fails on row[0]: the whole program is invalid
                rows[row[0]] = row[1:]
            if "#" in a_text:
                results[_ref_index(a_text)]  # looked up (may fail), then the previous row is reused
                _unclean(state)
                if current_row is None:
                    raise Invalid("a table op on a reference with no earlier table op")
            else:
                if a_text not in rows:
                    raise Invalid(f"no row {a_text!r}")
                cells = rows[a_text]
                if any(len(cell) > CONTRACT_MAX_LITERAL for cell in cells):
                    _unclean(state)
                current_row = [ref_cell(cell, dialect) for cell in cells]
                current_cells = [cell.replace("$", "").strip().split("(")[0].strip() for cell in cells]
            row = current_row
            steps.append((op, [a_text, list(row), list(current_cells)]))
            if op == "table_max":
                result = max(row)
            elif op == "table_min":
                result = min(row)
            elif op == "table_sum":
                result = sum(row)
            else:
                result = sum(row) / len(row)
            results[index] = result
            _check_number(result, state)
            if any(not math.isfinite(value) for value in row):
                _unclean(state)
        # an op that passed the structure check always lands in one of the two branches
    if result in ("yes", "no", "n/a") and isinstance(result, str):
        value = None if result == "n/a" else result
        return RefResult(True, value, state["clean"] and value is not None, raw=result, steps=steps)
    rounded = round(result, 5)
    return RefResult(True, rounded, state["clean"], raw=result, steps=steps)


def _literal(text: str, dialect: str, state: dict[str, bool]) -> float:
    value = ref_number(text, dialect)
    if len(text) > CONTRACT_MAX_LITERAL or not math.isfinite(value):
        _unclean(state)
    return value


def _check_number(value: Any, state: dict[str, bool]) -> None:
    if not (type(value) is float and math.isfinite(value)):
        _unclean(state)


def _apply(op: str, a: Any, b: Any) -> Any:
    if op == "add":
        return a + b
    if op == "subtract":
        return a - b
    if op == "multiply":
        return a * b
    if op == "divide":
        return a / b
    if op == "exp":
        return a ** b
    return "yes" if a > b else "no"


# --------------------------------------------------------------------------- equality helpers

def same_value(x: Any, y: Any) -> bool:
    """Equality that treats NaN as equal to NaN and tells 0.0 from -0.0 and 1.0 from True."""
    if isinstance(x, bool) or isinstance(y, bool):
        return type(x) is type(y) and x == y
    if isinstance(x, float) and isinstance(y, float):
        if math.isnan(x) or math.isnan(y):
            return math.isnan(x) and math.isnan(y)
        return x == y and math.copysign(1.0, x) == math.copysign(1.0, y)
    return type(x) is type(y) and x == y


# --------------------------------------------------------------------------- error bounds

U = Fraction(1, 2**53)
"""Unit roundoff of binary64 (round to nearest)."""

ETA = Fraction(1, 2**1074)
"""An absolute allowance per operation for underflow into the subnormal range (at most half of it is used)."""


@dataclass(frozen=True)
class Bound:
    """The exact rational value of each step (``exact``) and a bound on |float - exact| (``error``)."""

    exact: Fraction | bool
    error: Fraction
    computed: float | bool


def error_bounds(result: RefResult, reading: str) -> list[Bound] | None:
    """Per-step exact values and sound forward error bounds, or None when the program uses ``exp``,
    a string operand or anything non-finite (no bound is claimed there).

    ``reading`` is ``"float"`` (a literal is the double the evaluator read: no representation error)
    or ``"decimal"`` (a literal is the decimal it spells: representation error up to u|x| + eta).
    Each float op is fl(x op y) = (x op y)(1 + d) + e with |d| <= u, |e| <= eta; errors propagate by
    |xy - XY| <= |x||y - Y| + |Y||x - X| and |x/y - X/Y| <= (|x||y - Y| + |y||x - X|) / (|y| |Y|).
    """
    bounds: list[Bound] = []

    def literal(text: str, value: float) -> tuple[Fraction, Fraction]:
        if reading == "float":
            return Fraction(value), Fraction(0)
        exact = _decimal_reading(text)
        return exact, abs(Fraction(value) - exact)

    for op, data in result.steps:
        if op == "exp":
            return None
        if op in TABLES:
            row, texts = data[1], data[2]
            if not all(type(v) is float and math.isfinite(v) for v in row):
                return None
            exact_cells = [Fraction(v) for v in row] if reading == "float" else [_decimal_reading(t) for t in texts]
            cell_errors = [abs(Fraction(v) - x) for v, x in zip(row, exact_cells)]
            if op in ("table_max", "table_min"):
                pick = max if op == "table_max" else min
                computed = pick(row)
                exact = pick(exact_cells)
                error = abs(Fraction(computed) - exact)  # both known exactly
                bounds.append(Bound(exact, error, computed))
                continue
            running, running_exact, running_error = 0.0, Fraction(0), Fraction(0)
            for v, x, e in zip(row, exact_cells, cell_errors):
                running = running + v
                running_exact += x
                running_error += e + U * abs(Fraction(running)) * 2 + ETA
            if op == "table_average":
                n = len(row)
                computed = running / n
                exact = running_exact / n
                error = running_error / n + U * abs(Fraction(computed)) * 2 + ETA
            else:
                computed, exact, error = running, running_exact, running_error
            if not math.isfinite(computed):
                return None
            bounds.append(Bound(exact, error, computed))
            continue
        a_text, b_text, a, b = data
        operands: list[tuple[Fraction, Fraction, float]] = []
        for text, value in ((a_text, a), (b_text, b)):
            if type(value) is not float or not math.isfinite(value):
                return None
            if "#" in text:
                source = bounds[_ref_index(text)]
                if isinstance(source.exact, bool):
                    return None
                operands.append((source.exact, source.error, value))
            else:
                exact, error = literal(text, value)
                operands.append((exact, error, value))
        (xa, ea, fa), (xb, eb, fb) = operands
        Fa, Fb = Fraction(fa), Fraction(fb)
        if op == "greater":
            bounds.append(Bound(xa > xb, ea + eb, fa > fb))
            continue
        computed = _apply(op, fa, fb) if op != "divide" or fb != 0 else None
        if computed is None or not math.isfinite(computed):
            return None
        Fc = abs(Fraction(computed))
        if op in ("add", "subtract"):
            exact = xa + xb if op == "add" else xa - xb
            error = ea + eb + U * 2 * Fc + ETA
        elif op == "multiply":
            exact = xa * xb
            error = abs(Fa) * eb + (abs(Fb) + eb) * ea + U * 2 * Fc + ETA
        else:
            if xb == 0 or abs(Fb) - eb <= 0:
                return None
            exact = xa / xb
            error = (abs(Fa) * eb + abs(Fb) * ea) / (abs(Fb) * (abs(Fb) - eb)) + U * 2 * Fc + ETA
        bounds.append(Bound(exact, error, computed))
    return bounds


def _decimal_reading(text: str) -> Fraction:
    """The exact decimal a literal spells (SPEC's exact-decimal reading), by the same four rules."""
    cleaned = text.replace(",", "")
    try:
        float(cleaned)
        return Fraction(cleaned.strip().replace("_", ""))
    except ValueError:
        pass
    if "%" in cleaned:
        return Fraction(cleaned.replace("%", "").strip().replace("_", "")) / 100
    rest = cleaned.replace("const_", "")
    return Fraction("-1" if rest == "m1" else rest.strip().replace("_", ""))
