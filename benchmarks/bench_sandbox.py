#!/usr/bin/env python3
"""Cost of the OS sandbox: the same gold MathQA-Python snippets in bubblewrap and in a plain process.

Runs the gold code of the first N kept test items, alternating the two ways round by round (so
machine load hits both alike), and prints seconds per snippet and the ratio, all measured in
this run. The plain process is what ``--unsafe-no-isolation`` runs.

    python benchmarks/bench_sandbox.py [--snippets 40] [--rounds 3]
"""

from __future__ import annotations

import argparse
import time
from unittest import mock

from progexec.datasets.mathqa import bubblewrap
from progexec.datasets.mathqa.corpus import mathqa_records
from progexec.datasets.mathqa.python_gen import translate_all
from progexec.datasets.mathqa.sandbox import SandboxLimits, run_snippets


def _seconds_per_snippet(codes: list[str], isolated: bool) -> tuple[float, int]:
    started = time.perf_counter()
    if isolated:
        ok = sum(result.ok for result in run_snippets(codes, SandboxLimits(), 1))
    else:
        with mock.patch.object(bubblewrap, "status", lambda: bubblewrap.Isolation(False, "benchmark")):
            ok = sum(result.ok for result in run_snippets(codes, SandboxLimits(), 1, unsafe_no_isolation=True))
    return (time.perf_counter() - started) / len(codes), ok


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__)
    parser.add_argument("--snippets", type=int, default=40, help="snippets per round and way (default 40)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    args = parser.parse_args()
    isolation = bubblewrap.status()
    if not isolation.available:
        raise SystemExit(f"no isolation on this machine: {isolation.reason}")
    codes = [item.code for item in translate_all(mathqa_records("test"))][:args.snippets]
    totals = {True: 0.0, False: 0.0}
    print(f"{'round':>5}  {'bubblewrap s/snippet':>20}  {'plain s/snippet':>15}  {'ratio':>6}")
    for round_number in range(1, args.rounds + 1):
        isolated, ok_isolated = _seconds_per_snippet(codes, True)
        plain, ok_plain = _seconds_per_snippet(codes, False)
        totals[True] += isolated
        totals[False] += plain
        print(f"{round_number:5d}  {isolated:20.4f}  {plain:15.4f}  {isolated / plain:6.2f}"
              f"  ({ok_isolated}/{ok_plain} ok of {len(codes)})")
    print(f"{'mean':>5}  {totals[True] / args.rounds:20.4f}  {totals[False] / args.rounds:15.4f}  "
          f"{totals[True] / totals[False]:6.2f}   isolation: {isolation.describe()}")


if __name__ == "__main__":
    main()
