#!/usr/bin/env python3
"""Rewards per second of ``progexec.reward``, serial, per policy, side by side with a baseline.

The workload cycles over the committed gold sets (tests/data/rewards: 1,490 real ConvFinQA LLM
answers and the hand-written gaming attempts), as ``progexec reward`` input lines, and scores
them through the batch function :func:`progexec.reward.batch.score_lines` in chunks, exactly as
the command does. The baseline is HELM's bare ``float_equiv`` on the same completions (two regex
searches and a subtraction: the cheapest reward anyone uses), so the ratio says what the typed,
bounded reading costs. Peak memory is the process's maximum resident set size.

    python benchmarks/bench_reward.py [--lines 100000] [--chunk 1000]

The parallel figures (``--jobs``, Ray, 10**6 lines) call :func:`workload` and
:func:`score_serial` from the runner benchmark, so every figure times the same work.
"""

from __future__ import annotations

import argparse
import gzip
import json
import resource
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from progexec.reward.batch import score_lines
from progexec.reward.helm import float_equiv
from progexec.reward.model import Policy

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "rewards"


@dataclass(frozen=True, slots=True)
class Figure:
    """One timed run: how many rewards, how long (best of the repeats), rewards per second."""

    label: str
    count: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.count / self.seconds if self.seconds > 0 else float("inf")


def _gold_lines() -> list[dict[str, object]]:
    lines: list[dict[str, object]] = []
    with gzip.open(DATA / "convfinqa_sonnet.jsonl.gz", "rt", encoding="utf-8") as handle:
        lines += [json.loads(line) for line in handle]
    with (DATA / "handwritten.jsonl").open(encoding="utf-8") as handle:
        lines += [json.loads(line) for line in handle]
    return lines


def workload(count: int, policy: Policy | None = None) -> list[str]:
    """``count`` input lines for ``progexec reward``, cycling over the gold sets (deterministic)."""
    source = _gold_lines()
    lines = []
    for index in range(count):
        item = source[index % len(source)]
        record: dict[str, object] = {"id": index, "completion": str(item["completion"]) * int(str(item.get("repeat", 1))),
                                     "gold": item["gold"]}
        if policy is not None:
            record["policy"] = policy.value
        lines.append(json.dumps(record, ensure_ascii=False))
    return lines


def score_serial(lines: Sequence[str], chunk: int = 1000) -> list[str]:
    """The serial reference run: every chunk through :func:`score_lines`, outputs joined in order."""
    out: list[str] = []
    for start in range(0, len(lines), chunk):
        out += score_lines(lines[start:start + chunk], first_line=start + 1)
    return out


def best_of(label: str, count: int, work: Callable[[], object], repeat: int) -> Figure:
    """The fastest of ``repeat`` runs (the machine is shared, so the minimum is the honest figure)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return Figure(label, count, best)


def _baseline(lines: Sequence[str]) -> Callable[[], object]:
    pairs = []
    for line in lines:
        item = json.loads(line)
        pairs.append((item["completion"], str(item["gold"].get("answer"))))
    return lambda: [float_equiv(completion, gold) for completion, gold in pairs]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=20_000, help="input lines per policy (default 20,000)")
    parser.add_argument("--chunk", type=int, default=1000, help="lines per score_lines call (default 1,000)")
    parser.add_argument("--repeat", type=int, default=2, help="runs per figure; the best is kept (default 2)")
    args = parser.parse_args(argv)
    figures = []
    for policy in Policy:
        lines = workload(args.lines, policy)
        if policy is Policy.HELM:
            figures.append(best_of("HELM float_equiv alone (baseline)", len(lines), _baseline(lines), args.repeat))
        figures.append(best_of(f"progexec reward, {policy.value}", len(lines),
                               partial(score_serial, lines, args.chunk), args.repeat))
    baseline = next(figure for figure in figures if "baseline" in figure.label)
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{'run':<40} {'rewards':>9} {'seconds':>9} {'rewards/s':>11} {'time vs baseline':>17}")
    for figure in figures:
        ratio = baseline.per_second / figure.per_second
        print(f"{figure.label:<40} {figure.count:>9} {figure.seconds:>9.2f} {figure.per_second:>11.0f} "
              f"{ratio:>16.1f}x")
    print(f"peak resident memory: {peak_mib:.0f} MiB (Python {sys.version.split()[0]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
