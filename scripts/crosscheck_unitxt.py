"""Cross-check progexec's ``unitxt`` / ``unitxt-2024`` scorers against unitxt's real ``FinQAEval``.

Run with an interpreter that has ``unitxt`` installed and progexec on the path::

    PYTHONPATH=src .venv-unitxt/bin/python scripts/crosscheck_unitxt.py \\
        --finqa-evaluate /path/to/czyssrs-FinQA/code/evaluate/evaluate.py

``FinQAEval.prepare`` downloads czyssrs/FinQA@dfc5b72 ``evaluate.py`` into
``/tmp/finqa_eval_script.py`` unless the file is already there (it checks the MD5 only when it
downloads); ``--finqa-evaluate`` places a local copy there so the run is offline.

Inputs: every prediction set in ``tests/data/predictions`` (FinQA test/dev), each scored with
``answer`` = ``str(exe_ans)`` and with ``answer`` = the same number followed by ``%`` (a
``qa.answer`` that ``float()`` cannot read, so unitxt takes its fallback); and the gold programs
themselves as predictions (correct multi-step programs, table ops included). The ``task_data``
is built the card's way from the raw gold record: ``program_re`` = ``str(qa.program)`` (current)
or the nested form (2024), ``table`` = ``{"header": table[0], "rows": table[1:]}``, and
``references`` = ``[program_re]``. ``--mutations N`` adds N random variants of gold programs
(whitespace, extra lines, upper case, ``greater``, trailing text, other items' programs) with
awkward answers (``"yes"``, ``""``, ``"$ …"``, a ``%``). Prints agreement counts per set and card;
exit 1 on any disagreement.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import json
import random
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from progexec.score.loading import load_gold
from progexec.score.results import GoldItem, Prediction
from progexec.score.official_scorer import ItemContext
from progexec.score.unitxt import Card, nested_program, score_card, tokens_to_text

PREDICTIONS = Path(__file__).resolve().parent.parent / "tests" / "data" / "predictions"
UNITXT_SCRIPT_PATH = Path("/tmp/finqa_eval_script.py")


def _sets(folder: Path) -> Iterator[tuple[str, str, list[dict[str, Any]]]]:
    for path in sorted(folder.glob("*_predictions.json*")):
        split = "dev" if "_dev_" in path.name else "test"
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as handle:
            yield path.name, split, json.load(handle)


def _card_fields(gold: GoldItem, card: Card, answer: str) -> dict[str, Any]:
    assert gold.tokens is not None and gold.table is not None
    program = gold.program_text if card is Card.CURRENT else nested_program(gold.tokens)
    table = {"header": gold.table[0], "rows": gold.table[1:]} if gold.table else {"header": [], "rows": []}
    return {"program_re": program, "answer": answer, "table": table}


def _compare(metric: Any, gold: GoldItem, text: str, card: Card, answer: str) -> tuple[bool, float, float]:
    task_data = _card_fields(gold, card, answer)
    references = [str(task_data["program_re"]).strip().split("\n")[0].strip()]
    prediction = text.strip().split("\n")[0].strip()
    with contextlib.redirect_stdout(io.StringIO()):  # evaluate.py prints 'structure error'
        theirs = metric.compute(references, prediction, task_data)
    variant = GoldItem(gold.id, gold.tokens, gold.table, gold.exe_ans, answer, "finqa", gold.program_text)
    ours = score_card(ItemContext(variant, Prediction(gold.id, None, None, program_text=text)), card)
    same = (float(ours.execution), float(bool(ours.program))) == (
        theirs["execution_accuracy"], theirs["program_accuracy"])
    return same, theirs["execution_accuracy"], theirs["program_accuracy"]


def mutate(rng: random.Random, text: str, gold: GoldItem, others: list[GoldItem]) -> str:
    """A variant of a gold program as a model might write it."""
    choice = rng.randrange(10)
    steps = text.split(", ")
    variants = [
        text, "  " + text + "\nexplanation", f"{text} = {gold.exe_ans}", text.replace(", ", ","),
        "greater(" + text.split("(")[1].split(")")[0] + ")" if "(" in text else text, "The answer: " + text,
        text.upper(), steps[0] + (")" if not steps[0].endswith(")") else ""),
        rng.choice(others).program_text or "", text.replace("#0", "#1"),
    ]
    return variants[choice]


def mutation_runs(metric: Any, golds: list[GoldItem], count: int, seed: int) -> int:
    """Random variants of the gold programs with awkward answers, both cards; returns the disagreements."""
    rng = random.Random(seed)
    pool = [g for g in golds if g.program_text and g.tokens is not None and g.table is not None and len(g.table) > 1]
    failures = 0
    for _ in range(count):
        gold = rng.choice(pool)
        text = mutate(rng, gold.program_text or "", gold, pool)
        value = str(gold.exe_ans)
        answer = rng.choice([value, value + "%", "yes", "", "$ " + value, value.rstrip("0")])
        card = rng.choice(list(Card))
        same, _, _ = _compare(metric, gold, text, card, answer)
        if not same:
            failures += 1
            print(f"  disagree: {gold.id} {card.value} {answer!r} {text!r}", file=sys.stderr)
    print(f"mutated gold programs (seed {seed}): {count - failures} of {count} agree")
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--finqa-evaluate", type=Path, help="a local copy of czyssrs/FinQA code/evaluate/evaluate.py")
    parser.add_argument("--limit", type=int, default=0, help="items per set (0: all)")
    parser.add_argument("--predictions", type=Path, default=PREDICTIONS,
                        help="a folder of official-format FinQA prediction sets (default tests/data/predictions)")
    parser.add_argument("--no-gold-programs", action="store_true", help="skip the gold programs as predictions")
    parser.add_argument("--mutations", type=int, default=0, metavar="N", help="also N mutated gold programs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-sets", action="store_true", help="only the mutated gold programs")
    args = parser.parse_args()
    if args.finqa_evaluate is not None:
        shutil.copyfile(args.finqa_evaluate, UNITXT_SCRIPT_PATH)
    from unitxt.metrics import FinQAEval  # imported here: unitxt is optional and slow to import

    metric = FinQAEval()
    golds = {split: {item.id: item for item in load_gold(f"finqa:{split}")} for split in ("test", "dev")}
    failures = mutation_runs(metric, list(golds["test"].values()), args.mutations, args.seed) if args.mutations else 0
    if args.no_sets:
        return 1 if failures else 0
    runs: list[tuple[str, str, list[tuple[GoldItem, str]]]] = []
    for name, split, records in _sets(args.predictions):
        pairs = [(golds[split][r["id"]], tokens_to_text(r["predicted"])) for r in records if r["id"] in golds[split]]
        runs.append((name, split, pairs))
    if not args.no_gold_programs:
        runs.append(("gold programs as predictions", "test",
                     [(g, g.program_text or "") for g in golds["test"].values() if g.program_text]))
    print(f"{'set':66} {'card':12} {'answer':8} {'agree':>6} {'of':>6} {'unitxt exe':>10} {'prog':>6}")
    for name, _split, pairs in runs:
        pairs = [(g, t) for g, t in pairs if g.tokens is not None and g.table is not None and len(g.table) > 1]
        if args.limit:
            pairs = pairs[: args.limit]
        for card in Card:
            for answer_kind in ("exe_ans", "percent"):
                agree = 0
                exe = prog = 0.0
                for gold, text in pairs:
                    answer = str(gold.exe_ans) + ("%" if answer_kind == "percent" else "")
                    same, their_exe, their_prog = _compare(metric, gold, text, card, answer)
                    exe, prog = exe + their_exe, prog + their_prog
                    if same:
                        agree += 1
                    elif failures < 10:
                        print(f"  disagree: {gold.id} {card.value} {answer!r} {text!r}", file=sys.stderr)
                failures += len(pairs) - agree
                print(f"{name:66} {card.value:12} {answer_kind:8} {agree:6} {len(pairs):6} "
                      f"{exe / max(1, len(pairs)):10.4f} {prog / max(1, len(pairs)):6.4f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
