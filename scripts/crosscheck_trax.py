"""Cross-check ``--semantics trax`` against google/trax's own MathQA executor.

Runs trax's functions themselves, taken from a local copy of ``trax/data/tf_inputs.py``
(``compute_nums``, ``compute_ops``, ``compute_result``, ``compute_single_result``) without
installing trax (which needs TensorFlow and JAX)::

    PYTHONPATH=src python scripts/crosscheck_trax.py --trax-source /path/to/trax/data/tf_inputs.py

The functions are compiled from that file into a namespace holding ``math``, ``re``, numpy
and scipy; trax's ``scipy.lcm`` (numpy's re-export, gone from current scipy) is given as
``numpy.lcm``. Inputs: every embedded MathQA split, each formula as written and in variants
that exercise trax's reading and typed values (spaces after commas, ``#k`` counted from the
end, ``nnK``, ``n-K``, the binary ops renamed to ``gcd``/``lcm``/``choose``/``permutation``).
An item agrees when trax raises and progexec refuses, or trax's value and progexec's are the
same float (``repr``-equal), or trax's value is one JSON cannot carry (None, complex, inf,
NaN) and progexec names it. Items progexec refuses by a work bound are counted apart (trax is
not run on them: it would compute for minutes). ``--random N`` adds N random formulas (odd
argument spellings and well-formed ones over every op, on extreme numbers). Exit 1 on any
disagreement.
"""

from __future__ import annotations

import argparse
import ast
import math
import random
import re
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import scipy
import scipy.special

from progexec.core.status import Status
from progexec.datasets.mathqa.binding import number_texts
from progexec.datasets.mathqa.corpus import MATHQA_SPLITS, mathqa_records
from progexec.datasets.mathqa.trax import TRAX_OPS, run_trax

TRAX_FUNCTIONS = ("compute_single_result", "compute_result", "compute_nums", "compute_ops")


def load_trax(source: Path) -> dict[str, Callable[..., Any]]:
    """trax's own MathQA functions, compiled from its source file."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    wanted = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name in TRAX_FUNCTIONS]
    module = ast.Module(body=wanted, type_ignores=[])
    scipy_then = types.SimpleNamespace(special=scipy.special, lcm=np.lcm, gcd=np.gcd)
    namespace: dict[str, Any] = {"math": math, "re": re, "np": np, "scipy": scipy_then}
    exec(compile(module, str(source), "exec"), namespace)  # trax's code, run as trax runs it
    return {name: namespace[name] for name in TRAX_FUNCTIONS}


def variants(formula: str) -> Iterator[tuple[str, str]]:
    """The formula and rewritings that exercise trax's reading and typed values."""
    yield "as written", formula
    yield "space after comma", formula.replace(",", ", ")
    steps = [step for step in formula.split("|") if step]
    relative = [re.sub(r"#(\d+)", lambda m, s=index: f"#{int(m.group(1)) - s}", step) for index, step in enumerate(steps)]
    yield "#k from the end", "|".join(relative) + "|"
    yield "nnK", re.sub(r"\bn(\d+)", r"nn\1", formula)
    renamed = formula
    for old, new in (("add(", "gcd("), ("multiply(", "lcm("), ("subtract(", "choose("), ("divide(", "permutation(")):
        renamed = renamed.replace(old, new)
    yield "typed ops", renamed


ODD_ARGS = ("#0", "#1", "#-1", "n0", "n1", " n1", "5", "const_m1", "const_1_5", "c", "#", "", "#1.5", "n-1", "nn1",
            "n1e1", "const_1-5", "const_", "const_pi", "n\u0661", "N1")
PLAIN_ARGS = ("#0", "#1", "#2", "#-1", "n0", "n1", "n2", "const_100", "const_2", "const_0_5", "const_pi", "const_1")
NUMBER_SETS = ([2.0, 3.0, 5.0], [0.0, -1.5, 1e20], [40.0, 19.0, 10.5], [3037000500.0, 3037000499.0, 7.0],
               [1e308, 1e-300, -8.0], [7.0, 0.5, 1e10], [123456789.5, 15.0, 3.0], [])


def random_formula(rng: random.Random, ops: list[str], pool: tuple[str, ...]) -> str:
    """A random linear formula: 1-4 steps, 0-3 arguments, odd separators and brackets now and then."""
    steps = []
    for _ in range(rng.randint(1, 4)):
        args = rng.choice([",", ",", ", "]).join(rng.choice(pool) for _ in range(rng.randint(0, 3)))
        steps.append(f"{rng.choice(ops)}({args}{rng.choice([')', ')', ')', ''])}" if rng.random() > 0.05 else rng.choice(ops))
    return rng.choice(["|", "|", "||"]).join(steps) + rng.choice(["|", "", "||"])


