#!/usr/bin/env python3
"""Time ``progexec report`` on the embedded FinQA corpus, stage by stage (goal: <= 3 s in all).

    python benchmarks/bench_report.py
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from progexec.corpus import finqa_records
from progexec.datasets.finqa import finqa_items
from progexec.grammar import parse_program
from progexec.core.arithmetic import Float64
from progexec.interp.evaluate import evaluate
from progexec.oracle.reference import exact_answer
from progexec.report import build_report, html_report, json_report, markdown


def _stage(name: str, function, rows: list[tuple[str, float]]) -> object:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = function()
    rows.append((name, time.perf_counter() - start))
    return result


def main() -> int:
    rows: list[tuple[str, float]] = []
    records = finqa_records()
    items = list(finqa_items())
    programs = _stage("parse (8,148 programs)", lambda: [parse_program(r["program"]) for r in records], rows)
    _stage("float64 evaluate", lambda: [evaluate(p, Float64(), r["table"]) for p, r in zip(programs, records)], rows)
    _stage("exact oracle, decimal reading", lambda: [exact_answer(p, r["table"]) for p, r in zip(programs, records)], rows)
    _stage("exact oracle, float reading",
           lambda: [exact_answer(p, r["table"], "float") for p, r in zip(programs, records)], rows)
    start = time.perf_counter()
    report = build_report(items, "the embedded FinQA corpus (test, dev, train)")
    analysed = time.perf_counter() - start
    rows.append(("build_report (everything above + rounders + findings)", analysed))
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        for name, render in (("report.json", json_report.render), ("report.md", markdown.render),
                             ("report.html", html_report.render)):
            (Path(folder) / name).write_text(render(report), encoding="utf-8")
        rows.append(("render and write JSON + Markdown + HTML", time.perf_counter() - start))
    total = analysed + rows[-1][1]
    print(f"| {'stage':<56} | {'seconds':>8} |\n|{'-' * 58}|{'-' * 10}|")
    for name, seconds in rows:
        print(f"| {name:<56} | {seconds:>8.3f} |")
    print(f"| {'progexec report, total (build + write)':<56} | {total:>8.3f} |")
    print(f"\ngoal <= 3 s: {'met' if total <= 3.0 else 'NOT met'} on this machine")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
