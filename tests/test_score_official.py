"""Official execution and program accuracy on real prediction sets, ConvFinQA, coverage and aborts."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from progexec.datasets import get_dataset
from progexec.corpus import convfinqa_records, finqa_records
from progexec.grammar.tokens import official_tokenize
from progexec.score import GoldItem, Prediction, load_gold, load_predictions, score_predictions
from progexec.score.equivalence import equal_program

DATA = Path(__file__).parent / "data" / "predictions"

# Execution accuracy from PROVENANCE.md's rough check (relative tolerance 1e-5, three decimals):
# official ``==`` can only be stricter, and is within a few items of it.
SETS = {
    "finqa_example_predictions.json.gz": ("finqa:test", 0.700),
    "czyssrs-evaluate-predictions_test_predictions.json.gz": ("finqa:test", 0.650),
    "humblef00ls-finqanet-bert-base_test_predictions.json.gz": ("finqa:test", 0.670),
    "humblef00ls-finqanet-bert-base-add-module_test_predictions.json.gz": ("finqa:test", 0.682),
    "humblef00ls-finqanet-bert-base_dev_predictions.json.gz": ("finqa:dev", 0.672),
    "elastic-repo-finqanet-roberta-large_test_predictions.json.gz": ("finqa:test", 0.656),
    "ivyycc-llama-lora_test_predictions.json.gz": ("finqa:test", 0.224),
}


def test_finqanet_example_predictions_reproduce_the_official_figures() -> None:
    """The official script's figures on its own example file (issue 4): 0.7 and 0.6876190476190476."""
    report = score_predictions(load_gold("finqa:test"), load_predictions(str(DATA / "finqa_example_predictions.json.gz")))
    official = report.scorers["official"]
    assert report.n == 1050
    assert official.execution_accuracy == 0.7
    assert official.program_accuracy == 0.6876190476190476
    assert report.would_abort_ids == [] and report.unknown_ids == [] and report.duplicate_ids == []
    assert len(report.missing_ids) == 1147 - 1050


@pytest.mark.parametrize("name", sorted(SETS))
def test_every_prediction_set_scores_within_the_rough_check(name: str) -> None:
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{name} is not redistributable here (see tests/data/predictions/README.md)")
    gold_name, rough = SETS[name]
    report = score_predictions(load_gold(gold_name), load_predictions(str(path)), ["official", "helm-fin-qa"])
    official, helm = report.scorers["official"], report.scorers["helm-fin-qa"]
    assert report.unknown_ids == [] and report.duplicate_ids == [] and report.would_abort_ids == []
    assert official.execution_correct <= helm.execution_correct  # == is stricter than isclose
    assert abs(official.execution_accuracy - rough) < 0.0035
    assert official.program_correct is not None and official.program_correct <= official.execution_correct + 5


def test_per_item_program_accuracy_matches_the_sympy_comparison() -> None:
    """On a real set, every pair that reaches the symbolic stage gets the official sympy answer."""
    gold = {item.id: item for item in load_gold("finqa:test")}
    checked = 0
    for pred in load_predictions(str(DATA / "humblef00ls-finqanet-bert-base_test_predictions.json.gz"))[:600]:
        target = gold[pred.id]
        assert target.tokens is not None and pred.tokens is not None
        fast = equal_program(target.tokens, pred.tokens)
        if fast.decided_by.value in ("rule", "identical"):
            continue
        assert fast.equal == equal_program(target.tokens, pred.tokens, fast=False).equal, pred.id
        checked += 1
    assert checked > 50


def test_gold_programs_scored_against_themselves_are_perfect() -> None:
    records = [r for r in finqa_records() if r["split"] == "test"]
    predictions = [Prediction(r["id"], tuple(official_tokenize(r["program"]))) for r in records]
    report = score_predictions(load_gold("finqa:test"), predictions)
    assert report.scorers["official"].execution_accuracy == 1.0
    assert report.scorers["official"].program_accuracy == 1.0


