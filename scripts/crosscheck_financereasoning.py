"""Cross-check progexec's FinanceReasoning scoring against the official evaluation code, item by item.

Usage: ``python scripts/crosscheck_financereasoning.py --checkout PATH [--level hard] [--jobs N]
[--write-fixture FILE]`` where PATH is
a local checkout of BUPT-Reasoning-Lab/FinanceReasoning (b0fe645) with ``data/FinanceReasoning/*.json`` and
``results/FinanceReasoning/LEVEL/{pot,cot}/MODEL/{inference,evaluation}.json``.

1. The official functions run in a throwaway process, in a fresh temporary directory (``eval_pot`` executes
   model code unguarded and ``normalize`` evaluates answer texts, so nothing else runs there): ``eval_pot``
   on every PoT run's ``inference.json`` (10 s, the official ``timeout_duration``), ``eval_cot`` with the
   recorded ``evaluation.json`` answers (no LLM), ``get_acc`` on every gold solution's value (each gold run
   in its answer convention by this script's own runner) and on tests/data/financereasoning_answers.json;
   and on 3,000 generated CoT answer texts; and, in this process (numbers only, nothing evaluated),
   ``get_acc`` on generated (value, gold) pairs.
   Its imports for the LLM APIs, ``loguru``, ``tqdm`` and the config are stubbed (never used on these paths).
2. progexec scores the same runs in its sandbox and checks the golds.
3. Compared: every item's ``acc`` and ``execution_rate`` (progexec vs the rerun vs the published
   ``evaluation.json``), every run's averages, every gold's verdict, every answer-table verdict; the official
   loop's and progexec's solutions per second are printed.

Exit 0 when everything agrees, 1 otherwise (each difference printed).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LEVELS = ("easy", "medium", "hard")
TEXTS = 3000
"""Generated CoT answer texts run through the official get_acc and through progexec."""
FIXTURE_TEXTS = 700
"""The first generated texts kept with their official verdicts as a test fixture (``--write-fixture``)."""


def generated_texts(count: int) -> list[tuple[str, Any]]:
    """Answer texts (numbers written many ways, units, words, expressions) with golds near their values."""
    import random
    rng = random.Random(20250602)
    shapes = ["{n}", "{c}", "${c}", "{n}%", "{n} %", "-{n}", "({n})", "{n} million", "${n} billion", "approximately {n}",
              "≈ {n}", "x = {n}", "{n} or {m}", "{n}e3", "{n}E-2", "{n}/3", "{i}**2", "10^{k}", "{n} x 10^{k}",
              "{n} × 10^{k}", "USD {n}", "{n} USD", "{n} dollars", "€{n}", "{n}°", "`{n}`", "{n}.", "+{n}", "0{i}",
              "{i},{i}", "[{n}, {m}]", "({n},)", "{n} years", "about {n}", "{n}k", "  {n}  ", "{n}\n", "{i}_000",
              "0x{i}", "pow({i}, 2)", "round({n})", "{n} (rounded)", "The answer is {n}", "yes", "No", "True",
              "false", "untrue", "none", "N/A", "", "nan", "inf", "1e-400", "{n}.{i}.{i}", "-", "{c}.00", "£{c}"]
    cases = []
    for _ in range(count):
        number = rng.choice([rng.randint(0, 5000), round(rng.uniform(-100, 100), rng.randint(0, 4)),
                             round(rng.uniform(0, 1), 4), rng.randint(1000, 10**7)])
        text = rng.choice(shapes).format(n=number, m=rng.randint(0, 99), i=rng.randint(1, 999), k=rng.randint(1, 4),
                                         c=f"{number:,}")
        gt = rng.choice([number, number * 1000, round(float(number), 0), number * 1.0019, number * 0.9975, True,
                         False, 0, -number, number / 100])
        cases.append((text, gt))
    return cases


def import_official(checkout: Path) -> tuple[types.ModuleType, types.ModuleType]:
    """The checkout's ``evaluation`` and ``utils.evaluation_utils`` modules, their API-only imports stubbed."""
    import importlib
    loguru = types.ModuleType("loguru")
    setattr(loguru, "logger", types.SimpleNamespace(warning=lambda *a, **k: None, info=lambda *a, **k: None))
    stubs = {"loguru": loguru, "tqdm": types.ModuleType("tqdm"), "utils.llm": types.ModuleType("utils.llm"),
             "utils.config": types.ModuleType("utils.config")}
    setattr(stubs["tqdm"], "tqdm", lambda iterable, **kwargs: iterable)
    setattr(stubs["utils.llm"], "LLM", object)
    setattr(stubs["utils.config"], "EvaluationConfig", object)
    for name, module in stubs.items():
        sys.modules.setdefault(name, module)
    sys.path.insert(0, str(checkout))
    for library in ("numpy", "scipy", "sympy", "pandas"):
        try:
            importlib.import_module(library)
        except ImportError:
            pass
    utils = importlib.import_module("utils.evaluation_utils")
    evaluation = importlib.import_module("evaluation")
    return evaluation, utils


