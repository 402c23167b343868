#!/usr/bin/env python3
"""Faster than the official loop? Every speed goal of progexec, measured in one run beside the official code.

Prints one table per part, each figure beside its reference and its goal:

* async:     how late a probe coroutine (a 10 ms tick) gets on the event loop that awaits
  ``compute_score_async`` / ``AsyncProgexecReward`` over the gold set with 1 MB and 99,000-character
  completions in the batch, the worst of 5 runs (goal: never more than 100 ms late);
* start-up:  CPU seconds of ``progexec exec EMPTY.json`` (goal <= 0.15 s);
* in-process: ``runner.execute`` (parse + run + official verdict + gold match) per program beside the
  official ``program_tokenization`` + ``eval_program`` loop imported from a checkout, over FinQA
  test + dev and ConvFinQA dev, with the compiled-program cache warm (kept between passes, as a
  long-running process has it) and cold (every cache cleared before each pass) (goal <= 1.0x);
* cold:      each distinct program of a file executed once in a fresh process (``benchmarks/cold_child.py``),
  progexec's ``runner.execute`` beside the official loop, each side in its own fresh process (goal <= 1.0x);
* exec CLI:  ``progexec exec FILE`` CPU per program, JSON read and record write included, on the file as
  downloaded (minus its first item alone, so start-up cancels) and repeated ``--copies`` times (programs
  served by the cache), beside the same official loop, with the standard library's JSON and, when
  installed, the ``fast`` extra (goal <= 2x); then, in process, the CPU of reading, executing and writing the
  record lines, each stage timed apart (where the time goes);
* reward:    ``progexec reward`` on the committed gold set repeated to ``--reward-n`` lines, official and
  numeric policies: CPU per completion beside the official loop's per program (goal <= 5x), and
  ``--jobs 2`` / a 2-worker local Ray started by the command (goal >= 1.7x serial);
* jobs:      ``exec``, ``report`` and ``score`` with ``--jobs 2`` beside serial on every FinQA split (and ConvFinQA
  dev and train_partial for exec and report), wall time
  (goal >= 1.7x; reward's is in its own table), with the parent's share of the CPU and the speed-up that CPU
  bounds (what the machine's load does not change);
* ray:       ``--ray-n`` completions (10^5) on a local 2-CPU Ray cluster started first (its start and the
  workers' first pass reported apart) beside serial, through the chunks ``progexec reward`` sends and through
  ``score_batch`` as Ray tasks, best of two runs each, with every process's CPU (goal >= 1.5x; only when Ray is
  installed);
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
import subprocess
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
RAY_GOAL = 1.5
REWARD_RATIO_GOAL = 5.0
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
    from progexec.core.arithmetic import official_str_to_num
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


# ---------------------------------------------------------------- cold, in a fresh process


def _cold_child(bench: user_path.Bench, args: list[str], env: dict[str, str]) -> float | None:
    """Best CPU µs per program of ``repeat`` fresh children of cold_child.py (None: a child failed)."""
    best: float | None = None
    for _ in range(max(bench.repeat, 3)):
        child = user_path.run_child([bench.python, str(HERE / "cold_child.py"), *args], env=env)
        if child.returncode:
            bench.problems.append(f"cold {args[:2]}: exit {child.returncode}: {user_path._tail(child.stderr)}")
            return None
        result = json.loads(child.stdout)
        per = float(result["cpu"]) / int(result["n"]) * 1e6
        best = per if best is None else min(best, per)
    return best


def cold_table(bench: user_path.Bench, baseline: Path | None) -> Iterator[str]:
    head = "| input | official µs/program | progexec µs | ratio | goal <= 1.0x |"
    rule = "|---|---:|---:|---:|---|"
    if baseline is not None:
        head = head[:-len(" goal <= 1.0x |")] + " baseline µs | baseline ratio | goal <= 1.0x |"
        rule = "|---|---:|---:|---:|---:|---:|---|"
    yield head
    yield rule
    for name, path, module, directory in user_path._exec_inputs(bench):
        if directory is None:
            yield f"| {name} | no checkout | | | |"
            continue
        official = _cold_child(bench, ["official", str(path), str(directory), module], bench.env)
        ours = _cold_child(bench, ["progexec", str(path)], bench.env)
        if official is None or ours is None:
            continue
        row = f"| {name} | {official:.2f} | {ours:.2f} | {ours / official:.2f}x |"
        if baseline is not None:
            base = _cold_child(bench, ["progexec", str(path)], {**bench.env, "PYTHONPATH": str(baseline)})
            row += f" {base or 0:.2f} | {(base or 0) / official:.2f}x |"
        yield row + f" {_goal(ours / official <= INPROCESS_GOAL)} |"


# ---------------------------------------------------------------- exec through the command line


def exec_table(bench: user_path.Bench, copies: int, baseline: Path | None) -> Iterator[str]:
    codecs: list[tuple[str, dict[str, str]]] = [("stdlib", {"PROGEXEC_JSON": "stdlib"})]
    if importlib.util.find_spec("msgspec") is not None:
        codecs.append(("fast extra (msgspec)", {"PROGEXEC_JSON": "fast"}))
    if baseline is not None:
        codecs.append((f"stdlib, baseline src {baseline}", {"PROGEXEC_JSON": "stdlib", "PYTHONPATH": str(baseline)}))
    yield ("| input | programs | JSON codec | as downloaded µs/program | ratio | each program x"
           f"{copies} µs/program | ratio | official loop µs/program | goal <= 2x |")
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

            big, small, once = exec_cpu(many), exec_cpu(one), exec_cpu(path)
            if big.returncode > 1 or small.returncode > 1 or once.returncode > 1:
                bench.problems.append(f"exec {name}: exit {big.returncode or small.returncode or once.returncode}")
                continue
            repeated = (big.cpu - small.cpu) / (n * copies - n_first) * 1e6
            downloaded = (once.cpu - small.cpu) / (n - n_first) * 1e6
            if official_us is None:
                yield f"| {name} | {n} | {label} | {downloaded:.1f} | - | {repeated:.1f} | - | no checkout | - |"
                continue
            yield (f"| {name} | {n} | {label} | {downloaded:.1f} | {downloaded / official_us:.2f}x | {repeated:.1f} "
                   f"| {repeated / official_us:.2f}x | {official_us:.1f} "
                   f"| {_goal(max(downloaded, repeated) / official_us <= EXEC_GOAL)} |")

    yield ""
    yield from exec_stages(bench, copies)


def exec_stages(bench: user_path.Bench, copies: int) -> Iterator[str]:
    """Where ``exec``'s time goes, in this process over each file repeated ``copies`` times: reading the Items
    (``readers.read``), executing them (``runner.execute``, the compiled programs then warm) and making their
    record lines (``record_line.execution_line``), each stage timed apart, best of ``bench.repeat`` passes."""
    from progexec.readers import read
    from progexec.record_line import execution_line
    from progexec.runner import execute, prepare

    prepare()
    yield f"where the time goes, in process (each file x{copies}; CPU µs per program, best of {bench.repeat}):"
    yield ""
    yield "| input | read the Items | execute | record lines | reading's share |"
    yield "|---|---:|---:|---:|---:|"
    for name, path, _, _ in user_path._exec_inputs(bench):
        many = bench.work / f"{path.parent.name}-{path.stem}-x{copies}.json"
        if not many.exists():
            continue
        items: list[Any] = []
        executions: list[Any] = []

        def read_all() -> None:
            items[:] = list(read(str(many)))

        def execute_all() -> None:
            executions[:] = [execute(item) for item in items]

        reading = _best(bench.repeat, read_all)
        running = _best(bench.repeat, execute_all)
        lines = _best(bench.repeat, lambda: [execution_line(execution) for execution in executions])
        n = len(items)
        total = reading + running + lines
        yield (f"| {name} | {reading / n * 1e6:.1f} | {running / n * 1e6:.1f} | {lines / n * 1e6:.1f} "
               f"| {reading / total:.0%} |")


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


def _official_us(bench: user_path.Bench) -> float | None:
    """The official loop's CPU µs per program on FinQA test (the reward's yardstick), or None without a checkout."""
    name, path, module, directory = user_path._exec_inputs(bench)[0]
    loop = user_path._official_loop(bench, module, directory, path, bench.repeat * 10)
    return float(loop["cpu"]) / int(loop["n"]) * 1e6 if loop is not None else None


def _startup_cpu(bench: user_path.Bench, env: dict[str, str]) -> float:
    empty = bench.work / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    return user_path.best_of(max(bench.repeat, 3), lambda: user_path.run_child(
        [bench.python, "-m", "progexec", "reward", str(empty), "--quiet"], env=env)).cpu


def reward_table(bench: user_path.Bench, count: int, baseline: Path | None) -> Iterator[str]:
    engines: list[tuple[str, list[str]]] = [("serial", []), ("--jobs 2", ["--jobs", "2"])]
    if importlib.util.find_spec("ray") is not None:
        engines.append(("local Ray started by the command, 2 workers", ["--engine", "ray", "--jobs", "2"]))
    sides = [("progexec", bench.env)]
    if baseline is not None:
        sides.append((f"baseline {baseline}", {**bench.env, "PYTHONPATH": str(baseline)}))
    official_us = _official_us(bench)
    yield (f"official loop (FinQA test): {official_us:.2f} µs/program" if official_us is not None else
           "official loop: no checkout (the ratio column is empty)")
    yield ""
    yield ("| src | policy | engine | lines | wall s | CPU s (the command alone) | µs/completion (CPU - start-up) "
           "| ratio to the official loop | completions/s (wall) | vs serial (wall) | same output | goal |")
    yield "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|"
    for side, env in sides:
        startup = _startup_cpu(bench, env)
        for policy in ("official", "numeric"):
            source = reward_input(bench.work / f"reward-{policy}.jsonl", count, policy)
            serial_rate = 0.0
            serial_out: bytes | None = None
            for label, extra in engines:
                out = bench.work / f"reward-{policy}-out.jsonl"
                child = user_path.run_child([bench.python, "-m", "progexec", "reward", str(source), "--out", str(out),
                                             "--quiet", *extra], env=env)
                if child.returncode:
                    bench.problems.append(f"reward {policy} {label}: exit {child.returncode}: "
                                          f"{user_path._tail(child.stderr)}")
                    continue
                produced = out.read_bytes()
                rate = count / child.wall
                per = (child.cpu - startup) / count * 1e6
                ratio = f"{per / official_us:.1f}x" if official_us and not extra else "-"
                if not extra:
                    serial_rate, serial_out = rate, produced
                    goal = (f"<= 5x: {_goal(per / official_us <= REWARD_RATIO_GOAL)}" if official_us else "-")
                else:
                    goal = f">= 1.7x: {_goal(rate >= PARALLEL_GOAL * serial_rate)}"
                same = "yes" if produced == serial_out else "NO"
                if same == "NO":
                    bench.problems.append(f"reward {policy} {label}: output differs from the serial run")
                per_cell = f"{per:.1f}" if not extra else "(workers' CPU not counted)"
                yield (f"| {side} | {policy} | {label} | {count:,} | {child.wall:.2f} | {child.cpu:.2f} | {per_cell} "
                       f"| {ratio} | {rate:,.0f} | {rate / serial_rate:.2f}x | {same} | {goal} |")


# ---------------------------------------------------------------- --jobs 2 for exec, report, score


_PARENT_CPU = ("import resource, sys\nfrom progexec.cli import main\ntry:\n    code = main(sys.argv[1:])\n"
               "finally:\n    usage = resource.getrusage(resource.RUSAGE_SELF)\n"
               "    print(f'parent-cpu={usage.ru_utime + usage.ru_stime}', file=sys.stderr)\nsys.exit(code)")
"""``progexec`` in a process that writes its own CPU time (every thread, not its workers) last on stderr."""


def _jobs_inputs(bench: user_path.Bench) -> tuple[Path, Path, list[Path]]:
    """FinQA train, dev and test in one list (8,281 items, 7,772 distinct programs; ids made unique as
    ``<split>-<index>``, the rest as downloaded) as gold, its own gold programs as predictions (every pair executed
    and compared), and for exec and report that file with ConvFinQA dev and train_partial as downloaded. Every
    program is real and few repeat: a run of copies would let the serial run's caches serve what each worker has
    to compute again."""
    finqa = bench.data / "finqa"
    splits = {"train": json.loads(gzip.decompress((finqa / "train.json.gz").read_bytes()).decode("utf-8")),
              "dev": json.loads((finqa / "dev.json").read_text(encoding="utf-8")),
              "test": json.loads((finqa / "test.json").read_text(encoding="utf-8"))}
    items = [{**item, "id": f"{split}-{index}"} for split, records in splits.items()
             for index, item in enumerate(records)]
    gold = bench.work / "finqa-all.json.gz"
    gold.write_bytes(gzip.compress(json.dumps(items).encode("utf-8")))
    predictions = bench.work / "finqa-all-gold-as-predictions.json"
    predictions.write_text(json.dumps([{"id": item["id"], "predicted": item["qa"]["program"]} for item in items]),
                           encoding="utf-8")
    convfinqa = bench.data / "convfinqa"
    return gold, predictions, [gold, convfinqa / "dev.json", convfinqa / "train_partial.json.gz"]


def _subreaper(on: bool) -> bool:
    """Adopt (Linux) the processes a command leaves behind, such as a forkserver and its workers, so that their CPU
    is counted; False where the system cannot."""
    try:
        import ctypes

        return ctypes.CDLL(None).prctl(36, int(on), 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def _run_all(command: list[str], env: dict[str, str]) -> tuple[float, float, float, int, str]:
    """Wall seconds, CPU of the command's own process, CPU of every process it started (workers, a forkserver)
    and its own, exit code, and standard output."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        total, wall, code = 0.0, 0.0, 0
        while True:
            try:
                pid, status, usage = os.wait4(-1, 0)
            except ChildProcessError:
                break
            total += usage.ru_utime + usage.ru_stime
            if pid == process.pid:
                wall, code = time.perf_counter() - started, os.waitstatus_to_exitcode(status)
        process.returncode = code
        out.seek(0)
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
        parent = next((float(line.split("=", 1)[1]) for line in reversed(stderr.splitlines())
                       if line.startswith("parent-cpu=")), float("nan"))
        return wall, parent, total, code, out.read().decode("utf-8", "replace")


