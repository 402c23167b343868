#!/usr/bin/env python3
"""Faster than the official loop? Every speed goal of progexec, measured in one run beside the official code.

Prints one table per part, each figure beside its reference and its goal:

* start-up:  CPU seconds of ``progexec exec EMPTY.json`` (goal <= 0.15 s);
* in-process: ``runner.execute`` (parse + run + official verdict + gold match) per program beside the
  official ``program_tokenization`` + ``eval_program`` loop imported from a checkout, over FinQA
  test + dev and ConvFinQA dev, with the compiled-program cache warm (kept between passes, as a
  long-running process has it) and cold (every cache cleared before each pass) (goal <= 1.0x);
* exec CLI:  ``progexec exec FILE`` CPU per program, JSON read and record write included (the file
  repeated ``--copies`` times minus its first item alone, so start-up cancels) beside the same official
  loop, with the standard library's JSON and, when installed, the ``fast`` extra (goal <= 2x);
* reward:    ``progexec reward`` completions per second on the committed gold set repeated to
  ``--reward-n`` lines, official and numeric policies, serial (goal >= 20,000/s) and ``--jobs 2`` /
  a 2-worker local Ray (goal >= 1.7x serial);
* check-evaluator: cases per second of ``check-evaluator --cmd 'node tests/ports/finqa_eval.js'``
  (goal >= 10,000/s with ``--jobs 2``).

The official code is never copied: pass the path of a checkout (see docs/benchmarks.md)::

    python benchmarks/bench_speed.py --official-finqa /tmp/official/FinQA \\
        --official-convfinqa /tmp/official/ConvFinQA [--parts startup,inprocess,exec,reward,check]
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

import bench_user_path as user_path  # noqa: E402  (its subprocess helpers and exec inputs)

STARTUP_GOAL = 0.15
INPROCESS_GOAL = 1.0
EXEC_GOAL = 2.0
REWARD_GOAL = 20_000.0
PARALLEL_GOAL = 1.7
CHECK_GOAL = 10_000.0


def _goal(met: bool) -> str:
    return "met" if met else "NOT met"


def _official_module(directory: Path, module: str) -> ModuleType:
    sys.path.insert(0, str(directory))
    try:
        return importlib.import_module(module)
    finally:
        sys.path.remove(str(directory))


# ---------------------------------------------------------------- start-up


def startup_table(bench: user_path.Bench, baseline: Path | None) -> Iterator[str]:
    """Start-up CPU, interleaved with a baseline source's when one is given (the same load for both)."""
    empty = bench.work / "empty.json"
    empty.write_text("[]", encoding="utf-8")
    sources = [("progexec exec EMPTY.json", bench.env)]
    if baseline is not None:
        sources.append((f"the same, baseline src {baseline}", {**bench.env, "PYTHONPATH": str(baseline)}))
    sources.append(("python -c pass (the interpreter alone)", bench.env))
    best: dict[str, user_path.Child] = {}
    for _ in range(max(bench.repeat, 5)):
        for label, env in sources:
            command = [bench.python, "-c", "pass"] if label.startswith("python") else \
                [bench.python, "-m", "progexec", "exec", str(empty), "--quiet"]
            child = user_path.run_child(command, env=env)
            if label not in best or child.cpu < best[label].cpu:
                best[label] = child
    yield "| command | CPU s (best) | wall s | goal <= 0.15 s |"
    yield "|---|---:|---:|---|"
    for label, _ in sources:
        child = best[label]
        goal = _goal(child.cpu <= STARTUP_GOAL) if label.startswith("progexec") else "-"
        yield f"| {label} | {child.cpu:.3f} | {child.wall:.3f} | {goal} |"


# ---------------------------------------------------------------- in-process


def _items(path: Path) -> list[Any]:
    from progexec.readers import read

    return list(read(str(path)))