def run_gold(code: str, context: str, pandas: Any) -> Any:
    """A gold solution's value in its answer convention (this script's own runner, for the official get_acc)."""
    import ast
    tree = ast.parse(code)
    namespace: dict[str, Any] = {}
    if context:
        namespace["df"] = pandas.DataFrame(json.loads(context))
    if any(isinstance(node, ast.FunctionDef) and node.name == "solution" for node in tree.body):
        exec(code, namespace)
        return namespace["solution"]()
    exec(compile(ast.Module(body=tree.body[:-1], type_ignores=[]), "<gold>", "exec"), namespace)
    last = tree.body[-1]
    if isinstance(last, ast.Expr):
        return eval(compile(ast.Expression(last.value), "<gold>", "eval"), namespace)
    exec(compile(ast.Module(body=[last], type_ignores=[]), "<gold>", "exec"), namespace)
    if "answer" in namespace:
        return namespace["answer"]
    target = last.targets[-1] if isinstance(last, ast.Assign) else last.target  # type: ignore[attr-defined]
    return eval(ast.unparse(target), namespace)


def vailid(output: str) -> bool:
    """``eval_cot``'s nested ``vailid``, as written there."""
    return bool(output and "none" not in output.lower())


def official_worker(checkout: Path, level: str, out: Path) -> None:
    """In the throwaway process: the official functions on every run, gold and answer-table case."""
    import importlib
    pandas = importlib.import_module("pandas")
    evaluation, utils = import_official(checkout)
    results: dict[str, Any] = {"runs": {}, "golds": {}, "answers": []}
    base = checkout / "results" / "FinanceReasoning" / level
    pot_seconds, pot_items = 0.0, 0
    for mode in ("pot", "cot"):
        for folder in sorted((base / mode).iterdir()):
            inference = json.loads((folder / "inference.json").read_text(encoding="utf-8"))
            if mode == "pot":
                started = time.perf_counter()
                data, statistics = evaluation.eval_pot(inference, 10)
                pot_seconds += time.perf_counter() - started
                pot_items += len(data)
            else:
                recorded = json.loads((folder / "evaluation.json").read_text(encoding="utf-8"))
                data, statistics = evaluation.eval_cot(inference, None, recorded, False)
            results["runs"][f"{mode}/{folder.name}"] = {
                "statistics": {k: statistics[k] for k in ("avg_accuracy", "avg_execution_rate")},
                "items": {r["question_id"]: [r["result"]["acc"], r["result"]["execution_rate"]] for r in data}}
    results["pot_seconds"], results["pot_items"] = pot_seconds, pot_items
    for name in LEVELS:
        for gold in json.loads((checkout / "data" / "FinanceReasoning" / f"{name}.json").read_text(encoding="utf-8")):
            context = gold["context"] if gold["source"].startswith("CodeTAT-QA") else ""
            try:
                value = run_gold(gold["python_solution"], context, pandas)
                acc = utils.get_acc(value, gold["ground_truth"])
            except Exception:
                acc = 0
            results["golds"][f"{name}/{gold['question_id']}"] = acc
    for case in json.loads((ROOT / "tests" / "data" / "financereasoning_answers.json").read_text(encoding="utf-8")):
        results["answers"].append(utils.get_acc(case["text"], case["gt"]))
    results["texts"] = [[utils.get_acc(text, gt) if vailid(text) else 0, int(vailid(text))]
                        for text, gt in generated_texts(TEXTS)]
    out.write_text(json.dumps(results), encoding="utf-8")