def jobs_table(bench: user_path.Bench, baseline: Path | None) -> Iterator[str]:
    """``exec``, ``report`` and ``score`` with ``--jobs 2`` beside serial: the wall-clock speed-up, and what bounds it
    whatever the machine's load: the CPU of the parent (reading, cutting, merging, writing) and of all processes.
    On 2 cores the 2-job run takes at least max(parent, all / 2), so serial CPU / that is the speed-up it could
    reach on an idle machine."""
    gold, predictions, inputs = _jobs_inputs(bench)
    out = bench.work / "jobs-exec.jsonl"
    commands = {
        "exec FinQA all splits + ConvFinQA dev, train_partial": [
            "exec", *map(str, inputs), "--quiet", "--out", str(out)],
        "report FinQA all splits + ConvFinQA dev, train_partial": [
            "report", *map(str, inputs), "--no-progress", "--out", str(bench.work / "jobs-report")],
        "score FinQA all splits (gold programs as predictions)": [
            "score", "--gold", str(gold), "--pred", str(predictions), "--no-progress", "--json"],
    }
    sides = [("progexec", bench.env)]
    if baseline is not None:
        sides.append((f"baseline {baseline}", {**bench.env, "PYTHONPATH": str(baseline)}))
    adopted = _subreaper(True)
    yield (f"CPU of the processes a command leaves behind (a forkserver and its workers) "
           f"{'counted' if adopted else 'NOT counted: this system has no subreaper'}")
    yield ""
    yield ("| src | command | serial wall s | --jobs 2 wall s | speed-up (wall) | serial CPU s | --jobs 2 parent CPU s "
           "| --jobs 2 all CPU s | parent share | speed-up bound by CPU | same output | goal >= 1.7x |")
    yield "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
    try:
        for side, env in sides:
            for label, command in commands.items():
                runs: dict[str, list[tuple[float, float, float, int, str]]] = {"1": [], "2": []}
                for _ in range(bench.repeat):  # serial and --jobs 2 in turn, so a change of load hits both
                    for jobs in ("1", "2"):
                        run = _run_all([bench.python, "-c", _PARENT_CPU, *command, "--jobs", jobs], env)
                        if command[0] in ("exec", "report"):  # what they wrote, not what they printed
                            written = out if command[0] == "exec" else bench.work / "jobs-report" / "report.json"
                            run = (*run[:4], written.read_text(encoding="utf-8"))
                        runs[jobs].append(run)
                # each figure is its best over the runs (the least disturbed by other processes)
                serial_wall, serial_cpu = min(run[0] for run in runs["1"]), min(run[2] for run in runs["1"])
                two_wall, parent, total = (min(run[0] for run in runs["2"]), min(run[1] for run in runs["2"]),
                                           min(run[2] for run in runs["2"]))
                (_, _, _, serial_code, serial_out), (_, _, _, two_code, two_out) = runs["1"][0], runs["2"][0]
                same = "yes" if serial_out == two_out and serial_code == two_code else "NO"
                if same == "NO":
                    bench.problems.append(f"jobs {label} ({side}): --jobs 2 output differs from serial")
                speed = serial_wall / two_wall
                bound = serial_cpu / max(parent, total / 2)
                yield (f"| {side} | {label} | {serial_wall:.2f} | {two_wall:.2f} | {speed:.2f}x | {serial_cpu:.2f} "
                       f"| {parent:.2f} | {total:.2f} | {parent / total:.0%} | {bound:.2f}x | {same} "
                       f"| {_goal(speed >= PARALLEL_GOAL)} |")
    finally:
        _subreaper(False)


