#!/usr/bin/env python3
"""All 51 FinanceMath validation runs through ``progexec score-python`` beside the official evaluation loop.

progexec runs every gold and model solution (10,200 model solutions plus 200 gold) in its warm
bubblewrap pool; the official loop (yale-nlp/FinanceMath ``evaluation.py``, from a local checkout)
``exec``-s them unguarded in its own process, so it runs in a throwaway process in a disposable
directory (``scripts/crosscheck_financemath.py --official-worker``). Both are timed end to end
as processes (start-up and library imports included), then both accuracy tables are compared; and
the pool's own floor, trivial solutions per second. The machine's load average is printed first:
the wall-clock figures are only comparable at a similar load.

    python benchmarks/bench_financemath.py CHECKOUT [--data DIR] [--jobs N] [--models N] [--floor N]
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
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "financemath"
CROSSCHECK = ROOT / "scripts" / "crosscheck_financemath.py"


def floor_rate(count: int, jobs: int) -> float:
    """Solutions per second of the warm pool on trivial solutions: its own cost, without the models' work."""
    sys.path.insert(0, str(ROOT / "src"))
    from progexec.datasets.pysolution.pool import Pool, Request
    requests = [Request(f"def solution():\n    return {index} * 1.5") for index in range(count)]
    with Pool(jobs) as pool:
        pool.run(requests[:2 * jobs])  # start the workers
        started = time.perf_counter()
        results = pool.run(requests)
        seconds = time.perf_counter() - started
    assert all(result.number == index * 1.5 for index, result in enumerate(results))
    return count / seconds


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path, help="a local checkout of yale-nlp/FinanceMath")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"data directory (default {DEFAULT_DATA})")
    parser.add_argument("--jobs", type=int, default=4 * (os.cpu_count() or 1),
                        help="light sandbox workers, half as many heavy (default: 4 per core, as score-python)")
    parser.add_argument("--models", type=int, default=0, help="only the first N prediction files (default all)")
    parser.add_argument("--floor", type=int, default=1000, help="also time N trivial solutions in the pool (0: no)")
    args = parser.parse_args()
    files = sorted((args.data / "raw_pot_outputs").glob("*.json*"))
    if args.models:
        files = files[:args.models]
    solutions = sum(len(json.loads(subprocess.run(["gzip", "-dc", str(path)], capture_output=True,
                                                  check=True).stdout)) for path in files) + 200
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-financemath-") as scratch:
        preds = Path(scratch) / "preds"
        preds.mkdir()
        for path in files:
            (preds / path.name).symlink_to(path.resolve())
        started = time.perf_counter()
        ours = subprocess.run([sys.executable, "-m", "progexec", "score-python", "--gold",
                               str(args.data / "validation.json.gz"), "--pred", str(preds), "--json", "--no-progress",
                               "--jobs", str(args.jobs)], capture_output=True, env=env, check=True)
        progexec_seconds = time.perf_counter() - started
        official_dir = Path(scratch) / "official"
        official_dir.mkdir()
        out = official_dir / "official.json"
        started = time.perf_counter()
        subprocess.run([sys.executable, str(CROSSCHECK), "--official-worker", str(args.checkout),
                        str(args.data / "validation.json.gz"), str(out), *map(str, files)], cwd=official_dir,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        official_seconds = time.perf_counter() - started
        official = json.loads(out.read_text(encoding="utf-8"))
    document = json.loads(ours.stdout)
    agree = 0
    for model in document["models"]:
        theirs = official[model["model"]]
        if (model["accuracy"], model["execution_rate"]) == (theirs["accuracy"], theirs["execution_rate"]):
            agree += 1
            continue
        ours_items = {(i["question_id"]): (i["acc"], i["execution_rate"]) for i in document["items"]
                      if i["model"] == model["model"]}
        differing = [f"{qid} progexec {ours_items.get(qid)} official {(acc, rate)}"
                     for qid, acc, rate in theirs["items"] if ours_items.get(qid) != (acc, rate)]
        print(f"differs: {model['model']}: progexec {model['accuracy']}/{model['execution_rate']}, official rerun "
              f"{theirs['accuracy']}/{theirs['execution_rate']}: {'; '.join(differing)}")
    print(f"{len(files)} models, {solutions} solutions ({solutions - 200} model + 200 gold); isolation: "
          f"{document['isolation']}")
    print(f"load average before: {load:.1f} on {os.cpu_count()} cores")
    print(f"progexec score-python (sandboxed, {args.jobs} jobs): {progexec_seconds:7.1f} s  "
          f"{solutions / progexec_seconds:7.1f} solutions/s")
    print(f"official loop (unguarded, 1 process):          {official_seconds:7.1f} s  "
          f"{solutions / official_seconds:7.1f} solutions/s  (its loop alone {official['_seconds']:.1f} s)")
    if args.floor:
        print(f"the pool alone, {args.floor} trivial solutions: {floor_rate(args.floor, args.jobs):7.1f} solutions/s")
    print(f"ratio progexec / official: {progexec_seconds / official_seconds:.2f}; "
          f"models with the same accuracy and execution rate: {agree} of {len(files)}")
    return 0 if agree == len(files) else 1


if __name__ == "__main__":
    sys.exit(main())
