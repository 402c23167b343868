#!/usr/bin/env python3
"""The user's path, side by side with the official scripts, in one run: score, exec and memory.

Every progexec figure comes from the CLI run as a subprocess on the files as downloaded
(``../shared/data``); every official figure comes from the official code of a checkout of
czyssrs/FinQA and czyssrs/ConvFinQA (never copied here), run the way its README says or, where
its ``__main__`` has hard-coded paths, by ``official_driver.py`` calling its own functions.

* score:  ``python evaluate.py PRED GOLD`` beside ``progexec score --gold GOLD --pred PRED --json``
          on every FinQA prediction set; ConvFinQA dev through the official ``evaluate_result``.
          Prints seconds, the speed-up and whether both gave the same accuracies (goal >= 10x).
* exec:   ``progexec exec FILE`` per program (start-up removed) beside the official
          ``program_tokenization`` + ``eval_program`` loop over the same programs (goal <= 1x).
* memory: peak RSS of ``progexec exec`` on a generated JSON Lines file of ``--big-gb`` GB
          (goal < 200 MB); the file is deleted afterwards.

Get the official code (any checkout works; the commits read for this benchmark are 0f16e28 and cf3eed2):

    git clone https://github.com/czyssrs/FinQA /tmp/official/FinQA
    git clone https://github.com/czyssrs/ConvFinQA /tmp/official/ConvFinQA
    pip install sympy numpy tqdm          # what the official scripts import

    python benchmarks/bench_user_path.py --official-finqa /tmp/official/FinQA \\
        --official-convfinqa /tmp/official/ConvFinQA [--progexec-src PATH] [--skip-big]
"""

from __future__ import annotations

import argparse
import enum
import json
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import partial
from pathlib import Path
from typing import Any

import official_driver

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DRIVER = HERE / "official_driver.py"
SCORE_GOAL = 10.0
"""score must be at least this many times faster than the official evaluate.py."""
EXEC_GOAL = 1.0
"""exec's time per program divided by the official loop's must be at most this."""
MEMORY_GOAL_MB = 200.0
"""exec's peak RSS on the big input must stay below this."""
FINQA_SCRIPT = Path("code/evaluate/evaluate.py")
CONVFINQA_SCRIPT = Path("code/utils/general_utils.py")
TITLES = {"score": "one run of each side per set; speed-up = official seconds / progexec seconds",
          "exec": "best of {args.repeat}; ratio = progexec / official CPU time per program",
          "memory": "progexec exec on a generated {args.big_gb:g} GB JSON Lines file"}
_ACCURACY = re.compile(r"^(Exe|Prog) acc:\s+(\S+)\s*$", re.MULTILINE)


class Dialect(enum.Enum):
    """Which official evaluator scores a set."""

    FINQA = "finqa"
    CONVFINQA = "convfinqa"