# ---------------------------------------------------------------- Ray, cluster started first


def ray_table(bench: user_path.Bench, count: int, lines_per_task: int | None = None) -> Iterator[str]:
    """Two paths to Ray over the same lines, each beside its serial run in this process: the chunks ``progexec reward``
    sends (``parallel_map``, raw lines in, one text back) and ``score_batch`` as Ray tasks, as the docs' example.
    Wall times are the best of two runs, serial and Ray alternating, so a burst of other load hits both sides; the
    CPU columns say what the work cost, which other processes' load disturbs far less than the wall, and the cores
    each side got (CPU / wall) say how much of the machine it was given: where the kernel shares the CPU between
    sessions (autogroup), a busy machine gives this session's two workers no more than its one serial process."""
    if importlib.util.find_spec("ray") is None:
        yield "Ray is not installed: no row (pip install 'progexec[ray]')"
        return
    import ray
    from functools import partial

    from progexec.cli.reward_cmd import _score_chunk_text, read_chunks
    from progexec.parallel import Engine, ParallelOptions, PerItem, parallel_map
    from progexec.reward import score_batch

    from progexec.core.limits import current

    runs, size = 2, lines_per_task or current().reward_ray_chunk_lines
    source = reward_input(bench.work / "ray-numeric.jsonl", count, "numeric")
    lines = source.read_text(encoding="utf-8").splitlines()
    work = PerItem(partial(_score_chunk_text, None))
    on_ray: dict[str, Any] = {}

    def reward_chunks(engine: Engine) -> object:
        options = ParallelOptions(engine, jobs=2 if engine is Engine.RAY else 1, chunk_size=1)
        return "".join(out for out, _ in parallel_map(work, read_chunks(str(source), size), options))

    def batches(engine: Engine) -> object:
        starts = range(0, len(lines), size)
        if engine is Engine.SERIAL:
            return [record for start in starts for record in score_batch(lines[start:start + size], "numeric",
                                                                          first_line=start + 1)]
        tasks = [on_ray["score"].remote(lines[start:start + size], "numeric", first_line=start + 1) for start in starts]
        return [record for chunk in ray.get(tasks) for record in chunk]

    def measured(run: Callable[[Engine], object], engine: Engine) -> tuple[float, float, float, object]:
        """Wall s, this process's CPU s, and every process's CPU s (Ray's daemons and workers too) of one run."""
        cpu_all, cpu, started = _tree_cpu(), time.process_time(), time.perf_counter()
        out = run(engine)
        wall = time.perf_counter() - started
        return wall, time.process_time() - cpu, _tree_cpu() - cpu_all, out

    headroom = _two_process_headroom(bench.python)
    serial = {name: measured(run, Engine.SERIAL) for name, run in (("reward", reward_chunks), ("batch", batches))}
    os.environ["PYTHONPATH"] = bench.env["PYTHONPATH"]  # the workers import the progexec measured here
    started = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    cluster = time.perf_counter() - started
    rows: list[str] = []
    try:
        on_ray["score"] = ray.remote(score_batch)
        first = {name: measured(run, Engine.RAY)[0] for name, run in (("reward", reward_chunks), ("batch", batches))}
        for name, run, label in (("reward", reward_chunks, "`progexec reward`'s chunks (parallel_map, text back)"),
                                 ("batch", batches, "`score_batch` as Ray tasks (the docs' example, records back)")):
            serials, rays = [serial[name]], []
            for index in range(runs):
                rays.append(measured(run, Engine.RAY))
                if index < runs - 1:
                    serials.append(measured(run, Engine.SERIAL))
            best_serial, best_ray = min(serials, key=lambda one: one[0]), min(rays, key=lambda one: one[0])
            same = "yes" if all(one[3] == serials[0][3] for one in serials + rays) else "NO"
            if same == "NO":
                bench.problems.append(f"ray: {name} output differs from serial")
            speed = best_serial[0] / best_ray[0]
            rows.append(f"| {label} | {count:,} | {size:,} | {first[name]:.2f} | {best_serial[0]:.2f} "
                        f"| {best_ray[0]:.2f} | {speed:.2f}x | {best_serial[1]:.2f} | {best_ray[2]:.2f} ({best_ray[1]:.2f}) "
                        f"| {best_serial[1] / best_serial[0]:.2f} / {best_ray[2] / best_ray[0]:.2f} | {same} "
                        f"| {_goal(speed >= RAY_GOAL)} |")
    finally:
        ray.shutdown()
    yield f"cluster start (apart): {cluster:.2f} s; load average at the end {os.getloadavg()[0]:.1f}"
    yield (f"what two processes of this session got: {headroom:.2f}x the throughput of one before the runs, "
           f"{_two_process_headroom(bench.python):.2f}x after (two pure-Python loops at once beside one alone; no "
           "engine with two workers can do better)")
    yield ""
    yield ("| path | completions | lines per task | Ray's first pass s (workers start; apart) | serial wall s "
           f"| Ray 2 CPUs wall s | speed-up (best of {runs} each) | serial CPU s "
           "| Ray CPU s, every process (the driver) | cores got (CPU / wall): serial / Ray | same output | goal >= 1.5x |")
    yield "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
    yield from rows


