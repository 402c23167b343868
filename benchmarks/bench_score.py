"""Side-by-side timing: the official FinQA evaluation loop (re-implemented here as the baseline)
against ``progexec.score``, on the real prediction sets in tests/data/predictions.

The baseline does what the official ``evaluate_result`` does per prediction: tokenize the
gold program, run ``eval_program`` (the official model in ``progexec.interp.official``),
build both symbolic expressions as strings and call ``sympy.simplify(..., evaluate=False)``
on each, with no caching, exactly as often as the official loop does. Both sides must
produce the same counts; the table shows seconds and the speed-up ratio.

    python benchmarks/bench_score.py            # every set
    python benchmarks/bench_score.py --quick    # only the FinQANet example set
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from progexec.datasets import get_dataset
from progexec.grammar.tokens import ALL_OPS, official_tokenize
from progexec.interp.official import official_verdict
from progexec.score import load_gold, load_predictions, score_predictions, equivalence

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "predictions"
OPS = set(ALL_OPS)
SIGNS = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/", "exp": "**", "greater": ">"}


def _steps(tokens: list[str]) -> list[str]:
    return "|".join(tokens[:-1]).split(")")[:-1]


def _fields(step: str) -> tuple[str, str, str, str]:
    step = step.strip()
    op = step.split("(")[0].strip("|").strip()
    args = step.split("(")[1].strip("|").strip()
    return step, op, args.split("|")[0].strip(), args.split("|")[1].strip()


def baseline_equal(gold: list[str], pred: list[str]) -> bool:
    """The official equal_program, written plainly: symbols, checks, two sympy simplify calls, ``==``."""
    from sympy import simplify

    symbols: dict[str, str] = {}
    gold_steps: dict[int, str] = {}
    for index, raw in enumerate(_steps(gold)):
        step, op, arg1, arg2 = _fields(raw)
        gold_steps[index] = step
        for key in ([step] if "table" in op else [a for a in (arg1, arg2) if "#" not in a]):
            symbols.setdefault(key, f"a{len(symbols)}")
    pred_steps: dict[int, str] = {}
    try:
        for index, token in enumerate(pred[:-1]):
            if index % 4 == 0 and token.strip("(") not in OPS:
                return False
            if (index + 1) % 4 == 0 and token != ")":
                return False
        for index, raw in enumerate(_steps(pred)):
            if len(raw.strip().split("(")) > 2:
                return False
            step, op, arg1, arg2 = _fields(raw)
            pred_steps[index] = step
            if "table" in op:
                if step not in symbols:
                    return False
                continue
            for arg in (arg1, arg2):
                if "#" not in arg and arg not in symbols:
                    return False
                if "#" in arg and int(arg.strip("#")) >= index:
                    return False
    except Exception:
        return False

    def expression(step: str, steps: dict[int, str]) -> str:
        step, op, arg1, arg2 = _fields(step)
        if "table" in op:
            return symbols[step]
        parts = [expression(steps[int(a.replace("#", ""))], steps) if "#" in a else symbols[a] for a in (arg1, arg2)]
        return f"( {parts[0]} {SIGNS[op]} {parts[1]} )"

    gold_expr = simplify(expression(_steps(gold)[-1], gold_steps), evaluate=False)
    try:
        pred_expr = simplify(expression(_steps(pred)[-1], pred_steps), evaluate=False)
    except Exception:
        return False
    return bool(gold_expr == pred_expr)


def baseline_loop(gold_by_id: dict[str, Any], predictions: list[Any]) -> tuple[int, int]:
    """The official evaluate_result loop (without its prints and without aborting)."""
    exe_correct = prog_correct = 0
    for pred in predictions:
        gold = gold_by_id[pred.id]
        tokens = official_tokenize(gold.program_text)
        verdict = official_verdict(list(pred.tokens), gold.table, get_dataset("finqa"))
        if verdict.valid and verdict.value == gold.exe_ans:
            exe_correct += 1
        if baseline_equal(tokens, list(pred.tokens)):
            prog_correct += 1
    return exe_correct, prog_correct


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False,
                                     description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="only the FinQANet example set")
    args = parser.parse_args(argv)
    files = sorted(DATA.glob("*_predictions.json.gz"))
    if args.quick:
        files = [DATA / "finqa_example_predictions.json.gz"]
    import sympy  # noqa: F401  # imported up front: neither side is charged for the import

    golds = {"test": load_gold("finqa:test"), "dev": load_gold("finqa:dev")}
    rows = []
    total_base = total_ours = total_first = 0.0
    for path in files:
        split = "dev" if "_dev_" in path.name else "test"
        gold = golds[split]
        predictions = load_predictions(str(path))
        gold_by_id = {item.id: item for item in gold}
        started = time.perf_counter()
        base_exe, base_prog = baseline_loop(gold_by_id, predictions)
        base_seconds = time.perf_counter() - started
        calls_before = equivalence.SYMPY_CALLS["count"]
        timings = []
        for _ in range(3):  # first run: cold sympy cache; the best of three is reported beside it
            equivalence._simplified.cache_clear()
            started = time.perf_counter()
            report = score_predictions(gold, predictions)
            timings.append(time.perf_counter() - started)
        first_seconds, our_seconds = timings[0], min(timings)
        official = report.scorers["official"]
        same = (official.execution_correct, official.program_correct) == (base_exe, base_prog)
        rows.append((path.name.replace("_predictions.json.gz", ""), report.n, base_seconds, first_seconds,
                     our_seconds, (equivalence.SYMPY_CALLS["count"] - calls_before) // 3, same,
                     official.execution_accuracy, official.program_accuracy))
        total_base += base_seconds
        total_ours += our_seconds
        total_first += first_seconds
    print(f"{'prediction set':<48} {'n':>5} {'official loop s':>15} {'progexec 1st s':>14} {'best s':>7} "
          f"{'ratio 1st':>9} {'ratio best':>10} {'sympy':>5} {'same':>5}  exe / prog accuracy")
    for name, n, base, first, ours, calls, same, exe, prog in rows:
        print(f"{name:<48} {n:>5} {base:>15.3f} {first:>14.3f} {ours:>7.3f} {base / first:>8.1f}x {base / ours:>9.1f}x "
              f"{calls:>5} {str(same):>5}  {exe!r} / {prog!r}")
    print(f"{'total':<48} {'':>5} {total_base:>15.3f} {total_first:>14.3f} {total_ours:>7.3f} "
          f"{total_base / total_first:>8.1f}x {total_base / total_ours:>9.1f}x")
    return 0 if all(row[6] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
