#!/usr/bin/env python3
"""All 51 FinanceMath validation runs through ``progexec score-python`` beside the official evaluation loop.

progexec runs every gold and model solution (10,200 model solutions plus 200 gold) in its warm
bubblewrap pool; the official loop (yale-nlp/FinanceMath ``evaluation.py``, from a local checkout)
``exec``-s them unguarded in its own process, so it runs in a throwaway process in a disposable
directory (``scripts/crosscheck_financemath.py --official-worker``). Both are timed end to end
as processes (start-up and library imports included), wall-clock and CPU time (the CPU time of the
sandbox workers is counted when they exit), then both accuracy tables are compared.

    python benchmarks/bench_financemath.py CHECKOUT [--data DIR] [--jobs 2] [--models N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "financemath"
CROSSCHECK = ROOT / "scripts" / "crosscheck_financemath.py"


def _children_cpu() -> float:
    """CPU seconds (user + system) of every reaped descendant so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path, help="a local checkout of yale-nlp/FinanceMath")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"data directory (default {DEFAULT_DATA})")
    parser.add_argument("--jobs", type=int, default=4 * (os.cpu_count() or 1),
                        help="light sandbox workers, half as many heavy (default: 4 per core, as score-python)")
    parser.add_argument("--models", type=int, default=0, help="only the first N prediction files (default all)")
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
        started, cpu = time.perf_counter(), _children_cpu()
        ours = subprocess.run([sys.executable, "-m", "progexec", "score-python", "--gold",
                               str(args.data / "validation.json.gz"), "--pred", str(preds), "--json", "--no-progress",
                               "--jobs", str(args.jobs)], capture_output=True, env=env, check=True)
        progexec_seconds, progexec_cpu = time.perf_counter() - started, _children_cpu() - cpu
        official_dir = Path(scratch) / "official"
        official_dir.mkdir()
        out = official_dir / "official.json"
        started, cpu = time.perf_counter(), _children_cpu()
        subprocess.run([sys.executable, str(CROSSCHECK), "--official-worker", str(args.checkout),
                        str(args.data / "validation.json.gz"), str(out), *map(str, files)], cwd=official_dir,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        official_seconds, official_cpu = time.perf_counter() - started, _children_cpu() - cpu
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
          f"{solutions / progexec_seconds:7.1f} solutions/s  CPU {progexec_cpu:6.1f} s "
          f"({progexec_cpu / solutions * 1000:.2f} ms/solution)")
    print(f"official loop (unguarded, 1 process):          {official_seconds:7.1f} s  "
          f"{solutions / official_seconds:7.1f} solutions/s  CPU {official_cpu:6.1f} s "
          f"({official_cpu / solutions * 1000:.2f} ms/solution; its loop alone {official['_seconds']:.1f} s)")
    print(f"ratio progexec / official: {progexec_seconds / official_seconds:.2f} wall, "
          f"{progexec_cpu / official_cpu:.2f} CPU; "
          f"models with the same accuracy and execution rate: {agree} of {len(files)}")
    return 0 if agree == len(files) else 1


if __name__ == "__main__":
    sys.exit(main())