def _two_process_headroom(python: str) -> float:
    """Two CPU-bound child processes at once beside one alone: the throughput two workers can have on this machine
    now, given the other processes' load (the ceiling of any 2-worker speed-up measured beside it)."""
    import subprocess

    spin = [python, "-c", "x = 0\nfor i in range(15_000_000): x += i"]

    def wall(count: int) -> float:
        started = time.perf_counter()
        children = [subprocess.Popen(spin) for _ in range(count)]
        for child in children:
            child.wait()
        return time.perf_counter() - started

    return 2 * wall(1) / wall(2)


def _tree_cpu() -> float:
    """CPU seconds of this process and every descendant still running (a local Ray's daemons and workers); this
    process's alone without psutil."""
    try:
        import psutil
    except ImportError:
        return time.process_time()
    total = 0.0
    me = psutil.Process()
    for process in [me, *me.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.Error:  # ended meanwhile
            continue
        total += times.user + times.system
    return total


# ---------------------------------------------------------------- async rewards: a responsive event loop


def async_table(bench: user_path.Bench) -> Iterator[str]:
    import asyncio

    from progexec.integrations.trl import AsyncProgexecReward
    from progexec.integrations.verl import compute_score_async

    runs_per_case = 5  # "never late": the worst run is the figure, not the best

    data = REPO / "tests" / "data" / "rewards"
    items = [json.loads(line) for line in gzip.decompress((data / "convfinqa_sonnet.jsonl.gz").read_bytes())
             .decode("utf-8").splitlines()]
    long_ones = ["Let me think. " * 75_000 + "Answer: 94.0", "Let me think. " * 7_000 + "Answer: 94.0"] * 20
    completions = [item["completion"] for item in items] + long_ones
    answers = [str(item["gold"]["answer"]) for item in items] + ["94.0"] * len(long_ones)
    programs = [item["gold"]["program"] for item in items] + ["subtract(5829, 5735)"] * len(long_ones)

    async def probed(work: Callable[[], Any]) -> tuple[float, float, int]:
        done = asyncio.Event()
        late: list[float] = []

        async def probe() -> None:
            loop = asyncio.get_running_loop()
            while not done.is_set():
                planned = loop.time() + 0.01
                await asyncio.sleep(0.01)
                late.append(loop.time() - planned)

        ticker = asyncio.create_task(probe())
        started = time.perf_counter()
        await work()
        seconds = time.perf_counter() - started
        done.set()
        await ticker
        return seconds, max(late, default=0.0), len(late)

    def verl_batch() -> Any:
        return asyncio.gather(*(compute_score_async("progexec/convfinqa", completion, answer, {"program": program})
                                for completion, answer, program in zip(completions, answers, programs)))

    def trl_batch() -> Any:
        return AsyncProgexecReward(policy="numeric")(prompts=None, completions=completions, answer=answers,
                                                     program=programs)

    yield ("| reward | completions (of them 1 MB / 99,000 chars) | runs | seconds (median) | probe ticks (median) "
           "| most late ms (worst run) | goal <= 100 ms |")
    yield "|---|---:|---:|---:|---:|---:|---|"
    for label, work in (("verl compute_score_async (gathered)", verl_batch),
                        ("TRL AsyncProgexecReward (one batch)", trl_batch)):
        runs = sorted(asyncio.run(probed(work)) for _ in range(runs_per_case))
        seconds, _, ticks = runs[len(runs) // 2]
        late = max(run[1] for run in runs)
        yield (f"| {label} | {len(completions):,} (20 / 20) | {len(runs)} | {seconds:.2f} | {ticks} | {late * 1000:.1f} "
               f"| {_goal(late <= 0.1)} |")


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


PARTS = ("startup", "inprocess", "cold", "exec", "reward", "jobs", "ray", "async", "check")


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
    parser.add_argument("--ray-n", type=int, default=100_000, help="ray: completions (the goal's run: 100000)")
    parser.add_argument("--ray-lines", type=int, default=None,
                        help="ray: input lines per task (default: what progexec reward sends on Ray, "
                             "reward_ray_chunk_lines)")
    parser.add_argument("--check-cases", type=int, default=50_000, help="check-evaluator: cases per run")
    parser.add_argument("--progexec-src", type=Path, default=REPO / "src")
    parser.add_argument("--baseline-src", type=Path, default=None,
                        help="another progexec src measured in the same run (start-up, cold, exec, reward, jobs)")
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
            "cold": ("cold execute: each distinct program once in a fresh process, best of the runs",
                     lambda: cold_table(bench, args.baseline_src)),
            "reward": ("progexec reward", lambda: reward_table(bench, args.reward_n, args.baseline_src)),
            "jobs": ("--jobs 2 beside serial, wall time, best of the runs", lambda: jobs_table(bench, args.baseline_src)),
            "ray": ("a local 2-CPU Ray cluster beside serial, in this process", lambda: ray_table(bench, args.ray_n, args.ray_lines)),
            "async": ("async rewards: how late a probe coroutine gets", lambda: async_table(bench)),
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