def test_convfinqa_dev_turns_scored_against_themselves_are_perfect() -> None:
    """Issue 4 §3: every turn of ConvFinQA dev (bare-number turns included) gives 1.0 / 1.0."""
    predictions = []
    for record in convfinqa_records():
        if record["split"] == "dev":
            for turn, program in enumerate(record["turn_program"]):
                predictions.append(Prediction(f"{record['id']}_{turn}", tuple(official_tokenize(program))))
    assert len(predictions) == 1490
    report = score_predictions(load_gold("convfinqa:dev"), predictions)
    assert report.dialect == "convfinqa"
    assert report.scorers["official"].execution_accuracy == 1.0
    assert report.scorers["official"].program_accuracy == 1.0
    assert report.missing_ids == []


def test_convfinqa_turn_file_and_prediction_text(tmp_path: Path) -> None:
    turns = [{"id": "t1", "table": [["a", "1"]], "annotation": {"cur_program": "add(1, 2)", "exe_ans": 3.0}},
             {"id": "t2", "table": [["a", "1"]], "annotation": {"cur_program": "206588", "exe_ans": 206588.0}}]
    gold_path = tmp_path / "turns.json"
    gold_path.write_text(json.dumps(turns))
    pred_path = tmp_path / "pred.jsonl"
    pred_path.write_text('{"id": "t1", "predicted": "add(2, 1)"}\n{"id": "t2", "predicted": ["206588", "EOF"]}\n')
    report = score_predictions(load_gold(str(gold_path)), load_predictions(str(pred_path)))
    assert report.scorers["official"].execution_correct == 2
    assert report.scorers["official"].program_correct == 2


def test_convfinqa_counts_program_accuracy_only_for_valid_executions() -> None:
    gold = [GoldItem("c", tuple(official_tokenize("divide(5, 0)")), [], 1.0, dialect="convfinqa")]
    pred = [Prediction("c", tuple(official_tokenize("divide(5, 0)")))]
    verdict = score_predictions(gold, pred).items[0].verdicts["official"]
    assert verdict.program is False and verdict.program_why == "execution_invalid"
    finqa = [GoldItem("c", tuple(official_tokenize("divide(5, 0)")), [], 1.0)]
    assert score_predictions(finqa, pred).items[0].verdicts["official"].program is True


def test_reassociation_item_is_counted_and_listed_instead_of_aborting() -> None:
    """SPEC §1: program-equal, execution-unequal; the official script would abort on its assert."""
    gold = [GoldItem("r", tuple(official_tokenize("add(0.123647, 0.519502), add(#0, 1.832786)")), [], 2.47593)]
    pred = [Prediction("r", tuple(official_tokenize("add(0.519502, 1.832786), add(0.123647, #0)")))]
    report = score_predictions(gold, pred)
    item = report.items[0]
    assert item.official_value == 2.47594
    assert item.verdicts["official"].execution is False
    assert item.verdicts["official"].program is True
    assert report.would_abort_ids == ["r"]


def test_unknown_duplicate_and_missing_ids_are_reported(tmp_path: Path) -> None:
    gold = [GoldItem(i, tuple(official_tokenize("add(1, 2)")), [], 3.0) for i in ("a", "b", "c")]
    preds = [Prediction("a", tuple(official_tokenize("add(1, 2)")), position=0),
             Prediction("a", tuple(official_tokenize("add(2, 1)")), position=1),
             Prediction("zz", tuple(official_tokenize("add(1, 2)")), position=2),
             Prediction("b", tuple(official_tokenize("add(1, 3)")), position=3)]
    report = score_predictions(gold, preds)
    assert report.n == 3  # both 'a' records count, as in the official loop; 'zz' does not
    assert report.unknown_ids == ["zz"]
    assert report.duplicate_ids == ["a"]
    assert report.missing_ids == ["c"]
    assert report.scorers["official"].execution_correct == 2


def test_prediction_text_is_tokenized_the_official_way(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps([{"id": "x", "predicted": "subtract(5829,5735)"}]))
    [pred] = load_predictions(str(path))
    assert pred.tokens == ("subtract(", "5829,5735", ")", "EOF")