def _clear_caches() -> None:
    from progexec.grammar.parse import _canonical_arg
    from progexec.grammar.tokens import step_from_parts
    from progexec.interp.arithmetic import official_str_to_num
    from progexec.interp.compiled import CACHE

    CACHE.clear()
    step_from_parts.cache_clear()
    official_str_to_num.cache_clear()
    _canonical_arg.cache_clear()


def _best(passes: int, work: Callable[[], object], before: Callable[[], None] | None = None) -> float:
    best = float("inf")
    for _ in range(passes):
        if before is not None:
            before()
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return best


def inprocess_table(bench: user_path.Bench, passes: int) -> Iterator[str]:
    from progexec.runner import execute, prepare

    prepare()
    yield ("| input | programs | official µs/program | progexec warm µs | ratio warm | progexec cold µs | ratio cold "
           "| same answers | goal <= 1.0x |")
    yield "|---|---:|---:|---:|---:|---:|---:|---|---|"
    for name, path, module, directory in user_path._exec_inputs(bench):
        if directory is None:
            yield f"| {name} | - | no checkout | | | | | | |"
            continue
        official = _official_module(directory, module)
        items = _items(path)
        pairs = [(item.program, item.table) for item in items]

        def official_loop() -> list[Any]:
            return [official.eval_program(official.program_tokenization(program), table) for program, table in pairs]

        def ours() -> list[Any]:
            return [execute(item) for item in items]

        answers = official_loop()
        same = all((flag == 0) == execution.official.valid and (flag != 0 or value == execution.official.value)
                   for (flag, value), execution in zip(answers, ours()))
        base = _best(passes, official_loop) / len(items) * 1e6
        warm = _best(passes, ours) / len(items) * 1e6
        cold = _best(passes, ours, _clear_caches) / len(items) * 1e6
        sys.modules.pop(module, None)
        yield (f"| {name} | {len(items)} | {base:.2f} | {warm:.2f} | {warm / base:.2f}x | {cold:.2f} | "
               f"{cold / base:.2f}x | {'yes' if same else 'NO'} | warm {_goal(warm / base <= INPROCESS_GOAL)}, "
               f"cold {_goal(cold / base <= INPROCESS_GOAL)} |")
        if not same:
            bench.problems.append(f"in-process {name}: an official verdict differs from the official loop's")


# ---------------------------------------------------------------- exec through the command line


def exec_table(bench: user_path.Bench, copies: int, baseline: Path | None) -> Iterator[str]:
    codecs: list[tuple[str, dict[str, str]]] = [("stdlib", {"PROGEXEC_JSON": "stdlib"})]
    if importlib.util.find_spec("msgspec") is not None:
        codecs.append(("fast extra (msgspec)", {"PROGEXEC_JSON": "fast"}))
    if baseline is not None:
        codecs.append((f"stdlib, baseline src {baseline}", {"PROGEXEC_JSON": "stdlib", "PYTHONPATH": str(baseline)}))
    yield (f"| input | programs | JSON codec | progexec CPU s x{copies} | 1-item CPU s | progexec µs/program "
           "| official loop µs/program | ratio | goal <= 2x |")
    yield "|---|---:|---|---:|---:|---:|---:|---:|---|"
    for name, path, module, directory in user_path._exec_inputs(bench):
        stem = f"{path.parent.name}-{path.stem}"
        items = json.loads(path.read_text(encoding="utf-8"))
        n, n_first = user_path._count_programs(items), user_path._count_programs(items[:1])
        many = user_path._write_items(bench.work / f"{stem}-x{copies}.json", user_path._copies(items, copies))
        one = user_path._write_items(bench.work / f"{stem}-1.json", items[:1])
        loop = user_path._official_loop(bench, module, directory, path, bench.repeat * copies)
        official_us = float(loop["cpu"]) / int(loop["n"]) * 1e6 if loop is not None else None
        for label, env_codec in codecs:

            def exec_cpu(target: Path) -> user_path.Child:
                return user_path.best_of(bench.repeat, lambda: user_path.run_child(
                    [bench.python, "-m", "progexec", "exec", str(target), "--quiet"],
                    env={**bench.env, **env_codec}, keep_stdout=False))

            big, small = exec_cpu(many), exec_cpu(one)
            if big.returncode or small.returncode:
                bench.problems.append(f"exec {name}: exit {big.returncode or small.returncode}")
                continue
            per_program = (big.cpu - small.cpu) / (n * copies - n_first) * 1e6
            if official_us is None:
                cell, ratio, goal = "no checkout", "-", "-"
            else:
                cell, ratio = f"{official_us:.1f}", f"{per_program / official_us:.2f}x"
                goal = _goal(per_program / official_us <= EXEC_GOAL)
            yield (f"| {name} | {n} | {label} | {big.cpu:.3f} | {small.cpu:.3f} | {per_program:.1f} | {cell} "
                   f"| {ratio} | {goal} |")


