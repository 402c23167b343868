"""Cross-check progexec's TAT-QA scorer against the official ``tatqa_eval`` code, item by item.

Run with an interpreter that has numpy, scipy and pandas (the official requirements) and progexec
on the path, giving a local checkout of NExTplusplus/TAT-QA (its code is imported from there,
never copied)::

    PYTHONPATH=src python scripts/crosscheck_tatqa.py --tatqa /path/to/TAT-QA \\
        [--gold tatqa:dev --gold tatqa:test] [--sets 6] [--seed 0] [--fuzz 20000]

For each gold file it generates ``--sets`` prediction sets (seeded), each question answered by one
variant: the gold answer, a perturbed number, a dropped or wrong scale, percent and fraction forms
(``6.67%``, ``0.0667``), rounding edges (``x.xx5``, ``x.xx4999``), accounting negatives (``(12.6)``,
``($12.6)``, ``-(12.6)``), ``$``/thousands separators, scale words in the answer, scientific
notation, span and multi-span variants (recased, reordered, partial, extra words and articles),
falsy predictions (``""``, ``[]``, ``null``, ``0``) and missing ones; plus the repository's
``sample_prediction.json`` when scoring ``tatqa:dev``. Every question is scored by the official
``TaTQAEmAndF1`` (one instance, in file order, as ``evaluate_json`` does) and by progexec; EM, F1
and the scale-score increment must be equal as floats per question, the aggregates and the
answer type x answer source tables equal; for two sets per gold file the official ``tatqa_eval.py`` also
runs in its own process on files, and must print the figures ``progexec.datasets.tatqa.score`` gives on those
files. ``--fuzz N`` also compares ``normalize_answer``,
``is_number`` and ``to_number`` on N generated strings. Exit 1 on any disagreement.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from progexec.datasets.tatqa.data import read_predictions
from progexec.datasets.tatqa.metric import score_question
from progexec.datasets.tatqa.normalize import is_number, normalize_answer, to_number
from progexec.core.errors import OfficialAbort
from progexec.datasets.tatqa.scoring import gold_questions, lookup, pivot

SCALES = ("", "thousand", "million", "billion", "percent")
WORDS = ("the", "a", "An", "net", "Revenue", "2019", "(1,234)", "$5.6", "12%", "-", "million", "Total,", "U.S.")


def _number_variants(answer: Any, scale: str, rng: random.Random) -> list[tuple[Any, Any]]:
    value = float(answer)
    other = rng.choice([s for s in SCALES if s != scale])
    text = f"{abs(value):,}"
    return [
        (answer, scale), (str(answer), scale), (value, scale), (value + rng.choice((0.01, -0.01, 1, 0.005)), scale),
        (answer, ""), (answer, other), (-value, scale), (round(value, 1), scale), (round(value, 3), scale),
        (f"{value}%", ""), (f"{value}%", scale), (value / 100, ""), (round(value / 100, 4), ""), (value * 1000, ""),
        (f"({abs(value)})", scale), (f"(${abs(value)})", scale), (f"-({abs(value)})", scale), (f"${text}", scale),
        (f"{text} {scale or 'million'}", scale), (f"{value} million", ""), (f"{value:.2f}5", scale),
        (f"{value:.2f}4999", scale), (f"{value:.3e}", scale), ([str(answer)], scale), ([str(answer), "x"], scale),
        (f"{value} {scale}", ""), (f".{abs(int(value)) % 100}", scale), (str(int(value)), scale),
        (f"{value:.2f}", scale.upper()), (f"about {value}", scale), (True, scale), ({"a": 1}, scale),
    ]


def _span_variants(answer: list[Any], scale: str, rng: random.Random) -> list[tuple[Any, Any]]:
    spans = [str(span) for span in answer] or [""]
    first = spans[0]
    words = first.split()
    return [
        (spans, scale), (list(reversed(spans)), scale), ([span.upper() for span in spans], scale),
        ([span.lower() for span in spans], scale), (spans[:1], scale), (spans + [rng.choice(WORDS)], scale),
        (" ".join(spans), scale), (first, scale), (" ".join(words[: max(1, len(words) // 2)]), scale),
        ("the " + first + ".", scale), (first + " " + rng.choice(WORDS), scale), (spans, ""),
        (spans, rng.choice(SCALES)), ([first, first], scale), (["", first], scale), ([" " + first + " "], scale),
        (first.replace(" ", "  "), scale), (rng.choice(WORDS), scale), ([rng.choice(WORDS) for _ in range(3)], scale),
        (first.replace(",", ""), scale), (f"{first}%", scale),
    ]


HOSTILE: list[tuple[Any, Any]] = [
    (["a", 1], ""), ("5", None), (5, 5), ("5", ["percent"]), ([["x"]], ""), ({"a": 1, "b": 2}, ""),
    (float("nan"), ""), (float("inf"), "million"), ("9" * 5000, ""), (10 ** 400, ""), ("1" * 400 + ".5", ""),
    ("\u0661\u0662", ""), ("12\n34", ""), ("-0.0", ""), (-0.0, "percent"), ("", "percent"), (" ", ""), ("(", ""),
    ("%", ""), ("$", ""), ("1,2,3", ""), ("1.2.3", ""), ("+5", ""), ("5-", ""), ("a b  c", ""), ("\t5", ""),
    ("\uff15", ""), ("inf", ""), ("nan", "percent"), ("1_000", "thousand"), ("5", "Million"), ("5", "hundred"),
    ([1, 2.5], "million"), (["b", "a", "B"], ""), ([None], ""), ([""], ""), ("( 5 )", ""), ("(5 %)", ""),
    ("5 millions", ""), ("1e400", ""), (True, None), ("x", 0), ([0], ""),
]
"""Values the official code reads strangely or raises on (checked item by item)."""


def hostile_set(questions: list[Any], seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    return {question["uid"]: list(rng.choice(HOSTILE)) for question in questions}


def _falsy() -> list[tuple[Any, Any]]:
    return [("", ""), ([], ""), (None, ""), (0, ""), (0.0, "percent"), (False, ""), ({}, "")]


def variants(question: Any, rng: random.Random) -> list[tuple[Any, Any]]:
    """Every prediction variant for one gold question."""
    answer, scale, kind = question.get("answer"), question.get("scale", ""), question.get("answer_type")
    found: list[tuple[Any, Any]] = []
    if kind in ("arithmetic", "count"):
        try:
            found += _number_variants(answer, scale, rng)
        except (TypeError, ValueError):
            pass
    if isinstance(answer, list):
        found += _span_variants(answer, scale, rng)
        if len(answer) == 1 and is_number(str(answer[0])):
            with contextlib.suppress(TypeError, ValueError, OfficialAbort):
                number = to_number(str(answer[0]))
                if number is not None:
                    found += _number_variants(number, scale, rng)
    return found + _falsy()


def prediction_sets(questions: list[Any], count: int, seed: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """``count`` seeded sets; set 0 is the gold itself; about 1 question in 12 has no prediction."""
    rng = random.Random(seed)
    yield "gold", {q["uid"]: [q["answer"], q["scale"]] for q in questions}
    for number in range(1, count):
        chosen: dict[str, Any] = {}
        for question in questions:
            if rng.random() < 1 / 12:
                continue
            answer, scale = rng.choice(variants(question, rng))
            chosen[question["uid"]] = [answer, scale]
        yield f"generated-{number}", chosen


def _official(tatqa: Path) -> Any:
    sys.path.insert(0, str(tatqa))
    import tatqa_metric  # type: ignore[import-not-found]  # the official module, from the checkout

    return tatqa_metric


def compare_set(metric: Any, name: str, questions: list[Any], predictions: Any) -> int:
    """Score one set both ways; print and count the disagreements."""
    official = metric.TaTQAEmAndF1()
    ours = []
    wrong = 0
    aborted = False
    for question in questions:
        before = official._scale_em
        try:
            ours_score = score_question(question, *lookup(predictions, question["uid"]))
        except OfficialAbort as error:
            ours_score = None
            message = str(error)
        try:
            answer, scale = (predictions[question["uid"]] if question["uid"] in predictions else (None, None))
            with contextlib.redirect_stdout(io.StringIO()):
                official(ground_truth=question, prediction=answer, pred_scale=scale)
        except Exception as error:  # the official code raised: ours must have said so
            aborted = True
            if ours_score is not None:
                wrong += 1
                print(f"{name} {question['uid']}: official raised {type(error).__name__}: {error}; progexec scored it")
            continue
        if ours_score is None:
            wrong += 1
            print(f"{name} {question['uid']}: progexec says the official aborts ({message}); it did not")
            continue
        detail = official._details[-1]
        got = (ours_score.em, ours_score.f1, ours_score.scale_counted)
        want = (float(detail["em"]), float(detail["f1"]), official._scale_em != before)
        if got != want:
            wrong += 1
            print(f"{name} {question['uid']}: progexec {got} official {want} for {predictions.get(question['uid'])!r}")
        ours.append(ours_score)
    if aborted:
        print(f"{name}: the official scorer raises on some questions (compared item by item only)")
        return wrong
    em, f1, scale, _ = official.get_overall_metric()
    count = len(ours)
    mine = (sum_in_order(s.em for s in ours) / count, sum_in_order(s.f1 for s in ours) / count,
            sum(1.0 for s in ours if s.scale_counted) / count)
    if mine != (em, f1, scale):
        wrong += 1
        print(f"{name}: aggregate progexec {mine} official {(em, f1, scale)}")
    wrong += _compare_tables(official, ours, name)
    print(f"{name}: {count} questions, EM {em * 100:.2f} F1 {f1 * 100:.2f} scale {scale * 100:.2f}; "
          f"{'agree' if not wrong else f'{wrong} disagreements'}")
    return wrong


def sum_in_order(values: Any) -> float:
    total = 0.0
    for value in values:
        total += value
    return total


def _compare_tables(official: Any, ours: list[Any], name: str) -> int:
    em_table, f1_table = official.get_detail_metric()
    table = pivot(ours)
    wrong = 0
    for (kind, source), cell in table.items():
        for label, frame, value in (("em", em_table, cell.em), ("f1", f1_table, cell.f1)):
            theirs = float(frame[(label, source)][kind])
            if theirs != value:
                wrong += 1
                print(f"{name}: table {label} {kind}/{source} progexec {value!r} official {theirs!r}")
    return wrong


def _fuzz_text(rng: random.Random) -> str:
    pieces = ["1", "2", "0", "9", ".", ",", "-", "+", "(", ")", "$", "%", " ", "  ", "e", "5", "million", "thousand",
              "percent", "billion", "hundred", "the", "a", "A", "x", "'", "[", "]", "€", "\t", "inf", "nan", "_", "١"]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))


def fuzz(utils: Any, count: int, seed: int) -> int:
    """Compare the normalisation functions on generated strings."""
    rng = random.Random(seed)
    wrong = 0
    pairs: list[tuple[str, Callable[[str], Any], Callable[[str], Any]]] = [
        ("normalize_answer", normalize_answer, utils.normalize_answer), ("is_number", is_number, utils.is_number),
        ("to_number", to_number, utils.to_number)]
    for _ in range(count):
        text = _fuzz_text(rng)
        for label, mine, theirs in pairs:
            try:
                want: Any = theirs(text)
            except Exception as error:  # noqa: BLE001 - the official code may raise; ours must too
                want = f"raises {type(error).__name__}"
            try:
                got: Any = mine(text)
            except OfficialAbort:
                got = want if str(want).startswith("raises") else "raises"
            if repr(got) != repr(want):
                wrong += 1
                if wrong <= 20:
                    print(f"fuzz {label}({text!r}): progexec {got!r} official {want!r}")
    print(f"fuzz: {count} strings x 3 functions; {'agree' if not wrong else f'{wrong} disagreements'}")
    return wrong


def documented_quirks(metric: Any) -> int:
    """Every row of the quirk table in docs/tatqa.md through the official metric: its EM and F1."""
    doc = Path(__file__).resolve().parent.parent / "docs" / "tatqa.md"
    table = doc.read_text(encoding="utf-8").split("<!-- quirks -->")[1].split("<!-- /quirks -->")[0]
    wrong = 0
    rows = table.strip().splitlines()[2:]
    for line in rows:
        quirk, gold, prediction, em, f1 = [cell.strip() for cell in line.strip("|").split(" | ")]
        answer, scale, kind = json.loads(gold.strip("`"))
        predicted, predicted_scale = json.loads(prediction.strip("`"))
        official = metric.TaTQAEmAndF1()
        official(ground_truth={"uid": "q", "answer": answer, "scale": scale, "answer_type": kind,
                               "answer_from": "table"}, prediction=predicted, pred_scale=predicted_scale)
        detail = official._details[-1]
        if (float(detail["em"]), float(detail["f1"])) != (float(em), float(f1)):
            wrong += 1
            print(f"docs: {quirk}: official gives EM {detail['em']} F1 {detail['f1']}, the docs say {em} {f1}")
    print(f"docs: {len(rows)} documented quirks; {'agree' if not wrong else f'{wrong} disagreements'}")
    return wrong


def compare_files(tatqa: Path, gold: str, questions: list[Any], predictions: dict[str, Any], name: str) -> int:
    """Write the gold and the predictions to files, run the official ``tatqa_eval.py`` on them in a fresh
    process, and compare its printed figures with ``progexec.datasets.tatqa.score`` on the same files."""
    import subprocess
    import tempfile

    from progexec.datasets.tatqa.data import open_tatqa
    from progexec.datasets.tatqa.scoring import score

    with tempfile.TemporaryDirectory() as folder:
        gold_path, pred_path = Path(folder) / "gold.json", Path(folder) / "pred.json"
        opened = open_tatqa(gold)
        try:
            gold_path.write_text("".join(iter(lambda: opened.read(1 << 20), "")), encoding="utf-8")
        finally:
            opened.close()
        pred_path.write_text(json.dumps(predictions), encoding="utf-8")
        printed = subprocess.run([sys.executable, "tatqa_eval.py", "--gold_path", str(gold_path), "--pred_path",
                                  str(pred_path)], cwd=tatqa, capture_output=True, text=True, check=True).stdout
        result = score(gold_path, pred_path)
    mine = (f"Exact-match accuracy {result.em * 100:.2f}\nF1 score {result.f1 * 100:.2f}\n"
            f"Scale score {result.scale * 100:.2f}\n")
    if mine not in printed:
        print(f"{name} (files): tatqa_eval.py printed\n{printed[:300]}\nprogexec\n{mine}")
        return 1
    print(f"{name} (files): tatqa_eval.py prints the same figures")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    parser.add_argument("--tatqa", required=True, type=Path, help="local checkout of NExTplusplus/TAT-QA")
    parser.add_argument("--gold", action="append", help="gold files (default: tatqa:dev and tatqa:test)")
    parser.add_argument("--sets", type=int, default=6, help="prediction sets per gold file (default 6)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fuzz", type=int, default=20000, help="generated strings for the normalisation check")
    args = parser.parse_args(argv)
    metric = _official(args.tatqa)
    wrong = documented_quirks(metric) + fuzz(sys.modules["tatqa_utils"], args.fuzz, args.seed)
    for gold in args.gold or ["tatqa:dev", "tatqa:test"]:
        questions = [dict(question.raw) for question in gold_questions(gold)]
        for name, predictions in prediction_sets(questions, args.sets, args.seed):
            wrong += compare_set(metric, f"{gold} {name}", questions, predictions)
            if name in ("gold", "generated-1"):
                wrong += compare_files(args.tatqa, gold, questions, predictions, f"{gold} {name}")
        wrong += compare_set(metric, f"{gold} hostile", questions, hostile_set(questions, args.seed))
        sample = args.tatqa / "sample_prediction.json"
        if gold == "tatqa:dev" and sample.exists():
            wrong += compare_set(metric, f"{gold} sample_prediction", questions, read_predictions(sample))
    print("crosscheck_tatqa: " + ("every question and aggregate agrees" if not wrong else f"{wrong} disagreements"))
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
