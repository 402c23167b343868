#!/usr/bin/env python3
"""Parse + execute every embedded FinQA gold program: progexec beside a plain split-based executor.

Prints one table of programs/second and the ratio to the baseline, all measured in this run.
The baseline is a minimal re-implementation of the official split-and-loop executor written for
this benchmark (no grammar, no statuses): the floor that a grammar-defined parser is measured against.

    python benchmarks/bench_core.py [--repeat 5] [--warm]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from progexec.datasets import get_dataset
from progexec.corpus import finqa_records
from progexec.grammar.parse import _parser, parse_program
from progexec.core.arithmetic import Float64, official_str_to_num
from progexec.interp.evaluate import evaluate
from progexec.grammar.tokens import official_tokenize, step_from_parts
from progexec.interp.official import official_verdict
from progexec.interp.run import execute_text


WARM = False


def split_baseline(program: str, table: Any) -> Any:
    """A bare split-based executor in the shape of the official loop (the speed floor)."""
    results: list[Any] = []
    for step in program.split("), "):
        op, _, rest = step.partition("(")
        a, b = rest.rstrip(")").split(", ")
        if op.startswith("table"):
            row = [_num(c.replace("$", "").strip().split("(")[0].strip()) for c in {r[0]: r[1:] for r in table}[a]]
            value: Any = (max(row) if op == "table_max" else min(row) if op == "table_min"
                          else sum(row) if op == "table_sum" else sum(row) / len(row))
        else:
            x = results[int(a[1:])] if a.startswith("#") else _num(a)
            y = results[int(b[1:])] if b.startswith("#") else _num(b)
            value = (x + y if op == "add" else x - y if op == "subtract" else x * y if op == "multiply"
                     else x / y if op == "divide" else x ** y if op == "exp" else ("yes" if x > y else "no"))
        results.append(value)
    final = results[-1]
    return final if isinstance(final, str) else round(final, 5)


def _num(text: str) -> float:
    text = text.replace(",", "")
    if text.startswith("const_"):
        text = "-1" if text == "const_m1" else text[6:]
    if text.endswith("%"):
        return float(text[:-1]) / 100.0
    return float(text)


def _official_loop(program: str, table: Any) -> Any:
    """The official evaluator's own shape: tokenize, then the join/split loop (our model of it)."""
    return official_verdict(official_tokenize(program), table, get_dataset("finqa")).value


def _lark_only(program: str, table: Any) -> Any:
    return evaluate(_parser().parse(program), Float64(), table).answer()  # type: ignore[arg-type]


def _progexec(program: str, table: Any) -> Any:
    return execute_text(program, table, get_dataset("finqa")).outcome.answer()


def _progexec_parse_eval(program: str, table: Any) -> Any:
    return evaluate(parse_program(program), Float64(), table).answer()


def _clear_caches() -> None:
    step_from_parts.cache_clear()
    official_str_to_num.cache_clear()


def _time(function: Callable[[str, Any], Any], items: list[tuple[str, Any]], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        if not WARM:
            _clear_caches()
        start = time.perf_counter()
        for program, table in items:
            function(program, table)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--warm", action="store_true", help="keep the step and literal caches between passes")
    args = parser.parse_args()
    items = [(r["program"], r["table"]) for r in finqa_records()]
    for program, table in items:  # the baseline must agree before it is a baseline
        assert split_baseline(program, table) == _progexec(program, table), program
    rows = [
        ("split baseline (no grammar, no statuses)", split_baseline),
        ("official loop shape (tokenize + join/split)", _official_loop),
        ("progexec parse_program + evaluate", _progexec_parse_eval),
        ("progexec execute_text (+ official verdict)", _progexec),
        ("Lark LALR parse + evaluate (no fast path)", _lark_only),
    ]
    global WARM
    WARM = args.warm
    timings = [(name, _time(function, items, args.repeat)) for name, function in rows]
    base = timings[0][1]
    caches = "warm caches (steps and literals seen before)" if WARM else "cold caches (cleared before each pass)"
    print(f"{len(items)} FinQA gold programs, best of {args.repeat}, {caches}\n")
    print(f"| {'executor':<46} | {'programs/s':>11} | {'µs/program':>10} | {'× baseline time':>15} |")
    print(f"|{'-' * 48}|{'-' * 13}|{'-' * 12}|{'-' * 17}|")
    for name, seconds in timings:
        print(f"| {name:<46} | {len(items) / seconds:>11,.0f} | {seconds / len(items) * 1e6:>10.1f} | "
              f"{seconds / base:>15.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