def test_gzipped_predictions_are_read(tmp_path: Path) -> None:
    path = tmp_path / "p.json.gz"
    with gzip.open(path, "wt") as handle:
        json.dump([{"id": "x", "predicted": ["add(", "1", "2", ")", "EOF"]}], handle)
    assert load_predictions(str(path))[0].tokens == ("add(", "1", "2", ")", "EOF")


def test_unusable_records_stay_in_the_denominator(tmp_path: Path) -> None:
    """A known id with a malformed program counts as wrong (the official functions return invalid/False)."""
    path = tmp_path / "p.json"
    path.write_text(json.dumps([{"id": "a", "predicted": ["add(", 1, 2, ")", "EOF"]}, {"predicted": ["x"]},
                                {"id": "b", "predicted": ["add(", "1", "2", ")", "EOF"]}]))
    gold = [GoldItem(i, tuple(official_tokenize("add(1, 2)")), [], 3.0) for i in ("a", "b")]
    report = score_predictions(gold, load_predictions(str(path)))
    assert report.n == 2
    assert report.scorers["official"].execution_correct == 1
    assert len(report.unreadable) == 2


def test_convfinqa_nbest_prediction_file_reads_the_first_of_each_list(tmp_path: Path) -> None:
    path = tmp_path / "nbest.json"
    path.write_text(json.dumps({"0": [{"id": "t1", "pred_prog": ["add(", "1", "2", ")", "EOF"]},
                                      {"id": "t1", "pred_prog": ["add(", "1", "3", ")", "EOF"]}]}))
    [pred] = load_predictions(str(path))
    assert pred.tokens == ("add(", "1", "2", ")", "EOF")


def test_op_token_with_surrounding_space_is_invalid_as_officially() -> None:
    """SPEC §1 structure check: token.strip('(') must be an op name, so ' add(' and 'add (' are not."""
    gold = [GoldItem("x", tuple(official_tokenize("add(1, 2)")), [], 3.0)]
    for head in (" add(", "add ("):
        report = score_predictions(gold, [Prediction("x", (head, "1", "2", ")", "EOF"))])
        verdict = report.items[0].verdicts["official"]
        assert (verdict.execution, verdict.program) == (False, False)
        assert verdict.execution_why == "execution_invalid"


def test_scorer_execution_verdict_matches_the_raw_official_model_on_odd_tokens() -> None:
    """The scorer's execution verdict (interpreter fast path) equals the raw model of eval_program
    on token lists built to hit the structure rules (spaces, doubled parens, missing EOF, bare tokens)."""
    import random

    from progexec.interp.official import official_verdict
    from progexec.interp.run import execute_tokens

    rng = random.Random(3)
    heads = ["add(", "divide(", "exp(", "greater(", " add(", "add (", "add((", "(add(", "table_max(",
             "table_average(", "Add(", "add( "]
    args = ["1", " 3", "#0", "#1", " #0", "const_100", "5%", "1,000", "none", "net revenue", "inf", "nan",
            "1e5", "#", "0.5", "-2", "const_m1", "1_0", "", "x", "#-1", "1e400", "const_"]
    table = [["net revenue", "1", "2"], ["x", "3", "n/a"], ["net revenue", "4", "5%"]]
    for _ in range(3000):
        tokens: list[str] = []
        for _ in range(rng.randint(1, 3)):
            tokens += [rng.choice(heads), rng.choice(args), rng.choice(args), rng.choice([")", ")", " )"])]
        if rng.random() < 0.2:
            tokens = tokens[:rng.randint(0, len(tokens))]
        if rng.random() < 0.9:
            tokens.append("EOF")
        for dialect in ("finqa", "convfinqa"):
            ours = execute_tokens(tokens, table, get_dataset(dialect)).official
            raw = official_verdict(tokens, table, get_dataset(dialect))
            assert ours.valid == raw.valid, (tokens, dialect)
            assert ours.value == raw.value or (ours.value != ours.value and raw.value != raw.value), tokens
