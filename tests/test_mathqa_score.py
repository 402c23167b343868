"""``progexec score`` on MathQA (docs/mathqa.md, "Scoring"): an official MathQA file and ``mathqa:SPLIT`` are gold
sets; the gold programs given as predictions score 1.0; the trax figure of the gold programs is the published
size of MathQA-Python's splits (Austin et al. 2021: test 1,883, validation 2,822), and the option figure keeps
exactly the problems ``mathqa-python`` keeps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from progexec.cli import main
from progexec.datasets.mathqa.corpus import mathqa_records
from progexec.datasets.mathqa.score import score_records, trax_answer

ROOT = Path(__file__).resolve().parent.parent
SHARED = next((path for path in (ROOT.parent / "shared" / "data" / "mathqa", ROOT.parent.parent / "shared" / "data"
                                 / "mathqa") if path.is_dir()), ROOT.parent / "shared" / "data" / "mathqa")
UNEXECUTABLE_TEST = ["982", "1988", "2889", "2931"]
"""The test problems whose gold program uses an op MathQA-Python does not define (surface_cylinder, min)."""


def _gold_as_predictions(path: Path, split: str, count: int | None = None) -> Path:
    records = mathqa_records(split)[:count]
    path.write_text("".join(json.dumps({"id": str(index), "predicted": record["linear_formula"]}) + "\n"
                            for index, record in enumerate(records)))
    return path


def test_gold_programs_score_1_and_trax_gives_the_published_test_size(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    pred = _gold_as_predictions(tmp_path / "gold.jsonl", "test")
    assert main(["score", "--gold", "mathqa:test", "--pred", str(pred), "--json"]) == 0  # exit 2 before
    captured = capsys.readouterr()
    record = json.loads(captured.out)
    assert (record["execution_accuracy"], record["program_accuracy"]) == (1.0, 1.0)
    assert record["n"] == 2985 - 4 and record["gold_errors"] == UNEXECUTABLE_TEST
    assert record["correct"]["trax"] == 1883  # MathQA-Python's published test size: trax's own rule
    assert "PASS score: MathQA, n = 2981, execution accuracy 1.0000, program accuracy 1.0000" in captured.err
    # mathqa-python keeps exactly the problems whose gold program the option rule counts
    kept = tmp_path / "kept.jsonl"
    assert main(["mathqa-python", "--split", "test", "--out", str(kept), "--no-progress"]) == 0
    capsys.readouterr()
    kept_ids = [json.loads(line)["id"] for line in kept.read_text().splitlines()]
    assert main(["score", "--gold", "mathqa:test", "--pred", str(pred), "--items", str(tmp_path / "items.jsonl")]) == 0
    items = [json.loads(line) for line in (tmp_path / "items.jsonl").read_text().splitlines()]
    assert [item["id"] for item in items if item["status"] == "scored" and item["option"]] == kept_ids
    assert record["correct"]["option"] == len(kept_ids) == 1881
    answers = {json.loads(line)["id"]: json.loads(line)["answer"] for line in kept.read_text().splitlines()}
    values = {item["id"]: item["gold"] for item in items if item["status"] == "scored"}
    assert all(values[item_id] == pytest.approx(answer, rel=1e-9) for item_id, answer in answers.items())


def test_trax_gives_the_published_validation_size() -> None:
    records = mathqa_records("dev")
    result = score_records(records, [{"id": str(i), "predicted": r["linear_formula"]} for i, r in enumerate(records)])
    assert result.correct("trax") == 2822 and result.accuracy("execution") == 1.0


@pytest.mark.skipif(not (SHARED / "test.json.gz").is_file(), reason="the shared MathQA files are absent")
def test_an_official_mathqa_file_is_a_gold_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pred = _gold_as_predictions(tmp_path / "gold.jsonl", "test", 50)
    assert main(["score", "--gold", str(SHARED / "test.json.gz"), "--pred", str(pred), "--json"]) == 0
    from_file = json.loads(capsys.readouterr().out)
    assert main(["score", "--gold", "mathqa:test", "--pred", str(pred), "--json"]) == 0
    embedded = json.loads(capsys.readouterr().out)
    assert from_file["n"] == 50 and from_file["execution_accuracy"] == 1.0
    assert {key: value for key, value in from_file.items() if key not in ("meta", "gold")} == \
        {key: value for key, value in embedded.items() if key not in ("meta", "gold")}
    out = tmp_path / "out"
    assert main(["score", "--gold", str(SHARED / "test.json.gz"), "--pred", str(pred), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    for name in ("score.json", "items.jsonl", "score.md", "score.html"):
        assert f"progexec score: wrote {out / name}\n" in err
    assert json.loads((out / "score.json").read_text())["correct"] == embedded["correct"]


def test_answers_letters_and_wrong_programs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = mathqa_records("test")[0]  # correct "a", options "a ) 38 , b ) 27.675 , ..."; its program gives 38.0
    assert first["correct"] == "a" and first["options"].startswith("a ) 38 ,")
    pred = tmp_path / "p.jsonl"
    pred.write_text("".join(json.dumps(line) + "\n" for line in [
        {"id": "0", "answer": "a"}, {"id": "0", "answer": "b"}]))
    assert main(["score", "--gold", "mathqa:test", "--pred", str(pred), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["correct"] == {"execution": 1, "program": 0, "option": 1, "trax": 1}
    assert record["coverage"]["duplicate_ids"] == ["0"]
    for line, verdicts in [({"id": "0", "answer": "The answer is 27.675"}, [0, 0, 0, 0]),
                           ({"id": "0", "predicted": "add(n0,n1)|"}, [0, 0, 0, 0]),
                           ({"id": "0", "predicted": ["add(n1,const_100)|subtract(const_100,n0)|multiply(#0,const_100)|"
                                                      "divide(#2,#1)|subtract(#3,const_100)|", "EOF"]}, [1, 1, 1, 1]),
                           ({"id": "0", "predicted": " add(n1,const_100) | subtract(const_100,n0)|multiply(#0,const_100)|"
                                                   "divide(#2,#1)|subtract(#3,const_100)"}, [1, 1, 1, 1])]:
        pred.write_text(json.dumps(line) + "\n")
        assert main(["score", "--gold", "mathqa:test", "--pred", str(pred), "--json"]) == 0
        record = json.loads(capsys.readouterr().out)
        assert [record["correct"][name] for name in ("execution", "program", "option", "trax")] == verdicts, line


def test_a_scorer_option_is_refused_for_mathqa(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pred = _gold_as_predictions(tmp_path / "gold.jsonl", "test", 3)
    assert main(["score", "--gold", "mathqa:test", "--pred", str(pred), "--scorer", "pot"]) == 2
    assert "does not apply" in capsys.readouterr().err


@pytest.mark.parametrize(("options", "correct", "number"), [
    ("a ) 38 , b ) 27.675 , c ) 30 , d ) data inadequate , e ) none of these", "b", 27.675),
    ("a ) 1 / 2 , b ) 1 / 3 , c ) 1 / 5 , d ) 10 / 30 , e ) 2 / 5", "b", 1 / 3),
    ("a ) rs . 1,200 , b ) rs . 1,300", "a", 1200.0),
    ("a ) - 6 , b ) 6", "a", 6.0),  # trax reads the number without the sign MathQA's tokens separated
    ("a ) none of these , b ) 5", "a", 5.0),  # trax takes the first number after the letter, wherever it is
    ("a ) none , b ) none", "c", None),
])
def test_the_correct_option_as_trax_reads_it(options: str, correct: str, number: float | None) -> None:
    assert trax_answer(options, correct) == number


def test_mathqa_program_records_are_a_gold_set_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Program records ({id, program, problem, options, correct}) with dialect mathqa, or any with --dialect mathqa,
    are scored by MathQA's scorer: the official FinQA one could not symbolise them (0/50 before)."""
    records = mathqa_records("test")[:50]
    gold = tmp_path / "gold.jsonl"
    gold.write_text("".join(json.dumps({"id": str(i), "program": r["linear_formula"], "problem": r["Problem"],
                                        "options": r["options"], "correct": r["correct"], "dialect": "mathqa"}) + "\n"
                            for i, r in enumerate(records)))
    pred = _gold_as_predictions(tmp_path / "pred.jsonl", "test", 50)
    assert main(["score", "--gold", str(gold), "--pred", str(pred), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert (record["n"], record["execution_accuracy"], record["program_accuracy"]) == (50, 1.0, 1.0)
    gold.write_text(gold.read_text().replace(', "dialect": "mathqa"', ""))
    assert main(["score", "--gold", str(gold), "--pred", str(pred), "--dialect", "mathqa", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["correct"] == record["correct"]
