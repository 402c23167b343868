"""Resident memory of a long-lived reward process over unique programs: the caches hold their byte bounds.

Every completion carries a program never seen before (an RL run's case: each completion's program is
new), a chain of ``--steps`` steps with a fresh first literal. The child process scores them with the
function ``progexec reward`` and ``progexec serve`` run (:func:`progexec.reward.batch.score_item`)
and prints its resident size (``VmRSS``) at the start, the middle and the end, with the caches on
(the default ``Limits``) and off (``max_compiled_programs=0``, ``max_memo_bytes=0``,
``max_cached_gold_bytes=0``). With the caches on, RSS stops growing once the caches reach their
bounds (``max_compiled_bytes`` 64 MiB and ``max_memo_bytes`` 16 MiB per memo table by their
estimates).

    PYTHONPATH=src python benchmarks/bench_memory.py            # 2,000 programs of 191 steps (short)
    PYTHONPATH=src python benchmarks/bench_memory.py --full     # 100,000 programs
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

OFF = {"max_compiled_programs": 0, "max_memo_bytes": 0, "max_cached_gold_bytes": 0}
"""The limits that turn every cache off."""


def rss_mb() -> float:
    """This process's resident size in MB (VmRSS)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def program(seed: int, steps: int) -> str:
    """A chain of ``steps`` additions whose first literal is unique to ``seed``: its value is seed + steps."""
    return ", ".join([f"add({seed}, 1)"] + [f"add(#{index}, 1)" for index in range(steps - 1)])


def child(count: int, steps: int, off: bool) -> None:
    """Score ``count`` unique programs; print one JSON line of RSS samples and the number scored correct."""
    from progexec.interp.compiled import CACHE
    from progexec.core.limits import DEFAULT_LIMITS, using
    from progexec.reward.batch import score_item

    limits = DEFAULT_LIMITS.with_(**OFF) if off else DEFAULT_LIMITS
    samples = {"start": rss_mb()}
    correct = 0
    started = time.perf_counter()
    with using(limits):
        for seed in range(count):
            item = {"id": seed, "completion": f"Program: {program(seed, steps)}", "gold": {"answer": seed + steps}}
            correct += score_item(item, seed + 1)["correct"] is True
            if seed + 1 == count // 2:
                samples["middle"] = rss_mb()
    samples["end"] = rss_mb()
    print(json.dumps({"rss_mb": samples, "correct": correct, "seconds": time.perf_counter() - started,
                      "cached_programs": len(CACHE.entries), "cached_bytes": CACHE.total_bytes}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--full", action="store_true", help="10**5 programs (default 2,000)")
    parser.add_argument("--n", type=int, default=None, help="number of unique programs (overrides --full)")
    parser.add_argument("--steps", type=int, default=191, help="steps per program (default 191)")
    parser.add_argument("--child", choices=("on", "off"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    count = args.n if args.n is not None else (100_000 if args.full else 2_000)
    if args.child:
        child(count, args.steps, args.child == "off")
        return 0
    print(f"{count} unique programs of {args.steps} steps, scored by progexec.reward.batch.score_item")
    print(f"{'caches':<8}{'RSS start':>12}{'middle':>10}{'end':>10}{'correct':>10}{'kept':>8}{'seconds':>10}")
    for mode in ("on", "off"):
        done = subprocess.run([sys.executable, __file__, "--child", mode, "--n", str(count), "--steps",
                               str(args.steps)], capture_output=True, text=True, check=True)
        row = json.loads(done.stdout.splitlines()[-1])
        rss = row["rss_mb"]
        print(f"{mode:<8}{rss['start']:>10.0f}MB{rss['middle']:>8.0f}MB{rss['end']:>8.0f}MB"
              f"{row['correct']:>10}{row['cached_programs']:>8}{row['seconds']:>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