# ---------------------------------------------------------------- reward


def reward_input(target: Path, count: int, policy: str) -> Path:
    """The committed reward gold set (model answers and gaming attempts), repeated with fresh ids to ``count`` lines."""
    data = REPO / "tests" / "data" / "rewards"
    base = [json.loads(line) for line in gzip.decompress((data / "convfinqa_sonnet.jsonl.gz").read_bytes())
            .decode("utf-8").splitlines()]
    base += [json.loads(line) for line in (data / "handwritten.jsonl").read_text(encoding="utf-8").splitlines()]
    bodies = [json.dumps({"completion": str(item["completion"]) * int(item.get("repeat", 1)), "gold": item["gold"],
                          "policy": policy}, ensure_ascii=False)[1:] for item in base]
    with target.open("w", encoding="utf-8") as handle:
        for index in range(count):
            handle.write(f'{{"id": {index}, {bodies[index % len(bodies)]}\n')
    return target


def reward_table(bench: user_path.Bench, count: int) -> Iterator[str]:
    engines: list[tuple[str, list[str]]] = [("serial", []), ("--jobs 2", ["--jobs", "2"])]
    if importlib.util.find_spec("ray") is not None:
        engines.append(("local Ray, 2 workers", ["--engine", "ray", "--jobs", "2"]))
    yield ("| policy | engine | lines | wall s | CPU s (the command; pool workers are not its children) | completions/s "
           "| vs serial | same output | goal |")
    yield "|---|---|---:|---:|---:|---:|---:|---|---|"
    for policy in ("official", "numeric"):
        source = reward_input(bench.work / f"reward-{policy}.jsonl", count, policy)
        serial_rate = 0.0
        serial_out: bytes | None = None
        for label, extra in engines:
            out = bench.work / f"reward-{policy}-out.jsonl"
            child = user_path.run_child([bench.python, "-m", "progexec", "reward", str(source), "--out", str(out),
                                         "--quiet", *extra], env=bench.env)
            if child.returncode:
                bench.problems.append(f"reward {policy} {label}: exit {child.returncode}: "
                                      f"{user_path._tail(child.stderr)}")
                continue
            produced = out.read_bytes()
            rate = count / child.wall
            if not extra:
                serial_rate, serial_out = rate, produced
                goal = f">= 20,000/s: {_goal(rate >= REWARD_GOAL)}"
            else:
                goal = f">= 1.7x: {_goal(rate >= PARALLEL_GOAL * serial_rate)}"
            same = "yes" if produced == serial_out else "NO"
            if same == "NO":
                bench.problems.append(f"reward {policy} {label}: output differs from the serial run")
            yield (f"| {policy} | {label} | {count:,} | {child.wall:.2f} | {child.cpu:.2f} | {rate:,.0f} "
                   f"| {rate / serial_rate:.2f}x | {same} | {goal} |")


# ---------------------------------------------------------------- check-evaluator


