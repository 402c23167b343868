"""Cross-check the ``multihiertt`` dialect against psunlpgroup/MultiHiertt's own code, item for item.

    python scripts/crosscheck_multihiertt.py --checkout PATH/TO/MultiHiertt [--limit N]

PATH is a local checkout of https://github.com/psunlpgroup/MultiHiertt (nothing of it is copied here).
Its functions are loaded from the checkout's files as they are — ``str_to_num`` (utils/utils.py),
``program_tokenization`` and ``eval_program`` (utils/program_generation_utils.py), the DROP span metrics
(utils/span_selection_utils.py, which need numpy and scipy: ``pip install 'progexec[trax]'``) and
``evaluate_program_result`` / ``evaluate_span_program_result`` (evaluate.py) — without the training
stack their modules import (torch, transformers), by taking just those definitions from the source.

Programs: every embedded FinQA and ConvFinQA gold program read as MultiHiertt text, each also mutated
(negative and percent literals, ``$``, ``1e-3``, ``const_m1``, ``1,000``, ``greater`` and table ops, a zero
divisor, a forward reference, a non-number), and hand-written edge cases. For each, progexec's
``official_valid`` / value / returned value must equal ``eval_program(program_tokenization(text))``.
Scoring: generated (prediction, gold) pairs through all four branches of ``evaluate.py``; progexec's
exact match and F1 must equal theirs (a pair on which their code raises must be marked ``would_abort``).
Exit 0 when everything agrees; the first disagreements are printed.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import math
import random
import re
import string
import sys
from pathlib import Path
from typing import Any, Dict, List, Set, Tuple, Union

from progexec.datasets import get_dataset
from progexec.corpus import corpus_items
from progexec.datasets.multihiertt import Abort, returned, score_item
from progexec.interp.run import execute_text

_WANTED = {
    "utils/utils.py": ("str_to_num",),
    "utils/program_generation_utils.py": ("program_tokenization", "eval_program", "all_ops"),
    "utils/span_selection_utils.py": ("_remove_articles", "_white_space_fix", "EXCLUDE", "_remove_punc", "_lower",
                                      "_tokenize", "_normalize_answer", "_is_number", "_normalize_number",
                                      "_answer_to_bags", "_align_bags", "_compute_f1", "_match_numbers_if_present",
                                      "get_span_selection_metrics"),
    "evaluate.py": ("evaluate_program_result", "evaluate_span_program_result"),
}


def load_peer(checkout: Path) -> dict[str, Any]:
    """The peer's functions, defined from its own source in one namespace (their modules share one via ``*``)."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    namespace: dict[str, Any] = {"math": math, "re": re, "string": string, "np": np, "List": List, "Set": Set,
                                 "Tuple": Tuple, "Union": Union, "Dict": Dict, "Any": Any,
                                 "linear_sum_assignment": linear_sum_assignment, "__name__": "multihiertt_peer"}
    for relative, names in _WANTED.items():
        tree = ast.parse((checkout / relative).read_text(encoding="utf-8"))
        for node in tree.body:
            name = getattr(node, "name", None)
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                name = node.targets[0].id
            if name in names:
                exec(compile(ast.Module([node], []), str(checkout / relative), "exec"), namespace)
    return namespace


_MUTATIONS = (
    lambda p: p.replace("(", "(-", 1), lambda p: p.replace(", ", ", $", 1), lambda p: p.replace(")", "%)", 1),
    lambda p: p.replace(", ", ",", 1), lambda p: p.replace("(", "(1e-3, ", 1).replace(", ", " ", 1),
    lambda p: p + ", divide(#0, 0)", lambda p: p + ", add(#9, 1)", lambda p: p + ", add(const_m1, 1,000)",
    lambda p: p + ", greater(#0, 1)", lambda p: p + ", table_sum(revenue, none)", lambda p: p + ", add(x, 1)",
    lambda p: p + ", exp(#0, 0.5)", lambda p: p + ", add(const_x, 1)", lambda p: p + ", multiply(1e308, 10)",
)

EDGE_CASES = (
    "add(-5, 5%)", "add(5,3)", "add(1,000, 5)", "add(1e-3, const_m1)", "exp(-1, 0.5)", "subtract(1, 2), exp(#0, 0.5)",
    "divide(1, 3), add(#0, foo)", "divide(1, 3), divide(#0, 0)", "add(const_100, const_1000000)", "",
    "add($1, $2)", "add(1, 2), add(#0, #0), multiply(#1, 1e309)", "add(nan, 1)", "add(inf, -inf)",
    "greater(1, 2)", "table_max(a, none)", "add( 5 , 3 )", "add(5, 3))", "add(#0, 1)", "add(1, 2), add(#1, 1)",
    "exp(0, -1)", "exp(10, 400)", "multiply(1e200, 1e200), subtract(#0, #0)", "add(1_000, 1)",
)


