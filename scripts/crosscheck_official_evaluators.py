"""Run the official FinQA and ConvFinQA ``eval_program`` functions, unchanged, as check-evaluator ``--python`` ports.

    PYTHONPATH=src python scripts/crosscheck_official_evaluators.py \\
        --finqa /path/to/czyssrs-FinQA/code/evaluate --convfinqa /path/to/czyssrs-ConvFinQA/code/utils

Each directory holds the official module as published (``evaluate.py``; ``general_utils.py``),
which imports numpy and sympy. Both define ``eval_program(program, table)``: two arguments, so
check-evaluator calls them without the dialect (``--protocol tokens``: the official token list).
Three runs over the whole ``all`` suite:

1. FinQA's, alone: it must diverge only on ConvFinQA cases, and only by refusing bare numbers
   (``refuses_where_official_answers``, reproduced by ``no_bare_numbers``);
2. ConvFinQA's, alone: only on FinQA cases, only by answering bare numbers
   (``answers_where_official_refuses``);
3. each on its own dialect (a three-line module in a temporary directory picks one by the
   case's dialect and calls it unchanged): **0 divergences**, as docs/check-evaluator.md states.

Prints each run's summary; exit 1 when any expectation fails.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

DISPATCH = """import sys
sys.path[:0] = [{finqa!r}, {convfinqa!r}]
import evaluate, general_utils


def eval_program(program, table, dialect):
    official = evaluate if dialect == "finqa" else general_utils
    return official.eval_program(program, table)
"""


def check(spec: str, cwd: Path, extra_path: str = "") -> dict[str, Any]:
    """``progexec check-evaluator --python SPEC --protocol tokens --json`` from ``cwd``; the report."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(part for part in (env.get("PYTHONPATH", ""), extra_path) if part)
    done = subprocess.run([sys.executable, "-m", "progexec", "check-evaluator", "--python", spec, "--protocol",
                           "tokens", "--json", "--no-progress"], cwd=cwd, env=env, capture_output=True, text=True)
    if not done.stdout.strip():
        raise SystemExit(f"{spec}: no report (exit {done.returncode}): {done.stderr.strip()[-500:]}")
    report: dict[str, Any] = json.loads(done.stdout)
    print(f"{spec}: {report['cases']:,} cases, {report['divergent']:,} divergent, classes {report['by_class']}")
    return report


def only(report: dict[str, Any], kind: str, dialect: str) -> bool:
    """Every divergence is of ``kind``, and every kept counterexample is a case of ``dialect``."""
    examples = [example for examples in report["counterexamples"].values() for example in examples]
    return set(report["by_class"]) <= {kind} and all(example["dialect"] == dialect for example in examples) \
        and not report["faults"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n", 1)[0])
    parser.add_argument("--finqa", type=Path, required=True, help="directory holding FinQA's evaluate.py")
    parser.add_argument("--convfinqa", type=Path, required=True, help="directory holding ConvFinQA's general_utils.py")
    args = parser.parse_args(argv)
    finqa, convfinqa = args.finqa.resolve(), args.convfinqa.resolve()
    failures = []
    if not only(check("evaluate:eval_program", finqa), "refuses_where_official_answers", "convfinqa"):
        failures.append("FinQA's eval_program diverges beyond ConvFinQA's bare numbers")
    if not only(check("general_utils:eval_program", convfinqa), "answers_where_official_refuses", "finqa"):
        failures.append("ConvFinQA's eval_program diverges beyond FinQA's bare numbers")
    with tempfile.TemporaryDirectory() as work:
        Path(work, "official_dispatch.py").write_text(DISPATCH.format(finqa=str(finqa), convfinqa=str(convfinqa)),
                                                      encoding="utf-8")
        both = check("official_dispatch:eval_program", Path(work))
    if both["divergent"] or both["faults"]:
        failures.append("the official evaluators on their own dialects diverge")
    for failure in failures:
        print("FAIL:", failure)
    if not failures:
        print("OK: the official evaluators run unchanged; 0 divergences on their own dialects")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
