"""Cross-check progexec's FinanceMath scoring against the official evaluation code, item by item.

Usage: ``python scripts/crosscheck_financemath.py CHECKOUT [--data DIR]`` where CHECKOUT is a local
checkout of yale-nlp/FinanceMath and DIR holds ``validation.json.gz``, ``raw_pot_outputs/*.json.gz``
and ``validation_pot_results.json`` (default: ``../shared/data/financemath`` beside the repository).

1. The official loop (``evaluation.py``'s ``evaluate_pot_pred_file``, with ``utils/evaluation_utils.py``)
   runs in a throwaway process, in a fresh temporary directory: it executes model code unguarded,
   so nothing else runs there. Its modules for the OpenAI API, ``evaluate`` and ``tqdm`` are stubbed
   (the program-of-thought path never uses them); numpy, scipy, sympy and pandas are imported before it,
   as in the published runs.
2. ``progexec.datasets.pysolution`` scores the same files in its sandbox.
3. Compared: every item's ``acc`` and ``execution_rate`` (progexec vs the rerun, and vs the published
   ``outputs/validation/processed_pot_outputs`` when the checkout has them), every model's accuracy and
   execution rate (vs the rerun and the published results file), the code extraction on every output, and
   the answer rule on every item's actual values plus 200,000 generated pairs.

Exit 0 when everything agrees, 1 otherwise (each difference printed).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "financemath"


def load_json(path: Path) -> Any:
    with (gzip.open(path, "rt", encoding="utf-8") if path.name.endswith(".gz") else path.open(encoding="utf-8")) as f:
        return json.load(f)


def import_official(checkout: Path) -> types.ModuleType:
    """The checkout's ``evaluation`` module, its API-only imports stubbed."""
    import importlib
    import importlib.util
    for name in ("openai", "evaluate", "tqdm", "utils.openai_utils"):
        if name not in sys.modules:
            sys.modules[name] = types.ModuleType(name)
    setattr(sys.modules["openai"], "AsyncOpenAI", object)
    setattr(sys.modules["evaluate"], "load", None)
    setattr(sys.modules["tqdm"], "tqdm", lambda iterable, **kwargs: iterable)
    sys.path.insert(0, str(checkout))
    for library in ("numpy", "scipy", "sympy", "pandas"):  # loaded before the loop, as in the published runs
        importlib.import_module(library)
    spec = importlib.util.spec_from_file_location("evaluation", checkout / "evaluation.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def official_worker(checkout: Path, gold: Path, out: Path, predictions: list[Path]) -> None:
    """Run in the throwaway process: the official loop over every prediction file; write per-item results."""
    evaluation = import_official(checkout)
    truth = {example["question_id"]: example for example in load_json(gold)}
    results: dict[str, Any] = {}
    started = time.perf_counter()
    for path in predictions:
        outputs, accuracy, execution_rate, _, _ = evaluation.evaluate_pot_pred_file(load_json(path), truth, None)
        results[path.name.split(".")[0]] = {
            "accuracy": accuracy, "execution_rate": execution_rate,
            "items": [[o["question_id"], o["result"]["acc"], o["result"]["execution_rate"]] for o in outputs]}
    results["_seconds"] = time.perf_counter() - started
    out.write_text(json.dumps(results), encoding="utf-8")


def run_official(checkout: Path, data: Path) -> dict[str, Any]:
    """The official loop in a fresh process and a disposable directory; its per-item results."""
    files = sorted((data / "raw_pot_outputs").glob("*.json*"))
    with tempfile.TemporaryDirectory(prefix="financemath-official-") as scratch:
        out = Path(scratch) / "official.json"
        command = [sys.executable, str(Path(__file__).resolve()), "--official-worker", str(checkout),
                   str(data / "validation.json.gz"), str(out), *map(str, files)]
        subprocess.run(command, cwd=scratch, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True, timeout=1800)
        results: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return results


def run_progexec(data: Path, jobs: int, cpu_seconds: float | None = None) -> Any:
    sys.path.insert(0, str(ROOT / "src"))
    from progexec.datasets.pysolution.datasets import FINANCEMATH
    from progexec.datasets.pysolution.pool import Budget
    from progexec.datasets.pysolution.scoring import load_records, model_name, score_runs
    files = sorted((data / "raw_pot_outputs").glob("*.json*"))
    budget = Budget(cpu_seconds=cpu_seconds) if cpu_seconds is not None else None
    return score_runs(FINANCEMATH, load_records(data / "validation.json.gz"),
                      [(model_name(path), load_records(path)) for path in files], jobs=jobs, budget=budget)


def near_clock(data: Path, jobs: int, board: Any, seconds: float) -> list[str]:
    """The items whose status changes when the CPU limit drops from 3 s to ``seconds``: the solutions that
    need between ``seconds`` and 3 s, whose outcome a slower machine (or the official wall-clock alarm on a
    busy one) could change."""
    tighter = run_progexec(data, jobs, seconds)
    found = []
    for model, other in zip(board.models, tighter.models):
        for item, changed in zip(model.items, other.items):
            if item.result.status != changed.result.status:
                found.append(f"{model.name} {item.id}: {item.result.status.value} at 3 s, "
                             f"{changed.result.status.value} at {seconds:g} s")
    return found


def published_items(checkout: Path, model: str) -> dict[str, tuple[int, int]] | None:
    path = checkout / "outputs" / "validation" / "processed_pot_outputs" / f"{model}.json"
    if not path.exists():
        return None
    return {o["question_id"]: (o["result"]["acc"], o["result"]["execution_rate"]) for o in load_json(path)}


def check_extraction_and_rule(checkout: Path, data: Path, board: Any) -> list[str]:
    """The extraction on every output and the rule on every item's values and on generated pairs."""
    import numpy as np
    evaluation = import_official(checkout)
    from progexec.datasets.pysolution.extract import extract_code
    from progexec.datasets.pysolution.official import Gold, official_verdict
    problems: list[str] = []
    for path in sorted((data / "raw_pot_outputs").glob("*.json*")):
        for record in load_json(path):
            output = record["output"][0] if isinstance(record["output"], list) else record["output"]
            if evaluation.process_single_pot_output(output) != extract_code(output):
                problems.append(f"extraction differs: {path.name} {record['question_id']}")
    rng = random.Random(20240601)
    specials = [0, 0.0, -0.0, float("nan"), float("inf"), -float("inf"), 1e306, 1.0001e306, 5, -5, 10 ** 400]
    pairs: list[tuple[Any, Any]] = []
    for model in board.models:
        for item in model.items:
            gold = board.gold[[q.id for q in board.gold].index(item.id)].result
            if item.result.number is not None and gold is not None:
                pairs.append((item.result.number, gold.python_value()))
    for _ in range(200_000):
        gold_value: Any = rng.choice(specials) if rng.random() < 0.1 else rng.uniform(-1e4, 1e4) * 10 ** rng.randint(-6, 6)
        if isinstance(gold_value, float) and rng.random() < 0.3:
            gold_value = np.float64(gold_value)
        base = float(gold_value) if not isinstance(gold_value, int) or abs(gold_value) < 1e300 else 1.0
        factor = rng.choice([1, -1, 10, 100, 1000, 0.01, 0.001, 1e5, 1.001, 0.9985, 1.0015, 1 + rng.uniform(-0.004, 0.004)])
        pairs.append((rng.choice(specials) if rng.random() < 0.05 else base * factor, gold_value))
    for prediction, gold_value in pairs:
        name = type(gold_value).__name__
        value = gold_value if name in ("int", "bool") else float(gold_value)
        try:
            number: float | None = float(prediction)
        except OverflowError:
            number = None
        ours = int(official_verdict(number, Gold(name, value))[0])
        if ours != evaluation.get_acc(prediction, gold_value, cot=False):
            problems.append(f"rule differs: prediction {prediction!r}, gold {gold_value!r}")
    return problems


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--official-worker":
        official_worker(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]), [Path(p) for p in sys.argv[5:]])
        return 0
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path, help="a local checkout of yale-nlp/FinanceMath")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"the data directory (default {DEFAULT_DATA})")
    parser.add_argument("--jobs", type=int, default=4 * (os.cpu_count() or 1))
    parser.add_argument("--divergences", action="store_true", help="also print progexec's divergence report")
    parser.add_argument("--near-clock", type=float, default=None, metavar="SECONDS",
                        help="also list the items whose status changes with a CPU limit of SECONDS instead of 3")
    args = parser.parse_args()
    official = run_official(args.checkout, args.data)
    board = run_progexec(args.data, args.jobs)
    published = {row["model_name"]: row for row in load_json(args.data / "validation_pot_results.json")}
    problems: list[str] = []
    items = 0
    for model in board.models:
        ours = {item.id: (int(item.official), int(item.executed)) for item in model.items}
        rerun = {qid: (acc, rate) for qid, acc, rate in official[model.name]["items"]}
        items += len(ours)
        for qid in sorted(set(ours) | set(rerun)):
            if ours.get(qid) != rerun.get(qid):
                problems.append(f"{model.name} {qid}: progexec {ours.get(qid)}, official rerun {rerun.get(qid)}")
        stored = published_items(args.checkout, model.name)
        if stored is not None and stored != ours:
            problems.append(f"{model.name}: per-item results differ from the published processed outputs")
        figures = (model.accuracy, model.execution_rate)
        if figures != (official[model.name]["accuracy"], official[model.name]["execution_rate"]):
            problems.append(f"{model.name}: progexec {figures}, official rerun "
                            f"{(official[model.name]['accuracy'], official[model.name]['execution_rate'])}")
        row = published.get(model.name)
        if row is None or figures != (row["accuracy"], row["execution_rate"]):
            problems.append(f"{model.name}: progexec {figures}, published "
                            f"{None if row is None else (row['accuracy'], row['execution_rate'])}")
    problems += check_extraction_and_rule(args.checkout, args.data, board)
    if args.near_clock is not None:
        changed = near_clock(args.data, args.jobs, board, args.near_clock)
        print(f"items whose status changes between {args.near_clock:g} s and 3 s of CPU: {len(changed)}")
        for line in changed:
            print(f"    {line}")
    if args.divergences:
        from progexec.datasets.pysolution.report import divergence_text
        print(divergence_text(board), end="")
    for problem in problems[:200]:
        print(problem)
    print(f"{len(board.models)} models, {items} items: {len(problems)} difference(s) from the official code, "
          f"its rerun and the published results")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
