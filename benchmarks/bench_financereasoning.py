#!/usr/bin/env python3
"""The FinanceReasoning hard program-of-thought runs through ``progexec score-python`` beside the official loop.

The official ``eval_pot`` (BUPT-Reasoning-Lab/FinanceReasoning ``evaluation.py``, from a local checkout) forks one
``multiprocessing.Process`` per solution and ``exec``-s it unguarded, so it runs in a throwaway process in a
disposable directory (its API-only imports stubbed as in ``scripts/crosscheck_financereasoning.py``). progexec
runs the same records in its warm bubblewrap pool. Both are timed end to end as processes (start-up and
imports included); solutions per second and their ratio are printed, after the machine's load average (the
wall-clock figures are only comparable at a similar load). ``--items N`` takes the first N records of each of
the 13 runs (all 3,094 by default: the official loop ran at 73 solutions/s here).

    python benchmarks/bench_financereasoning.py --checkout PATH [--items N] [--jobs N]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CROSSCHECK = ROOT / "scripts" / "crosscheck_financereasoning.py"


def pot_worker(checkout: Path, runs: Path) -> None:
    """In the throwaway process: the official eval_pot over every run file in ``runs``; prints the seconds."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("crosscheck_financereasoning", CROSSCHECK)
    assert spec is not None and spec.loader is not None
    crosscheck = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(crosscheck)
    evaluation, _ = crosscheck.import_official(checkout)
    count = 0
    started = time.perf_counter()
    for path in sorted(runs.glob("*/inference.json")):
        data, _ = evaluation.eval_pot(json.loads(path.read_text(encoding="utf-8")), 10)
        count += len(data)
    print(json.dumps({"seconds": time.perf_counter() - started, "items": count}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--checkout", type=Path)
    parser.add_argument("--items", type=int, default=None, help="the first N records of each run (default all)")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--pot-worker", nargs=2, metavar=("CHECKOUT", "RUNS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.pot_worker:
        pot_worker(Path(args.pot_worker[0]), Path(args.pot_worker[1]))
        return 0
    if args.checkout is None:
        parser.error("--checkout is required")
    base = args.checkout / "results" / "FinanceReasoning" / "hard" / "pot"
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory(prefix="financereasoning-bench-") as scratch:
        runs = Path(scratch) / "runs"
        total = 0
        for folder in sorted(base.iterdir()):
            records = json.loads((folder / "inference.json").read_text(encoding="utf-8"))[:args.items]
            (runs / folder.name).mkdir(parents=True)
            (runs / folder.name / "inference.json").write_text(json.dumps(records), encoding="utf-8")
            total += len(records)
        started = time.perf_counter()
        finished = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--pot-worker", str(args.checkout),
                                   str(runs)], cwd=scratch, stdin=subprocess.DEVNULL, capture_output=True,
                                  text=True, check=True, timeout=7200)
        official_process = time.perf_counter() - started
        official = json.loads(finished.stdout.strip().splitlines()[-1])
        command = [sys.executable, "-m", "progexec", "score-python", "--gold",
                   str(args.checkout / "data" / "FinanceReasoning" / "hard.json"), "--pred", str(runs), "--no-progress"]
        if args.jobs:
            command += ["--jobs", str(args.jobs)]
        environment = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        started = time.perf_counter()
        subprocess.run(command, cwd=scratch, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=True,
                       env=environment, timeout=7200)
        ours = time.perf_counter() - started
    official_rate, our_rate = total / official_process, total / ours
    print(f"official eval_pot: {total} solutions in {official_process:.1f} s as a process "
          f"({official['seconds']:.1f} s in the loop): {official_rate:.1f} solutions/s")
    print(f"progexec score-python: {total} solutions in {ours:.1f} s as a process: {our_rate:.1f} solutions/s")
    print(f"ratio progexec / official: {our_rate / official_rate:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
