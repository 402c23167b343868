"""A FinQA evaluator port in plain Python, written for progexec's check-evaluator tests from SPEC §1-2.

The official ``eval_program`` loop, with the final rounding (or every step's) done the way classic
Python ports do it; run as ``--python finqa_eval:NAME`` (tests/ports on the path). ``correct`` is the
official ``round(x, 5)``; the others are the classic ports of docs/check-evaluator.md:
``naive`` (``round(x * 1e5) / 1e5``), ``currency`` (``Decimal(str(x)).quantize(Decimal("0.00001"),
ROUND_HALF_UP)``), ``per_step`` (every result rounded to 5 places).
"""

from __future__ import annotations

import decimal
from typing import Any, Callable, Optional

OPS = ("add", "subtract", "multiply", "divide", "exp", "greater", "table_max", "table_min", "table_sum",
       "table_average")
NA = "n/a"


def _str_to_num(text: str, marker: str) -> Any:
    text = text.replace(",", "")
    try:
        return float(text)
    except ValueError:
        pass
    if "%" in text:
        try:
            return float(text.replace("%", "")) / 100.0
        except ValueError:
            return NA
    if marker in text:
        text = text.replace("const_", "")
        return float(-1 if text == "m1" else text)
    return NA


def _row(cells: list[str], marker: str) -> Any:
    numbers = []
    for cell in cells:
        value = _str_to_num(cell.replace("$", "").strip().split("(")[0].strip(), marker)
        if value == NA:
            return NA
        numbers.append(value)
    return numbers


def _tokens(program: Any) -> list[str]:
    if isinstance(program, list):
        return program
    tokens: list[str] = []
    for piece in program.split(", "):
        current = ""
        for ch in piece:
            if ch == ")" and current:
                tokens.append(current)
                current = ""
            current += ch
            if ch in "()":
                tokens.append(current)
                current = ""
        if current:
            tokens.append(current)
    return tokens + ["EOF"]


def _arith(op: str, a: Any, b: Any) -> Any:
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


def _table(op: str, row: list[Any]) -> Any:
    if op == "table_max":
        return max(row)
    if op == "table_min":
        return min(row)
    if op == "table_sum":
        return sum(row)
    return sum(row) / len(row)


def _eval(program: Any, table: Optional[list[list[str]]], dialect: str,
          finish: Callable[[float], float], per_step: bool) -> tuple[bool, Any]:
    marker = "const_" if dialect == "convfinqa" else "const"
    body = _tokens(program)[:-1]
    try:
        if dialect == "convfinqa" and len(body) == 1:
            number = _str_to_num(body[0], marker)
            return (False, None) if number == NA else (True, finish(number))
        for index, token in enumerate(body):
            if index % 4 == 0 and token.strip("(") not in OPS:
                return False, None
            if (index + 1) % 4 == 0 and token != ")":
                return False, None
        result: Any = NA
        results: dict[int, Any] = {}
        row: Any = None
        for index, step in enumerate("|".join(body).split(")")[:-1]):
            step = step.strip()
            if len(step.split("(")) > 2:
                return False, None
            op = step.split("(")[0].strip("|").strip()
            args = step.split("(")[1].strip("|").strip()
            arg1, arg2 = args.split("|")[0].strip(), args.split("|")[1].strip()
            if op in OPS[:6]:
                a, b = (results[int(arg.replace("#", ""))] if "#" in arg else _str_to_num(arg, marker)
                        for arg in (arg1, arg2))
                if NA in (a, b):
                    return False, None
                result = _arith(op, a, b)
            elif "table" in op:
                rows = {line[0]: line[1:] for line in table}  # type: ignore[union-attr]
                if "#" in arg1:
                    results[int(arg1.replace("#", ""))]
                else:
                    if arg1 not in rows:
                        return False, None
                    row = _row(rows[arg1], marker)
                if row == NA:
                    return False, None
                result = _table(op, row)
            if per_step and isinstance(result, float):
                result = round(result, 5)
            results[index] = result
        if result in ("yes", "no"):
            return True, result
        if result == NA:
            return True, None
        return True, finish(result)
    except Exception:  # the official bare except: anything else is invalid
        return False, None


def _currency(x: float) -> float:
    if x != x or x in (float("inf"), float("-inf")):
        return x
    return float(decimal.Decimal(str(x)).quantize(decimal.Decimal("0.00001"), rounding=decimal.ROUND_HALF_UP))


def correct(program: Any, table: Any, dialect: str) -> tuple[bool, Any]:
    return _eval(program, table, dialect, lambda x: round(x, 5), False)


def naive(program: Any, table: Any, dialect: str) -> tuple[bool, Any]:
    return _eval(program, table, dialect, lambda x: round(x * 1e5) / 1e5, False)


def currency(program: Any, table: Any, dialect: str) -> tuple[bool, Any]:
    return _eval(program, table, dialect, _currency, False)


def per_step(program: Any, table: Any, dialect: str) -> tuple[bool, Any]:
    return _eval(program, table, dialect, lambda x: round(x, 5), True)
