"""Throughput of ``progexec check-reward`` against a pure-Python reward function.

    PYTHONPATH=src python benchmarks/bench_check_reward.py [--cases 10000]

Runs the CLI in a subprocess (``--python tests.reward_zoo:correct_reward``, every probe at its
default size) and prints cases, wall seconds, CPU seconds (checker and the reward's processes
together, from the kernel's child accounting) and cases per second on both clocks. The target is
10,000 cases in under a minute on 2 cores; on a shared machine the wall clock is inflated by the
load, and the CPU column is what the check costs.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False,
                                     description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--function", default="tests.reward_zoo:correct_reward")
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")])))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "progexec", "check-reward", "--python", args.function,
                             "--cases", str(args.cases), "--fail-on", "none", "--no-progress"],
                            cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if result.returncode != 0:
        print(result.stdout, result.stderr, file=sys.stderr)
        return 1
    print(result.stdout.splitlines()[0])
    print(f"| cases | wall s | CPU s | cases/s (wall) | cases/s (CPU) | load (1 min) |")
    print(f"|---|---|---|---|---|---|")
    print(f"| {args.cases:,} | {wall:.1f} | {cpu:.1f} | {args.cases / wall:,.0f} | {args.cases / cpu:,.0f} | "
          f"{os.getloadavg()[0]:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
