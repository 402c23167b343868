#!/usr/bin/env python3
"""Speed of ``check-rounder`` (goal: >= 10**6 cases per minute for a plain Python rounder), and
the long run of the ``exact`` rounder (0 divergences on >= 10**7 cases).

Side by side, all measured in this run on the same suite: the suite alone (generation and the
CPython ``round`` oracle), then the whole check for several rounders through ``--python``, and
one through ``--cmd`` (a small Python program speaking the line protocol), whose speed is its own.

    python benchmarks/bench_check_rounder.py [--cases 1000000] [--repeat 2] [--exact-long 10000000]
                                             [--fma-long 1000000]
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

from progexec.checker import DigitsPlan, python_answerer, run_check
from progexec.checker.cases import iter_blocks
from progexec.checker.external import ExternalRounder
from progexec.cli.common import Progress
from progexec.oracle.rounding import make_two_product_fma, round_exact, round_half_up, round_naive

PROGRAM = """
import sys
for line in sys.stdin:
    h, n = line.split()
    print(round(float.fromhex(h), int(n)).hex(), flush=True)
"""


def fstring_round(x: float, n: int) -> float:
    return float(f"{x:.{n}f}")


REPEAT = 2


def timed(label: str, cases: int, work: Callable[[], int]) -> tuple[str, int, float, int]:
    """Best of REPEAT runs (the machine is shared, so the minimum is the honest figure)."""
    best, divergent = float("inf"), 0
    for _ in range(REPEAT):
        started = time.perf_counter()
        divergent = work()
        best = min(best, time.perf_counter() - started)
    return label, cases, best, divergent


def suite_only(cases: int) -> int:
    for _ in iter_blocks(cases):
        pass
    return 0


def python_check(rounder: Callable[[float, int], float], cases: int) -> Callable[[], int]:
    return lambda: run_check(python_answerer(rounder), "bench", cases).divergent


def external_check(cases: int) -> int:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "rounder.py"
        path.write_text(textwrap.dedent(PROGRAM), encoding="utf-8")
        rounder = ExternalRounder([sys.executable, str(path)], chunk=2000)
        try:
            return run_check(rounder, "bench", cases).divergent
        finally:
            rounder.close()


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1_000_000)
    parser.add_argument("--external-cases", type=int, default=200_000)
    parser.add_argument("--exact-long", type=int, default=0, metavar="N",
                        help="also check round_exact on N cases (10000000 for the issue's long run)")
    parser.add_argument("--fma-long", type=int, default=0, metavar="N",
                        help="also check round_exact's fma path on N cases (math.fma on 3.13+, else an "
                             "exact Fraction-based fma, slow)")
    parser.add_argument("--repeat", type=int, default=REPEAT, help="best of this many runs per row")
    args = parser.parse_args()
    globals()["REPEAT"] = max(1, args.repeat)
    n = args.cases
    rows = [
        timed("suite only (generation + CPython round oracle)", n, lambda: suite_only(n)),
        timed("--python builtins:round", n, python_check(round, n)),
        timed("--python float(f'{x:.{n}f}')", n, python_check(fstring_round, n)),
        timed("--python round_exact (Dekker)", n, python_check(round_exact, n)),
        timed("--python round_naive (divergent)", n, python_check(round_naive, n)),
        timed("--python round_half_up (divergent)", n, python_check(round_half_up, n)),
        timed("--cmd python3 line-protocol program", args.external_cases, lambda: external_check(args.external_cases)),
    ]
    base = rows[1][2] / rows[1][1]
    print(f"{'what':<50} {'cases':>10} {'seconds':>8} {'cases/min':>12} {'x round':>8} {'divergent':>10}")
    for label, cases, seconds, divergent in rows:
        print(f"{label:<50} {cases:>10,} {seconds:>8.2f} {cases / seconds * 60:>12,.0f} "
              f"{seconds / cases / base:>8.2f} {divergent:>10,}")
    if args.exact_long:
        progress = Progress(args.exact_long, "round_exact long run", enabled=True)
        started = time.perf_counter()
        report = run_check(python_answerer(round_exact), "exact", args.exact_long, seed=2026, plan=DigitsPlan(),
                           progress=lambda done, total: progress.update(done))
        progress.close()
        seconds = time.perf_counter() - started
        print(f"\nround_exact long run: {report.cases:,} cases (seed 2026), {report.divergent} divergent, "
              f"{seconds:.0f} s ({report.cases / seconds * 60:,.0f} cases/min)")
        print("by family: " + ", ".join(f"{f} {c[0]:,}" for f, c in sorted(report.by_family.items())))
    if args.fma_long:
        fma = getattr(math, "fma", None) or fraction_fma
        two_product = make_two_product_fma(fma)
        started = time.perf_counter()
        report = run_check(python_answerer(lambda x, n: round_exact(x, n, two_product)), "exact-fma",
                           args.fma_long, seed=2027)
        seconds = time.perf_counter() - started
        print(f"\nround_exact fma path ({'math.fma' if fma is not fraction_fma else 'Fraction fma'}): "
              f"{report.cases:,} cases (seed 2027), {report.divergent} divergent, {seconds:.0f} s")


def fraction_fma(a: float, b: float, c: float) -> float:
    """A correctly rounded fused multiply-add for interpreters without math.fma (3.11, 3.12)."""
    return float(Fraction(a) * Fraction(b) + Fraction(c))


if __name__ == "__main__":
    main()