def random_runs(functions: dict[str, Callable[..., Any]], count: int, seed: int) -> int:
    """Differential runs on random formulas (half odd spellings, half well-formed); returns the disagreements."""
    rng = random.Random(seed)
    ops = sorted(TRAX_OPS) + ["min", "round", "foo", "", " add", "add "]
    failures = bounded = 0
    for index in range(count):
        formula = random_formula(rng, ops, ODD_ARGS if index % 2 else PLAIN_ARGS)
        numbers = rng.choice(NUMBER_SETS)
        outcome = run_trax(formula, numbers)
        if outcome.status is Status.LIMIT_EXCEEDED:
            bounded += 1
            continue
        with np.errstate(all="ignore"):
            try:
                ok, value = True, functions["compute_result"](functions["compute_ops"](formula), numbers)[-1]
            except Exception as error:  # trax's caller's bare except
                ok, value = False, error
        if not agrees(ok, value, outcome.status, outcome.value):
            failures += 1
            print(f"  disagree: {formula!r} {numbers}: trax {ok} {value!r}, progexec {outcome.status.label}",
                  file=sys.stderr)
    print(f"random formulas (seed {seed}): {count - bounded - failures} of {count - bounded} agree, {bounded} bounded")
    return failures


def trax_value(functions: dict[str, Callable[..., Any]], problem: str, formula: str) -> tuple[bool, Any]:
    """``(True, value)`` or ``(False, exception)`` for trax's last step result."""
    with np.errstate(all="ignore"):
        try:
            numbers = functions["compute_nums"](problem)
            return True, functions["compute_result"](functions["compute_ops"](formula), numbers)[-1]
        except Exception as error:  # trax's caller's bare except
            return False, error


def agrees(ok: bool, value: Any, status: Status, ours: float | None) -> bool:
    if not ok:
        return status is not Status.OK
    if value is None:
        return status is Status.UNKNOWN_OP
    if isinstance(value, complex):
        return status is Status.NON_REAL_RESULT
    try:
        number = float(value)
    except OverflowError:
        return status is Status.OVERFLOW
    if math.isnan(number):
        return status is Status.NOT_A_NUMBER
    if math.isinf(number):
        return status is Status.OVERFLOW
    return status is Status.OK and repr(ours) == repr(number)


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--trax-source", type=Path, required=True, help="trax/data/tf_inputs.py")
    parser.add_argument("--random", type=int, default=0, metavar="N", help="also N random formulas")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-corpus", action="store_true", help="only the random formulas")
    args = parser.parse_args()
    functions = load_trax(args.trax_source)
    failures = random_runs(functions, args.random, args.seed) if args.random else 0
    if args.no_corpus:
        return 1 if failures else 0
    print(f"{'split':16} {'variant':18} {'items':>6} {'agree':>6} {'values':>6} {'refused':>7} {'bounded':>7}")
    for split in MATHQA_SPLITS:
        records = [r for r in mathqa_records(split) if isinstance(r.get("linear_formula"), str)]
        rows: dict[str, list[int]] = {}
        for record in records:
            problem, formula = str(record.get("Problem", "")), record["linear_formula"]
            numbers = [float(text) for text in number_texts(problem)]
            for name, text in variants(formula):
                row = rows.setdefault(name, [0, 0, 0, 0, 0])
                row[0] += 1
                outcome = run_trax(text, numbers)
                if outcome.status is Status.LIMIT_EXCEEDED:
                    row[4] += 1
                    continue
                ok, value = trax_value(functions, problem, text)
                if agrees(ok, value, outcome.status, outcome.value):
                    row[1] += 1
                    row[2] += outcome.status is Status.OK
                    row[3] += outcome.status is not Status.OK
                else:
                    failures += 1
                    if failures <= 10:
                        print(f"  disagree: {split} {text!r}: trax {ok} {value!r}, progexec "
                              f"{outcome.status.label} {outcome.value!r} {outcome.message}", file=sys.stderr)
        for name, (items, agree, values, refused, bounded) in rows.items():
            print(f"{split:16} {name:18} {items:6} {agree:6} {values:6} {refused:7} {bounded:7}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