def programs(limit: int | None, seed: int) -> list[str]:
    rng = random.Random(seed)
    texts = [item.program_text for corpus in ("finqa", "convfinqa") for item in corpus_items(corpus)]
    out = list(EDGE_CASES)
    for text in texts[:limit]:
        out.append(text)
        out.append(rng.choice(_MUTATIONS)(text))
    return out


def check_programs(peer: dict[str, Any], texts: list[str]) -> list[str]:
    problems: list[str] = []
    for text in texts:
        flag, value = peer["eval_program"](peer["program_tokenization"](text))
        execution = execute_text(text, None, get_dataset("multihiertt"))
        ours_valid = execution.official.valid
        ours = returned(execution.official)
        theirs = "n/a" if isinstance(value, str) and value == "n/a" else value
        same_value = (ours == theirs or (isinstance(ours, float) and isinstance(theirs, float)
                                         and math.isnan(ours) and math.isnan(theirs))
                      or (isinstance(theirs, complex) and type(ours).__name__ == "_NotReal"))
        if ours_valid != (flag == 0) or not same_value:
            problems.append(f"program {text!r}: theirs ({flag}, {value!r}), ours ({ours_valid}, {ours!r})")
    return problems


def _pairs(rng: random.Random) -> list[tuple[Any, Any, Any, Any]]:
    spans = ["the apple", "apple", "Apple Inc.", "12.5", "12.50", "-12.5", "$12.5", "12.5%", "a 5 b", "5 b a",
             "1,000", "1000", "const_5", "const_x", "n/a", "", "the", "x-y", "10 - 20"]
    programs = ["add(5, 3)", "divide(1, 3)", "add(100, 6)", "subtract(3, 10)", "divide(1, 0)", "add(5,3)"]
    answers: list[Any] = [8.0, 0.33333, 106.0, -7.0, 12.5, 1000.0, 0.0, "8.0", "12.5"]
    pairs: list[tuple[Any, Any, Any, Any]] = []
    for _ in range(4000):
        kind = rng.randrange(4)
        gold_program = rng.choice(programs) if kind in (0, 2) else ""
        pred_program: Any = rng.choice(programs) if kind in (0, 3) else rng.choice(([], "", None))
        if pred_program and rng.random() < 0.7:
            pred_program = execute_text(pred_program, None, get_dataset("multihiertt")).program.to_tokens() \
                if execute_text(pred_program, None, get_dataset("multihiertt")).program is not None else [pred_program]
        gold_answer = rng.choice(answers) if gold_program else rng.choice(spans)
        pred_answer = rng.choice(answers) if pred_program else rng.choice(spans + [[rng.choice(spans), rng.choice(spans)]])
        pairs.append((pred_answer, pred_program, gold_answer, gold_program))
    return pairs


def check_scoring(peer: dict[str, Any], seed: int) -> tuple[int, list[str]]:
    problems: list[str] = []
    pairs = _pairs(random.Random(seed))
    for pred_answer, pred_program, gold_answer, gold_program in pairs:
        try:
            if pred_program and gold_program:
                with contextlib.redirect_stdout(io.StringIO()):  # it prints an invalid gold's tokens
                    theirs: Any = peer["evaluate_program_result"](pred_program, gold_program)
            elif not pred_program and not gold_program:
                theirs = peer["get_span_selection_metrics"](pred_answer, gold_answer)
            elif not pred_program and gold_program:
                theirs = peer["evaluate_span_program_result"](span_ans=pred_answer, prog_ans=gold_answer)
            else:
                theirs = peer["evaluate_span_program_result"](span_ans=gold_answer, prog_ans=pred_answer)
            theirs = (float(theirs[0]), float(theirs[1]))
        except Exception as error:  # their script stops here
            theirs = type(error).__name__
        ours = score_item(pred_answer, pred_program, gold_answer, gold_program)
        if isinstance(theirs, str):
            if ours.abort is None:
                problems.append(f"pair {(pred_answer, pred_program, gold_answer, gold_program)!r}: theirs raises "
                                f"{theirs}, ours {ours}")
        elif ours.abort is not None or (ours.exact_match, ours.f1) != theirs:
            problems.append(f"pair {(pred_answer, pred_program, gold_answer, gold_program)!r}: theirs {theirs}, "
                            f"ours {ours}")
    return len(pairs), problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", required=True, type=Path, help="a local checkout of psunlpgroup/MultiHiertt")
    parser.add_argument("--limit", type=int, default=None, help="at most this many corpus programs")
    parser.add_argument("--seed", type=int, default=20221)
    args = parser.parse_args(argv)
    peer = load_peer(args.checkout)
    texts = programs(args.limit, args.seed)
    program_problems = check_programs(peer, texts)
    print(f"programs: {len(texts)} checked, {len(program_problems)} disagree")
    n_pairs, score_problems = check_scoring(peer, args.seed)
    print(f"scoring pairs: {n_pairs} checked, {len(score_problems)} disagree")
    for line in (program_problems + score_problems)[:20]:
        print("  " + line)
    return 1 if program_problems or score_problems else 0


if __name__ == "__main__":
    sys.exit(main())
