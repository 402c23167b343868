"""Rewards per second over 10**6 completions: serial, two local processes and a local Ray cluster.

Every engine runs the function ``progexec reward`` runs (:func:`progexec.reward.batch.score_lines`
over chunks of JSON lines), on the same lazily generated stream: the committed ConvFinQA gold
set's real model answers, the FinQA test gold programs as completions, and gaming attempts (scale
guesses, number lists, several boxed answers, a program that raises, giant outputs), cycled with
a fresh id per line. Each run's output lines are hashed, so the table also shows that every
engine wrote the same bytes; the peak memory is the resident size of this process plus all its
descendants (workers, Ray's daemons), sampled every 0.2 s. Run from the repository root:

    PYTHONPATH=src python benchmarks/bench_reward_scale.py [--n 1000000] [--engines serial,process,ray]
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib
import itertools
import json
import os
import sys
import threading
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

from progexec.cli.reward_cmd import _score_chunk_text
from progexec.jsonrecords import Record, decode
from progexec.corpus import finqa_records
from progexec.parallel import Engine, ParallelOptions, PerItem, chunked, parallel_map

ROOT = Path(__file__).resolve().parent.parent
GOLD_SET = ROOT / "tests" / "data" / "rewards" / "convfinqa_sonnet.jsonl.gz"
CHUNK_LINES = 1000


def base_items() -> list[dict[str, Any]]:
    """The distinct completions the stream cycles through (about 3,000)."""
    items = []
    for line in gzip.decompress(GOLD_SET.read_bytes()).decode("utf-8").splitlines():
        item = json.loads(line)
        items.append({"completion": item["completion"], "gold": item["gold"]})
    for record in finqa_records()[:1147]:
        gold = {"answer": record["exe_ans"], "program": record["program"], "table": record["table"]}
        items.append({"completion": f"Program: {record['program']}", "gold": {**gold, "policy": "official"}})
        if isinstance(record["exe_ans"], float):
            value = record["exe_ans"]
            items.append({"completion": f"Answer: {value * 100!r}", "gold": gold})  # a scale guess
            items.append({"completion": f"Answer: {value} or {value + 1} or {value * 2}", "gold": gold})
            items.append({"completion": f"\\boxed{{{value}}} \\boxed{{{value + 1}}}", "gold": gold})
    items.append({"completion": "Program: divide(1, 0)", "gold": {"answer": 1.0, "policy": "official"}})
    items.append({"completion": "9" * 200_000, "gold": {"answer": 9.0}})  # over the completion size bound
    return items


def stream(n: int) -> Iterator[list[Record]]:
    """``n`` input records in chunks, as ``progexec reward`` reads them (each line decoded by the readers' rule)."""
    pool = base_items()
    lines = (json.dumps({"id": i, **item}) for i, item in zip(range(n), itertools.cycle(pool)))
    number = 0
    for chunk in chunked(lines, CHUNK_LINES):
        records = []
        for line in chunk:
            number += 1
            records.append(decode(line, number, f"line {number}"))
        yield records


class PeakMemory:
    """Samples the resident size of this process and its descendants; ``peak`` in bytes."""

    def __init__(self) -> None:
        self.psutil: Any = importlib.import_module("psutil")  # in the ray extra's dependencies
        self.process = self.psutil.Process()
        self.peak = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.wait(0.2):
            total = 0
            for proc in [self.process, *self.process.children(recursive=True)]:
                try:
                    total += proc.memory_info().rss
                except self.psutil.Error:
                    pass
            self.peak = max(self.peak, total)

    def __enter__(self) -> PeakMemory:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()


def run(n: int, options: ParallelOptions) -> dict[str, Any]:
    digest = hashlib.sha256()
    count = 0
    function = PerItem(partial(_score_chunk_text, None))
    with PeakMemory() as memory:
        started = time.perf_counter()
        for text, counts in parallel_map(function, stream(n), options):
            digest.update(text.encode("utf-8"))
            count += sum(counts.values())
        seconds = time.perf_counter() - started
    return {"engine": options.engine.value, "jobs": options.jobs, "lines": count, "seconds": seconds,
            "rate": count / seconds, "peak_mb": memory.peak / 2**20, "sha": digest.hexdigest()[:16]}


def _commit() -> str:
    """The checked-out commit (the code every engine ran must not change during the run)."""
    import subprocess

    try:
        return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--engines", default="serial,process,ray")
    args = parser.parse_args()
    rows = []
    for name in args.engines.split(","):
        engine = Engine(name)
        options = ParallelOptions(engine, 1 if engine is Engine.SERIAL else args.jobs, chunk_size=1)
        print(f"running {name} over {args.n:,} completions...", file=sys.stderr, flush=True)
        rows.append(run(args.n, options))
    serial = next((row for row in rows if row["engine"] == "serial"), rows[0])
    print(f"\ncode at {_commit()}; {args.n:,} completions, chunks of {CHUNK_LINES} lines, {os.cpu_count()} CPUs "
          f"(load average at the end {os.getloadavg()[0]:.1f})\n")
    print("| engine | jobs | lines | seconds | rewards/s | vs serial | peak RSS (MB, all processes) | output sha256 |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        print(f"| {row['engine']} | {row['jobs']} | {row['lines']:,} | {row['seconds']:.1f} | {row['rate']:,.0f} | "
              f"{row['rate'] / serial['rate']:.2f}× | {row['peak_mb']:.0f} | {row['sha']} |")
    same = len({row["sha"] for row in rows}) == 1 and all(row["lines"] == args.n for row in rows)
    print(f"\nevery engine wrote the same {args.n:,} lines: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