class Status(enum.Enum):
    """How one side of a row ended."""

    OK = "ok"
    SKIPPED = "skipped"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class Child:
    """One finished subprocess: wall and CPU seconds, peak RSS, exit code and output."""

    wall: float
    cpu: float
    max_rss_mb: float
    returncode: int
    stdout: str
    stderr: str


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a score row: its status, timing and the accuracies it printed."""

    status: Status
    child: Child | None = None
    accuracies: tuple[float, float] | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class ScoreSet:
    """A prediction file with the gold file each side reads (the same data; ConvFinQA's official side needs turns)."""

    name: str
    predictions: Path
    gold: Path
    official_gold: Path
    dialect: Dialect


def run_child(command: Sequence[str], *, env: dict[str, str] | None = None, cwd: Path | None = None,
              keep_stdout: bool = True, memory_cap_bytes: int | None = None) -> Child:
    """Run a command to completion; its own rusage (``os.wait4``) gives CPU time and peak RSS."""
    cap = None if memory_cap_bytes is None else partial(resource.setrlimit, resource.RLIMIT_AS,
                                                          (memory_cap_bytes, memory_cap_bytes))
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(list(command), env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                                   stdout=out if keep_stdout else subprocess.DEVNULL, stderr=err,
                                   preexec_fn=cap)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Child(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, process.returncode,
                     out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"))


def best_of(repeat: int, run: Callable[[], Child]) -> Child:
    """The run with the least CPU time of ``repeat`` runs (CPU time is what other processes' load disturbs least)."""
    return min((run() for _ in range(repeat)), key=lambda child: child.cpu)


def _tail(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:120] if lines else ""


def _official_accuracies(stdout: str) -> tuple[float, float] | None:
    found = dict(_ACCURACY.findall(stdout))
    if "Exe" not in found or "Prog" not in found:
        return None
    return float(found["Exe"]), float(found["Prog"])


def _progexec_accuracies(stdout: str) -> tuple[float, float] | None:
    try:
        official = json.loads(stdout)["scorers"]["official"]
        return float(official["execution_accuracy"]), float(official["program_accuracy"])
    except (json.JSONDecodeError, KeyError, TypeError, ValueError):
        return None


def _side(child: Child, accuracies: tuple[float, float] | None) -> Side:
    if child.returncode != 0 or accuracies is None:
        return Side(Status.FAILED, child, accuracies, f"exit {child.returncode}: {_tail(child.stderr or child.stdout)}")
    return Side(Status.OK, child, accuracies)


class Bench:
    """The settings of one benchmark run and the commands it builds from them."""

    def __init__(self, args: argparse.Namespace, work: Path) -> None:
        self.python: str = args.python
        self.data: Path = args.data
        self.work = work
        self.repeat: int = args.repeat
        self.sets: list[str] = args.sets
        self.env = {**os.environ, "PYTHONPATH": str(args.progexec_src)}
        self.finqa: Path | None = _script_dir(args.official_finqa, FINQA_SCRIPT)
        self.convfinqa: Path | None = _script_dir(args.official_convfinqa, CONVFINQA_SCRIPT)
        self.problems: list[str] = []
        """Disagreements and progexec failures found so far (they make the exit code 1)."""

    def progexec(self, *arguments: str, keep_stdout: bool = True, memory_cap_bytes: int | None = None) -> Child:
        """``python -m progexec ARGUMENTS`` with the selected progexec source on PYTHONPATH."""
        return run_child([self.python, "-m", "progexec", *arguments], env=self.env, keep_stdout=keep_stdout,
                         memory_cap_bytes=memory_cap_bytes)

    def driver(self, *arguments: str) -> Child:
        """``python official_driver.py ARGUMENTS`` (the official code, imported from the checkout)."""
        return run_child([self.python, str(DRIVER), *arguments])


def _script_dir(checkout: Path | None, script: Path) -> Path | None:
    """The directory holding the official script, given the checkout root (or the script's own directory)."""
    if checkout is None:
        return None
    for candidate in (checkout / script.parent, checkout):
        if (candidate / script.name).is_file():
            return candidate
    raise SystemExit(f"{checkout}: no {script} in this checkout (expected a clone of the official repository)")


# ---------------------------------------------------------------- score


def score_sets(bench: Bench) -> Iterator[ScoreSet]:
    """Every FinQA prediction set with its split's gold file, then the ConvFinQA dev sets (when they can be built)."""
    finqa = bench.data / "finqa"
    for path in sorted((finqa / "predictions").glob("*.json")):
        gold = finqa / ("dev.json" if "_dev_" in path.name else "test.json")
        yield ScoreSet(path.stem.removesuffix("_predictions"), path, gold, gold, Dialect.FINQA)
    if bench.convfinqa is None:
        return
    dev = bench.data / "convfinqa" / "dev.json"
    made = bench.driver("convfinqa-inputs", str(bench.convfinqa), "general_utils", str(dev), str(bench.work))
    if made.returncode != 0:
        raise SystemExit(f"could not build the ConvFinQA inputs with the official tokenizer: {_tail(made.stderr)}")
    turns = bench.work / official_driver.TURN_FILE
    for label, name in (("gold-as-prediction", official_driver.GOLD_AS_PRED_FILE),
                        ("last-args-swapped", official_driver.SWAPPED_FILE)):
        yield ScoreSet(f"convfinqa-dev {label} (synthetic)", bench.work / name, dev, turns, Dialect.CONVFINQA)


def official_score(bench: Bench, item: ScoreSet) -> Side:
    """The official evaluator on one set: ``python evaluate.py PRED GOLD`` for FinQA, the driver for ConvFinQA."""
    if item.dialect is Dialect.FINQA:
        if bench.finqa is None:
            return Side(Status.SKIPPED, note="no --official-finqa")
        child = run_child([bench.python, FINQA_SCRIPT.name, str(item.predictions), str(item.official_gold)],
                          cwd=bench.finqa)
    else:
        assert bench.convfinqa is not None  # ConvFinQA sets exist only with a ConvFinQA checkout
        child = bench.driver("convfinqa-score", str(bench.convfinqa), "general_utils", str(item.predictions),
                             str(item.official_gold), str(bench.work))
    return _side(child, _official_accuracies(child.stdout))


def progexec_score(bench: Bench, item: ScoreSet) -> Side:
    """``progexec score --gold FILE --pred FILE --json``, the gold given as the downloaded file's path."""
    child = bench.progexec("score", "--gold", str(item.gold), "--pred", str(item.predictions), "--json")
    return _side(child, _progexec_accuracies(child.stdout))


def _seconds(side: Side) -> str:
    return f"{side.child.wall:.2f}" if side.child is not None and side.status is Status.OK else side.status.value


def _ratio(numerator: float, denominator: float) -> str:
    return f"{numerator / denominator:.1f}x" if denominator > 0 else "-"


def score_table(bench: Bench) -> Iterator[str]:
    """Run every score set on both sides, yielding the table row by row; disagreements go to ``bench.problems``."""
    yield ("| prediction set | official s | progexec s | speed-up (wall) | speed-up (CPU) | official exe / prog "
           "| progexec exe / prog | same | goal >= 10x |")
    yield "|---|---:|---:|---:|---:|---|---|---|---|"
    notes: list[str] = []
    for item in score_sets(bench):
        if bench.sets and not any(part in item.name for part in bench.sets):
            continue
        official, ours = official_score(bench, item), progexec_score(bench, item)
        both = official.status is Status.OK and ours.status is Status.OK
        same = "-" if not both else ("yes" if official.accuracies == ours.accuracies else "NO")
        if same == "NO":
            bench.problems.append(f"{item.name}: progexec's official scorer disagrees with the official script")
        if both and official.child is not None and ours.child is not None:
            wall = _ratio(official.child.wall, ours.child.wall)
            cpu = _ratio(official.child.cpu, ours.child.cpu)
            goal = "met" if official.child.wall / ours.child.wall >= SCORE_GOAL else "NOT met"
        else:
            wall = cpu = goal = "-"
        yield (f"| {item.name} | {_seconds(official)} | {_seconds(ours)} | {wall} | {cpu} "
               f"| {_pair(official.accuracies)} | {_pair(ours.accuracies)} | {same} | {goal} |")
        for side, result in (("official", official), ("progexec", ours)):
            if result.status is Status.FAILED:
                notes.append(f"{item.name}: {side} {result.note}")
                if side == "progexec":
                    bench.problems.append(notes[-1])
    if notes:
        yield ""
    yield from (f"- {note}" for note in notes)


def _pair(accuracies: tuple[float, float] | None) -> str:
    return "-" if accuracies is None else f"{accuracies[0]:.6g} / {accuracies[1]:.6g}"


# ---------------------------------------------------------------- exec


def _exec_inputs(bench: Bench) -> list[tuple[str, Path, str, Path | None]]:
    """(name, file, official module, official module's directory) for each exec row."""
    return [("finqa test", bench.data / "finqa" / "test.json", "evaluate", bench.finqa),
            ("finqa dev", bench.data / "finqa" / "dev.json", "evaluate", bench.finqa),
            ("convfinqa dev (turns)", bench.data / "convfinqa" / "dev.json", "general_utils", bench.convfinqa)]


def _write_items(target: Path, items: list[Any]) -> Path:
    target.write_text(json.dumps(items), encoding="utf-8")
    return target


def _copies(items: list[Any], copies: int) -> list[Any]:
    """The items repeated ``copies`` times, the first copy unchanged, the others with fresh ids."""
    return [item if copy == 0 else {**item, "id": f"{item['id']}#{copy}"} for copy in range(copies) for item in items]


def exec_table(bench: Bench, copies: int) -> Iterator[str]:
    """progexec exec per program beside the official loop over the same programs, from the checkout.

    Times are CPU seconds (the child's user + system time; the official loop's process time), the
    measure least disturbed by other processes on a shared machine. Start-up (about 0.6 s) varies by
    about 0.1 s between runs, more than a file's programs take, so the per-program figure is the
    difference between a run on the file repeated ``copies`` times and a run on its first item.
    The official loop's figure is its best of ``repeat * copies`` passes over the file.
    """
    def exec_cpu(path: Path) -> Child:
        return best_of(bench.repeat, lambda: bench.progexec("exec", str(path), "--quiet", keep_stdout=False))

    empty = bench.work / "empty.json"
    empty.write_text("[]", encoding="utf-8")
    start_up = exec_cpu(empty)
    yield (f"progexec exec on an empty file (interpreter and import start-up): {start_up.cpu:.3f} s CPU, "
           f"{start_up.wall:.3f} s wall (exit {start_up.returncode})")
    yield ""
    yield (f"| input | programs | progexec CPU s (wall s) | CPU s x{copies} | 1-item CPU s "
           f"| progexec µs/program (x{copies} - 1-item) | official loop µs/program | ratio | goal <= 1x |")
    yield "|---|---:|---:|---:|---:|---:|---:|---:|---|"
    for name, path, module, directory in _exec_inputs(bench):
        stem = f"{path.parent.name}-{path.stem}"
        items = json.loads(path.read_text(encoding="utf-8"))
        n, n_first = _count_programs(items), _count_programs(items[:1])
        full = exec_cpu(path)
        many = exec_cpu(_write_items(bench.work / f"{stem}-x{copies}.json", _copies(items, copies)))
        one = exec_cpu(_write_items(bench.work / f"{stem}-1.json", items[:1]))
        failed = next((child for child in (full, many, one) if child.returncode != 0), None)
        if failed is not None:
            bench.problems.append(f"exec {name}: exit {failed.returncode}: {_tail(failed.stderr)}")
            yield f"| {name} | {n} | failed: exit {failed.returncode} | | | | | | |"
            continue
        per_program = (many.cpu - one.cpu) / (n * copies - n_first) * 1e6
        loop = _official_loop(bench, module, directory, path, bench.repeat * copies)
        if loop is None:
            official_cell, ratio, goal = "no checkout", "-", "-"
        else:
            official_us = float(loop["cpu"]) / int(loop["n"]) * 1e6
            official_cell, ratio = f"{official_us:.1f}", f"{per_program / official_us:.2f}x"
            goal = "met" if per_program / official_us <= EXEC_GOAL else "NOT met"
        yield (f"| {name} | {n} | {full.cpu:.3f} ({full.wall:.3f}) | {many.cpu:.3f} | {one.cpu:.3f} "
               f"| {per_program:.1f} | {official_cell} | {ratio} | {goal} |")


def _official_loop(bench: Bench, module: str, directory: Path | None, path: Path,
                   passes: int) -> dict[str, Any] | None:
    """The official loop's best pass of ``passes`` over the file (one pass takes only about 20 ms)."""
    if directory is None:
        return None
    child = bench.driver("exec-loop", str(directory), module, str(path), "--repeat", str(passes))
    if child.returncode != 0:
        raise SystemExit(f"the official loop failed on {path}: {_tail(child.stderr)}")
    result: dict[str, Any] = json.loads(child.stdout)
    return result


def _count_programs(items: list[Any]) -> int:
    """Programs in FinQA items (one each) or ConvFinQA conversations (one per turn)."""
    return sum(1 if "qa" in item else len(item["annotation"]["turn_program"]) for item in items)


# ---------------------------------------------------------------- memory


def write_big_input(source: Path, target: Path, size_bytes: int) -> int:
    """JSON Lines of FinQA test items (program, table, exe_ans), repeated with fresh ids up to ``size_bytes``."""
    items = json.loads(source.read_text(encoding="utf-8"))
    bodies = [json.dumps({"program": item["qa"]["program"], "table": item["table"],
                          "exe_ans": item["qa"]["exe_ans"]})[1:] for item in items]
    written = lines = 0
    with target.open("w", encoding="utf-8") as handle:
        while written < size_bytes:
            for item, body in zip(items, bodies):
                line = f'{{"id": {json.dumps(item["id"] + "#" + str(lines // len(items)))}, {body}\n'
                handle.write(line)
                written += len(line)
                lines += 1
                if written >= size_bytes:
                    break
    return lines


def memory_table(bench: Bench, size_gb: float, cap_gb: float) -> Iterator[str]:
    """Peak RSS of ``progexec exec`` on a generated file of ``size_gb`` GB (deleted afterwards)."""
    big = bench.work / "big.jsonl"
    try:
        lines = write_big_input(bench.data / "finqa" / "test.json", big, int(size_gb * 1e9))
        size = big.stat().st_size
        child = bench.progexec("exec", str(big), "--quiet", keep_stdout=False, memory_cap_bytes=int(cap_gb * 1e9))
    finally:
        big.unlink(missing_ok=True)
    outcome = "ok" if child.returncode == 0 else f"exit {child.returncode}: {_tail(child.stderr)}"
    goal = "met" if child.returncode == 0 and child.max_rss_mb < MEMORY_GOAL_MB else "NOT met"
    yield "| input | programs | wall s | CPU s | CPU µs/program | peak RSS MB | outcome | goal < 200 MB |"
    yield "|---|---:|---:|---:|---:|---:|---|---|"
    yield (f"| {size / 1e9:.3g} GB JSON Lines | {lines} | {child.wall:.1f} | {child.cpu:.1f} "
           f"| {child.cpu / lines * 1e6:.0f} | {child.max_rss_mb:.0f} | {outcome} | {goal} |")
    yield ""
    yield (f"(the child's address space is capped at {cap_gb:g} GB, so that a reader that does not stream fails "
           "instead of exhausting a shared machine)")


# ---------------------------------------------------------------- main


def _git(path: Path, *arguments: str) -> str:
    found = subprocess.run(["git", "-C", str(path), *arguments], capture_output=True, text=True)
    return found.stdout.strip() if found.returncode == 0 else ""


def _commit(path: Path) -> str:
    """HEAD, the last commit that changed files under ``path``, and whether any of them is modified now."""
    head = _git(path, "rev-parse", "--short", "HEAD")
    if not head:
        return "not a git checkout"
    last = _git(path, "log", "-1", "--format=%h %s", "--", ".")[:60]
    modified = _git(path, "diff", "--name-only", "--diff-filter=AM", "HEAD", "--", ".")
    return f"HEAD {head}; last change here: {last}" + ("; with uncommitted changes" if modified else "")


def _python_version(python: str) -> str:
    found = subprocess.run([python, "-c", "import platform; print(platform.python_version())"],
                           capture_output=True, text=True)
    return found.stdout.strip() or f"unknown: {_tail(found.stderr)}"


def header(bench: Bench, args: argparse.Namespace) -> list[str]:
    """Date, machine, interpreter and the code on each side, so the table can be read on its own."""
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    lines = [f"date: {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC",
             f"machine: {platform.machine()}, {os.cpu_count()} cores, load average {load}",
             f"python (both sides): {bench.python} ({_python_version(bench.python)})",
             f"progexec src: {args.progexec_src} ({_commit(args.progexec_src)})"]
    for name, directory in (("official FinQA", bench.finqa), ("official ConvFinQA", bench.convfinqa)):
        lines.append(f"{name}: {directory} ({_commit(directory)})" if directory is not None else
                     f"{name}: not given; its columns are skipped. Get it with: "
                     f"git clone https://github.com/czyssrs/{name.split()[1]} PATH, then pass "
                     f"--official-{name.split()[1].lower()} PATH")
    return lines


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    def env_path(name: str) -> Path | None:
        return Path(os.environ[name]) if os.environ.get(name) else None

    parser = argparse.ArgumentParser(allow_abbrev=False,
                                     description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--official-finqa", type=Path, default=env_path("PROGEXEC_OFFICIAL_FINQA"),
                        help="checkout of czyssrs/FinQA (env PROGEXEC_OFFICIAL_FINQA)")
    parser.add_argument("--official-convfinqa", type=Path, default=env_path("PROGEXEC_OFFICIAL_CONVFINQA"),
                        help="checkout of czyssrs/ConvFinQA (env PROGEXEC_OFFICIAL_CONVFINQA)")
    parser.add_argument("--progexec-src", type=Path, default=REPO / "src",
                        help="the progexec source put on PYTHONPATH (default: this repository's src)")
    parser.add_argument("--data", type=Path, default=env_path("PROGEXEC_DATA") or REPO.parent / "shared" / "data",
                        help="the downloaded datasets (default ../shared/data; env PROGEXEC_DATA)")
    parser.add_argument("--python", default=sys.executable, help="interpreter for both sides (default: this one)")
    parser.add_argument("--parts", default="score,exec,memory", help="comma-separated: score, exec, memory")
    parser.add_argument("--sets", action="append", default=[], metavar="TEXT",
                        help="score only the sets whose name contains TEXT (repeatable; default: all)")
    parser.add_argument("--repeat", type=int, default=3, help="exec runs per measurement; the best is kept")
    parser.add_argument("--exec-copies", type=int, default=10,
                        help="exec's per-program time is measured on each file repeated this many times")
    parser.add_argument("--big-gb", type=float, default=1.0, help="size of the generated memory input in GB")
    parser.add_argument("--big-cap-gb", type=float, default=8.0, help="address-space cap of the memory run in GB")
    parser.add_argument("--skip-big", action="store_true", help="skip the memory part")
    parser.add_argument("--tmp", type=Path, default=None, help="directory for generated files (default: a new one in /tmp)")
    args = parser.parse_args(argv)
    args.progexec_src = args.progexec_src.resolve()
    args.data = args.data.resolve()
    args.official_finqa = args.official_finqa.resolve() if args.official_finqa else None
    args.official_convfinqa = args.official_convfinqa.resolve() if args.official_convfinqa else None
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    parts = {part.strip() for part in args.parts.split(",")}
    if args.skip_big:
        parts.discard("memory")
    with tempfile.TemporaryDirectory(prefix="bench-user-path-", dir=args.tmp) as work:
        bench = Bench(args, Path(work))
        print("\n".join(header(bench, args)), flush=True)
        sections: list[tuple[str, Callable[[], Iterator[str]]]] = [
            ("score", lambda: score_table(bench)),
            ("exec", lambda: exec_table(bench, args.exec_copies)),
            ("memory", lambda: memory_table(bench, args.big_gb, args.big_cap_gb))]
        for name, table in sections:
            if name in parts:
                print(f"\n## {name}: {TITLES[name].format(args=args)}\n", flush=True)
                for line in table():
                    print(line, flush=True)
        if bench.problems:
            print("\nproblems:\n" + "\n".join(f"- {problem}" for problem in bench.problems))
    return 1 if bench.problems else 0


if __name__ == "__main__":
    sys.exit(main())
