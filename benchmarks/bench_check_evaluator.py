"""Throughput of ``progexec check-evaluator`` through --cmd and --python, side by side with the reference.

    PYTHONPATH=src python benchmarks/bench_check_evaluator.py [--cases N]

Each row runs the CLI in a subprocess over the same suite and prints cases, wall seconds, CPU
seconds (checker and port together, from the kernel's child accounting), cases per minute on
both clocks, and the ratio to the reference alone (``execute_text`` over the same cases in this
process: the floor any check must pay). On a shared machine the wall clock is inflated by the
load; the CPU column is what the checker costs. Needs node and gcc for the JS and C ports.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PORTS = ROOT / "tests" / "ports"
sys.path.insert(0, str(ROOT / "src"))

from progexec.checker.evaluator.cases import suite  # noqa: E402
from progexec.checker.evaluator.protocol import Protocol, prepare, reference  # noqa: E402

SPEC_PORT = """
import sys
sys.path.insert(0, {tests!r})
from reference_impl import reference_eval, ref_tokenize

def port(program, table, dialect):
    return tuple(getattr(reference_eval(ref_tokenize(program), table, dialect), name) for name in ("valid", "value"))
"""


def reference_seconds(suite_name: str, cases: int | None) -> tuple[int, float]:
    started = time.process_time()
    count = 0
    for case in suite(suite_name, cases):
        prepared = prepare(case, Protocol.JSONL)
        assert prepared is not None
        reference(prepared, Protocol.JSONL)
        count += 1
    return count, time.process_time() - started


def run(argv: list[str], cwd: Path) -> tuple[int, float, float, str]:
    env = dict(os.environ, PYTHONPATH=f"{ROOT / 'src'}:{cwd}")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "progexec", "check-evaluator", "--no-progress", *argv], cwd=cwd,
                          env=env, capture_output=True, text=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return done.returncode, wall, cpu, done.stdout.splitlines()[0] if done.stdout else done.stderr.strip()


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__)
    parser.add_argument("--cases", type=int, help="cases per row (default: the whole suite of each row)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-check-evaluator-"))
    (work / "spec_port.py").write_text(SPEC_PORT.format(tests=str(ROOT / "tests")), encoding="utf-8")
    rows: list[tuple[str, list[str], str]] = []
    if shutil.which("node"):
        rows.append(("node JS port, gold suite", ["--cmd", f"node {PORTS / 'finqa_eval.js'}", "--suite", "gold"],
                     "gold"))
        rows.append(("node JS port, all", ["--cmd", f"node {PORTS / 'finqa_eval.js'}"], "all"))
    if shutil.which("gcc"):
        subprocess.run(["gcc", "-O2", "-o", str(work / "flat_eval"), str(PORTS / "flat_eval.c"), "-lm"], check=True)
        rows.append(("C flat port, all (flat)", ["--cmd", str(work / "flat_eval"), "--protocol", "flat"], "all"))
    rows.append(("--python SPEC port, all", ["--python", "spec_port:port"], "all"))
    print(f"{'run':<28} {'cases':>7} {'wall s':>7} {'cpu s':>7} {'cases/min wall':>15} {'cases/min cpu':>14} "
          f"{'cpu / ref':>9}  verdict")
    for label, argv, suite_name in rows:
        extra = ["--cases", str(args.cases)] if args.cases else []
        count, ref = reference_seconds(suite_name, args.cases)
        code, wall, cpu, verdict = run(argv + extra, work)
        print(f"{label:<28} {count:>7,} {wall:>7.1f} {cpu:>7.1f} {count / wall * 60:>15,.0f} "
              f"{count / cpu * 60:>14,.0f} {cpu / ref:>9.1f}  exit {code}: {verdict[:60]}")
    print(f"(reference alone: execute_text over the same cases in this process; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