def check_table(bench: user_path.Bench, cases: int) -> Iterator[str]:
    if shutil.which("node") is None:
        yield "node is not installed: the JavaScript port cannot run"
        return
    port = f"node {REPO / 'tests' / 'ports' / 'finqa_eval.js'}"
    yield "| port | jobs | cases | wall s | CPU s (all processes) | cases/s | exit | goal >= 10,000/s with --jobs 2 |"
    yield "|---|---:|---:|---:|---:|---:|---|---|"
    for jobs in (1, 2):
        extra = [] if jobs == 1 else ["--jobs", str(jobs)]
        child = user_path.run_child([bench.python, "-m", "progexec", "check-evaluator", "--cmd", port, "--cases",
                                     str(cases), "--no-progress", *extra], env=bench.env)
        if child.returncode == 2:
            yield f"| JavaScript (tests/ports/finqa_eval.js) | {jobs} | - | - | - | - | 2 | {user_path._tail(child.stderr)} |"
            continue
        rate = cases / child.wall
        goal = _goal(rate >= CHECK_GOAL) if jobs == 2 else "-"
        yield (f"| JavaScript (tests/ports/finqa_eval.js) | {jobs} | {cases:,} | {child.wall:.2f} | {child.cpu:.2f} "
               f"| {rate:,.0f} | {child.returncode} | {goal} |")


# ---------------------------------------------------------------- main


PARTS = ("startup", "inprocess", "exec", "reward", "check")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--official-finqa", type=Path, default=None)
    parser.add_argument("--official-convfinqa", type=Path, default=None)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--parts", default=",".join(PARTS), help="comma-separated: " + ", ".join(PARTS))
    parser.add_argument("--repeat", type=int, default=3, help="runs per subprocess figure; the best is kept")
    parser.add_argument("--passes", type=int, default=20, help="in-process passes per figure; the best is kept")
    parser.add_argument("--copies", type=int, default=10, help="exec: each file repeated this many times")
    parser.add_argument("--reward-n", type=int, default=200_000, help="reward: input lines (the goal's run: 1000000)")
    parser.add_argument("--check-cases", type=int, default=50_000, help="check-evaluator: cases per run")
    parser.add_argument("--progexec-src", type=Path, default=REPO / "src")
    parser.add_argument("--baseline-src", type=Path, default=None,
                        help="another progexec src measured in the same run (start-up, exec), for comparison")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.progexec_src.resolve()))
    parts = [part.strip() for part in args.parts.split(",") if part.strip()]
    user_args = user_path.parse_args([
        *(["--official-finqa", str(args.official_finqa)] if args.official_finqa else []),
        *(["--official-convfinqa", str(args.official_convfinqa)] if args.official_convfinqa else []),
        "--data", str(args.data), "--repeat", str(args.repeat), "--progexec-src", str(args.progexec_src)])
    with tempfile.TemporaryDirectory(prefix="bench-speed-") as work:
        bench = user_path.Bench(user_args, Path(work))
        print("\n".join(user_path.header(bench, user_args)), flush=True)
        tables: dict[str, tuple[str, Callable[[], Iterator[str]]]] = {
            "startup": ("start-up of exec on an empty input", lambda: startup_table(bench, args.baseline_src)),
            "inprocess": (f"in-process execute per program, best of {args.passes} passes",
                          lambda: inprocess_table(bench, args.passes)),
            "exec": (f"exec through the command line, best of {args.repeat}",
                     lambda: exec_table(bench, args.copies, args.baseline_src)),
            "reward": ("progexec reward", lambda: reward_table(bench, args.reward_n)),
            "check": ("check-evaluator --cmd", lambda: check_table(bench, args.check_cases)),
        }
        for part in parts:
            title, table = tables[part]
            print(f"\n## {part}: {title} (load average {os.getloadavg()[0]:.1f})\n", flush=True)
            for line in table():
                print(line, flush=True)
        if bench.problems:
            print("\nproblems:\n" + "\n".join(f"- {problem}" for problem in bench.problems))
    return 1 if bench.problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