def texts_worker(checkout: Path, out: Path) -> None:
    """In a throwaway process: the official verdicts (acc, execution_rate) of the generated answer texts."""
    _, utils = import_official(checkout)
    cases = [{"text": text, "gt": gt, "acc": utils.get_acc(text, gt) if vailid(text) else 0,
              "execution_rate": int(vailid(text))} for text, gt in generated_texts(FIXTURE_TEXTS)]
    out.write_text(json.dumps(cases, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")


def write_fixture(checkout: Path, out: Path) -> None:
    """tests/data/financereasoning_generated_answers.json: the first generated texts with their official verdicts."""
    with tempfile.TemporaryDirectory(prefix="financereasoning-texts-") as scratch:
        subprocess.run([sys.executable, str(Path(__file__).resolve()), "--texts-worker", str(checkout),
                        str(out.resolve())], cwd=scratch, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True, timeout=600)


def run_official(checkout: Path, level: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="financereasoning-official-") as scratch:
        out = Path(scratch) / "official.json"
        subprocess.run([sys.executable, str(Path(__file__).resolve()), "--official-worker", str(checkout), level,
                        str(out)], cwd=scratch, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True, timeout=7200)
        results: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return results


def generated_pairs(checkout: Path, count: int) -> list[str]:
    """The official ``get_acc`` on generated (value, gold) pairs of numbers, bools, lists and special values
    (no text: nothing is evaluated) against progexec's rule on the value's description."""
    import random
    from decimal import Decimal
    from fractions import Fraction

    import numpy as np

    from progexec.datasets.financereasoning import sandbox_program
    from progexec.datasets.financereasoning.rule import official_acc
    from progexec.datasets.financereasoning.values import from_mapping
    _, utils = import_official(checkout)
    rng = random.Random(20250601)
    golds: list[Any] = [0, 1, -1, 27, 40.264, -12.345, 0.5, 1e-7, 1e12, True, False, 3, 1152, 0.0]
    problems = []
    for _ in range(count):
        gt = rng.choice(golds) if rng.random() < 0.5 else rng.choice([rng.uniform(-1e4, 1e4), rng.randint(-10**6, 10**6)])
        eps = abs(gt) * 0.002
        base = rng.choice([gt - eps, gt + eps, gt, gt * 1.002, gt * 0.998, gt + 1, -gt])
        nudged = float(base) * (1 + rng.choice([0, 1e-15, -1e-15, 1e-12, -1e-12]))
        value: Any = rng.choice([nudged, int(nudged) if abs(nudged) < 1e18 else 0, float("nan"), float("inf"),
                                 -float("inf"), True, False, None, [nudged, 5], (), [], 10 ** 400,
                                 Decimal(repr(nudged)), Fraction(nudged), np.float64(nudged), np.int64(int(nudged) % 10**9),
                                 np.array([nudged]), np.array([nudged, 1.0]), np.bool_(rng.random() < 0.5),
                                 complex(nudged, 0), {"a": 1}])
        if isinstance(value, np.ndarray) and isinstance(gt, bool):
            continue  # int(array == gt): 1 under the official numpy 2.0.1, an error under newer numpy (documented)
        expected = utils.get_acc(value, gt)
        ours = official_acc(from_mapping(sandbox_program.describe(value, True)), gt)
        if expected != ours:
            problems.append(f"generated pair {value!r:.60} vs {gt!r}: official {expected}, progexec {ours}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--checkout", type=Path, help="a local checkout of BUPT-Reasoning-Lab/FinanceReasoning")
    parser.add_argument("--level", choices=LEVELS, default="hard")
    parser.add_argument("--jobs", type=int, default=8)
    parser.add_argument("--pairs", type=int, default=200_000, help="generated (value, gold) pairs (default 200,000)")
    parser.add_argument("--write-fixture", type=Path, metavar="FILE",
                        help="only write the generated answer texts with their official verdicts to FILE")
    parser.add_argument("--official-worker", nargs=3, metavar=("CHECKOUT", "LEVEL", "OUT"), help=argparse.SUPPRESS)
    parser.add_argument("--texts-worker", nargs=2, metavar=("CHECKOUT", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.texts_worker:
        texts_worker(Path(args.texts_worker[0]), Path(args.texts_worker[1]))
        return 0
    if args.write_fixture is not None:
        if args.checkout is None:
            parser.error("--checkout is required")
        write_fixture(args.checkout, args.write_fixture)
        return 0
    if args.official_worker:
        official_worker(Path(args.official_worker[0]), args.official_worker[1], Path(args.official_worker[2]))
        return 0
    if args.checkout is None:
        parser.error("--checkout is required")
    sys.path.insert(0, str(ROOT / "src"))
    from progexec.datasets.financereasoning.goldcheck import check_gold
    from progexec.datasets.financereasoning.scoring import Run, run_mode, score_runs
    from progexec.datasets.pysolution.scoring import load_records
    from progexec.readers import Record
    checkout: Path = args.checkout
    official = run_official(checkout, args.level)
    base = checkout / "results" / "FinanceReasoning" / args.level
    runs = []
    for mode in ("pot", "cot"):
        for folder in sorted((base / mode).iterdir()):
            records = load_records(folder / ("evaluation.json"))
            assert run_mode(records) == mode, folder
            runs.append(Run(f"{mode}/{folder.name}", records))
    started = time.perf_counter()
    models, _, _ = score_runs(load_records(checkout / "data" / "FinanceReasoning" / f"{args.level}.json"), runs,
                              jobs=args.jobs)
    seconds = time.perf_counter() - started
    problems: list[str] = []
    items = 0
    for model in models:
        theirs = official["runs"][model.name]
        published = {r["question_id"]: (r["result"]["acc"], r["result"]["execution_rate"])
                     for r in json.loads((base / model.name / "evaluation.json").read_text(encoding="utf-8"))}
        for item in model.items:
            items += 1
            ours = (item.acc, item.execution_rate)
            if ours != tuple(theirs["items"][item.id]) or ours != published[item.id]:
                problems.append(f"{model.name} {item.id}: progexec {ours}, official rerun "
                                f"{tuple(theirs['items'][item.id])}, published {published[item.id]}")
        if (model.avg_accuracy, model.avg_execution_rate) != (theirs["statistics"]["avg_accuracy"],
                                                              theirs["statistics"]["avg_execution_rate"]):
            problems.append(f"{model.name}: averages {model.avg_accuracy}, {model.avg_execution_rate} vs "
                            f"{theirs['statistics']}")
    golds = 0
    for level in LEVELS:
        checks, _, _ = check_gold(load_records(checkout / "data" / "FinanceReasoning" / f"{level}.json"), jobs=args.jobs)
        for check in checks:
            golds += 1
            if check.acc != official["golds"][f"{level}/{check.question.id}"]:
                problems.append(f"gold {level}/{check.question.id}: progexec {check.acc}, official "
                                f"{official['golds'][f'{level}/{check.question.id}']}")
    cases = json.loads((ROOT / "tests" / "data" / "financereasoning_answers.json").read_text(encoding="utf-8"))
    for case, acc in zip(cases, official["answers"]):
        if case["acc"] != acc:
            problems.append(f"answer table {case['text']!r} vs {case['gt']!r}: table {case['acc']}, official {acc}")
    problems += generated_pairs(checkout, args.pairs)
    texts = generated_texts(TEXTS)
    gold = [Record(n + 1, f"item {n + 1}", {"question_id": f"g{n}", "ground_truth": gt, "source": "x", "python_solution": "",
                           "context": ""}) for n, (_, gt) in enumerate(texts)]
    run = [Record(n + 1, f"item {n + 1}", {"question_id": f"g{n}", "result": {"extracted_answer": text}})
           for n, (text, _) in enumerate(texts)]
    generated, _, _ = score_runs(gold, [Run("generated", run)], jobs=args.jobs)
    for item, (text, gt), theirs in zip(generated[0].items, texts, official["texts"]):
        if [item.acc, item.execution_rate] != theirs:
            problems.append(f"generated answer {text!r} vs {gt!r}: official {theirs}, progexec "
                            f"{[item.acc, item.execution_rate]}")
    pot_items = sum(len(m.items) for m in models if m.mode == "pot")
    print(f"{len(models)} runs, {items} items, {golds} golds, {len(cases)} answer cases, {args.pairs} value pairs, "
          f"{TEXTS} generated answers compared; "
          f"{len(problems)} difference(s)")
    print(f"official eval_pot: {official['pot_items']} solutions in {official['pot_seconds']:.1f} s "
          f"({official['pot_items'] / max(official['pot_seconds'], 1e-9):.1f}/s); progexec (pot and cot runs "
          f"together): {pot_items} solutions in {seconds:.1f} s ({pot_items / seconds:.1f}/s)")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
