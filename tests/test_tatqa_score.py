"""The TAT-QA scorer over whole files against the figures tatqa_eval.py prints for the same files."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
import pytest

from progexec.core.errors import InputError
from progexec.datasets.tatqa import read_questions, score, score_questions
from progexec.datasets.tatqa.metric import Reason

SAMPLE = Path(__file__).parent / "data" / "predictions" / "tatqa_sample_prediction.json.gz"

# tatqa_eval.py --gold_path dataset_raw/tatqa_dataset_dev.json --pred_path sample_prediction.json prints
# EM 45.92, F1 58.88, scale 90.95 and these em / f1 detail cells (pandas, 6 digits)
SAMPLE_EM_TABLE = {("arithmetic", "table"): 0.531187, ("arithmetic", "table-text"): 0.546341,
                   ("count", "table"): 0.5, ("count", "table-text"): 0.45, ("multi-span", "table"): 0.684783,
                   ("multi-span", "table-text"): 0.712871, ("multi-span", "text"): 0.083333,
                   ("span", "table"): 0.584795, ("span", "table-text"): 0.674033, ("span", "text"): 0.045845}
SAMPLE_F1_TABLE = {("multi-span", "table"): 0.833696, ("multi-span", "table-text"): 0.814356,
                   ("multi-span", "text"): 0.255, ("span", "table-text"): 0.760110, ("span", "text"): 0.54}
SAMPLE_COUNTS = {("arithmetic", "table"): 497, ("arithmetic", "table-text"): 205, ("arithmetic", "text"): 16,
                 ("span", "text"): 349}


def test_the_sample_prediction_file_on_dev() -> None:
    result = score("tatqa:dev", SAMPLE)
    printed = result.summary()["printed"]
    assert printed == {"exact_match": "45.92", "f1": "58.88", "scale_score": "90.95"}
    assert result.count == 1668 and result.aborted is None
    for key, value in SAMPLE_EM_TABLE.items():
        assert round(result.cells[key].em, 6) == value
    for key, value in SAMPLE_F1_TABLE.items():
        assert round(result.cells[key].f1, 6) == value
    for key, count in SAMPLE_COUNTS.items():
        assert result.cells[key].count == count


@pytest.mark.parametrize(("corpus", "printed", "zeros"), [("tatqa:dev", "99.70", 5), ("tatqa:test", "99.28", 12)])
def test_the_gold_answers_as_predictions(corpus: str, printed: str, zeros: int) -> None:
    # tatqa_eval.py prints 99.70 (dev) and 99.28 (test) for {uid: [answer, scale]} of the gold itself:
    # a gold answer of 0 is a falsy prediction, counted as missing
    questions = [dict(question.raw) for question in read_questions(corpus)]
    result = score_questions(questions, {q["uid"]: [q["answer"], q["scale"]] for q in questions})
    assert f"{result.em * 100:.2f}" == f"{result.f1 * 100:.2f}" == f"{result.scale * 100:.2f}" == printed
    missing = [q for q in result.questions if q.reason is Reason.MISSING]
    assert len(missing) == zeros and all(q.prediction == 0 for q in missing)


def _gold(tmp_path: Path) -> Path:
    context = {"table": {"uid": "t", "table": [["", "2019"], ["Revenue", "1,496.5"]]}, "paragraphs": [],
               "questions": [
                   {"uid": "a", "answer": 1496.5, "answer_type": "arithmetic", "answer_from": "table",
                    "scale": "million", "derivation": "1,496.5"},
                   {"uid": "b", "answer": ["Revenue"], "answer_type": "span", "answer_from": "table", "scale": "",
                    "derivation": ""}]}
    path = tmp_path / "gold.json.gz"
    path.write_bytes(gzip.compress(json.dumps([context]).encode()))
    return path


def test_gzip_gold_and_missing_predictions(tmp_path: Path) -> None:
    predictions = tmp_path / "pred.json"
    predictions.write_text(json.dumps({"a": ["1496.5", "million"]}))
    result = score(_gold(tmp_path), predictions)
    assert (result.em, result.f1, result.scale) == (0.5, 0.5, 0.5)
    assert [q.reason for q in result.questions] == [Reason.MATCH, Reason.MISSING]


def test_prediction_values_are_read_with_the_official_python(tmp_path: Path) -> None:
    questions = [dict(q.raw) for q in read_questions(_gold(tmp_path))]
    quirky = score_questions(questions, {"a": "12", "b": "Re"})  # two characters unpack to answer, scale
    assert quirky.aborted is None
    assert [(q.prediction, q.pred_scale, q.gold_string) for q in quirky.questions] == [
        ("1", "2", "1496500000.0"), ("R", "e", "revenue")]
    assert score_questions(questions, []).em == 0.0  # a list holds no uid: every question is missing
    stopped = score_questions(questions, {"b": ["Revenue", "", "x"]})  # three values do not unpack
    assert stopped.aborted is not None and "b" in stopped.aborted
    assert [q.reason for q in stopped.questions] == [Reason.MISSING, Reason.BAD_INPUT]


def test_a_prediction_file_that_is_not_json_is_an_input_error(tmp_path: Path) -> None:
    bad = tmp_path / "pred.json"
    bad.write_text("{not json")
    with pytest.raises(InputError, match="not JSON"):
        score(_gold(tmp_path), bad)


def test_what_progexec_reads_beyond_the_official_json_load(tmp_path: Path) -> None:
    gold = _gold(tmp_path)
    with_bom = tmp_path / "bom.json"
    with_bom.write_bytes(b"\xef\xbb\xbf" + json.dumps({"a": ["1496.5", "million"]}).encode())
    with pytest.raises(json.JSONDecodeError, match="BOM"):
        json.loads(with_bom.read_text(encoding="utf-8"))  # what the official json.load does
    assert score(gold, with_bom).em == 0.5
    trailing = tmp_path / "gold.json"
    trailing.write_bytes(gzip.decompress(gold.read_bytes()) + b"\n garbage")
    with pytest.raises(InputError, match="text after the end of the list"):  # json.load: "Extra data"
        score(trailing, with_bom)
    huge = tmp_path / "huge.json"
    huge.write_text('{"a": [' + "9" * 5000 + ', ""]}')
    with pytest.raises(InputError, match="cannot be read"):
        score(gold, huge)
