#!/usr/bin/env python3
"""Speed of the MathQA side: executing every embedded MathQA problem, and sandboxed snippets per second.

Prints, all measured in this run: problems/second for ``execute_all`` on the embedded test + dev
splits (parse, bind, evaluate, option selection), and snippets/second for ``run_snippets`` on the
gold MathQA-Python code of the first N kept test items, with 1 and with all cores.

    python benchmarks/bench_mathqa.py [--snippets 100]
"""

from __future__ import annotations

import argparse
import time

from progexec.datasets.mathqa.corpus import mathqa_records
from progexec.datasets.mathqa.execute import execute_all
from progexec.datasets.mathqa.python_gen import translate_all
from progexec.datasets.mathqa.sandbox import SandboxLimits, default_jobs, run_snippets


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__)
    parser.add_argument("--snippets", type=int, default=100, help="snippets to run in the sandbox (default 100)")
    args = parser.parse_args()
    records = list(mathqa_records("test")) + list(mathqa_records("dev"))
    started = time.perf_counter()
    results = list(execute_all(records))
    seconds = time.perf_counter() - started
    print(f"execute_all   {len(results):6d} problems  {seconds:7.2f} s  {len(results) / seconds:9.0f} problems/s")
    codes = [item.code for item in translate_all(mathqa_records("test"))][:args.snippets]
    for jobs in sorted({1, default_jobs()}):
        started = time.perf_counter()
        ok = sum(result.ok for result in run_snippets(codes, SandboxLimits(), jobs))
        seconds = time.perf_counter() - started
        print(f"sandbox x{jobs}    {len(codes):6d} snippets  {seconds:7.2f} s  {len(codes) / seconds:9.1f} snippets/s"
              f"  ({ok} ok)")


if __name__ == "__main__":
    main()
