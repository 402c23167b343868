"""``progexec rows``: rows from official-format FinQA, ConvFinQA and MathQA files hold their passages,
table, question (with the earlier turns) and gold, and every adapter scores the dataset's own gold
answer (and gold program) 1.0 from the rows alone, with no configuration."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from progexec.cli import main
from progexec.integrations import openrlhf, trl, verl
from progexec.integrations.rows import DEFAULT_TEMPLATE, build_rows, check_template, question_units, render_table, table_unit
from progexec.core.errors import InputError
from progexec.reward import Policy

FIXTURES = Path(__file__).parent / "data" / "rows"
FINQA, CONVFINQA, MATHQA = (FIXTURES / name for name in ("finqa_test_3.json", "convfinqa_dev_2.json",
                                                          "mathqa_test_3.json"))
ROOT = Path(__file__).resolve().parent.parent
SHARED = next((path for path in (Path(os.environ.get("PROGEXEC_DATA", "/nonexistent")), ROOT.parent / "shared" / "data",
                                 ROOT.parent.parent / "shared" / "data") if path.is_dir()), ROOT.parent / "shared" / "data")
"""The downloaded datasets: $PROGEXEC_DATA, else ../shared/data beside the repository (or one folder further up)."""


def _load(path: Path) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _golds(path: Path) -> list[tuple[str, str]]:
    """(answer text, program) per question, from the file itself (the dataset's gold, not ours)."""
    out = []
    for item in _load(path):
        if "annotation" in item:
            out += [(str(answer), program) for answer, program in zip(item["annotation"]["exe_ans_list"],
                                                                      item["annotation"]["turn_program"])]
        elif "qa" in item:
            out.append((str(item["qa"]["exe_ans"]), item["qa"]["program"]))
        else:
            out.append((item["correct"], item["linear_formula"]))
    return out


def _scores(rows: list[dict[str, Any]], target: str, completions: list[str]) -> list[float | None]:
    if target == "verl":
        return [verl.compute_score(row["data_source"], completion, row["reward_model"]["ground_truth"],
                                   row["extra_info"])["score"] for row, completion in zip(rows, completions)]
    if target == "trl":
        columns = {key: [row[key] for row in rows] for key in rows[0] if key not in ("prompt", "id")}
        return list(trl.ProgexecReward()(prompts=[row["prompt"] for row in rows], completions=completions,
                                         **columns))
    prompts = [row["input"] for row in rows]
    out = openrlhf.reward_func([p + c for p, c in zip(prompts, completions)], prompts, [row["label"] for row in rows])
    return list(out["rewards"])


@pytest.mark.parametrize("target", ["verl", "trl", "openrlhf"])
@pytest.mark.parametrize("path", [FINQA, CONVFINQA, MATHQA], ids=lambda path: path.name)
def test_rows_score_the_datasets_gold_answer_and_program_back(path: Path, target: str) -> None:
    golds = _golds(path)
    rows = list(build_rows(str(path), target))
    assert len(rows) == len(golds)
    answers = [f"Reasoning.\nAnswer: {answer}" for answer, _ in golds]
    assert _scores(rows, target, answers) == [1.0] * len(rows)
    wrong = [f"Answer: {'zz' if path == MATHQA else '123456789'}" for _ in golds]
    assert _scores(rows, target, wrong) == [0.0] * len(rows)
    if path != MATHQA:  # MathQA's annotated programs do not always compute the correct option (202 of 604)
        official = list(build_rows(str(path), target, Policy.OFFICIAL))
        assert _scores(official, target, [f"Program: {program}" for _, program in golds]) == [1.0] * len(rows)


def _prompt(row: dict[str, Any]) -> str:
    text: str = row["prompt"][0]["content"]
    return text


def test_a_finqa_row_holds_the_passages_the_table_and_the_question() -> None:
    item = _load(FINQA)[0]
    row = next(build_rows(str(FINQA), "verl"))
    prompt = _prompt(row)
    for sentence in item["pre_text"] + item["post_text"]:
        if sentence.strip():
            assert sentence in prompt
    assert render_table(item["table"]) in prompt
    assert "| " + " | ".join(item["table"][1]) + " |" in prompt
    assert f"Question: {item['qa']['question']}" in prompt
    assert prompt.index(item["pre_text"][0]) < prompt.index("Table:") < prompt.index(item["post_text"][0]) \
        < prompt.index("Question:")
    assert row["extra_info"]["id"] == item["id"] and row["extra_info"]["program"] == item["qa"]["program"]


def test_a_convfinqa_turn_holds_every_earlier_turn_and_its_gold() -> None:
    item = _load(CONVFINQA)[0]
    questions, answers = item["annotation"]["dialogue_break"], item["annotation"]["exe_ans_list"]
    rows = [row for row in build_rows(str(CONVFINQA), "trl") if row["id"].startswith(item["id"] + "_")]
    assert [row["id"] for row in rows] == [f"{item['id']}_{turn}" for turn in range(len(questions))]
    last = _prompt(rows[-1])
    for question, answer in zip(questions[:-1], answers[:-1]):
        assert f"Earlier question: {question}\nIts result: {answer}" in last
    assert f"Question: {questions[-1]}" in last and item["pre_text"][0] in last
    assert "Earlier question" not in _prompt(rows[0])


def test_a_mathqa_row_holds_the_problem_and_the_options() -> None:
    item = _load(MATHQA)[0]
    row = json.loads(json.dumps(next(build_rows(str(MATHQA), "openrlhf"))))
    assert f"Problem: {item['Problem']}\nOptions: {item['options']}" in row["input"]
    assert json.loads(row["label"]) == {"answer": item["correct"], "program": item["linear_formula"],
                                        "dialect": "mathqa", "options": item["options"], "problem": item["Problem"],
                                        "policy": "numeric"}


def test_ones_own_template(tmp_path: Path) -> None:
    template = tmp_path / "t.txt"
    template.write_text("Q: {question}\n{table}\nThink in <think></think>, answer in <answer></answer>.")
    out = tmp_path / "rows.jsonl"
    assert main(["rows", str(FINQA), "--for", "trl", "--template", str(template), "--out", str(out)]) == 0
    first = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    item = _load(FINQA)[0]
    assert first["prompt"][0]["content"] == (f"Q: Question: {item['qa']['question']}\n{render_table(item['table'])}"
                                             "\nThink in <think></think>, answer in <answer></answer>.")
    assert trl.ProgexecReward()(completions=[f"<think>x</think><answer>{item['qa']['exe_ans']}</answer>"],
                                answer=[first["answer"]], table=[first["table"]]) == [1.0]
    template.write_text("{question} {passages}")
    assert main(["rows", str(FINQA), "--for", "trl", "--template", str(template), "--out", str(out)]) == 2
    with pytest.raises(InputError, match="unknown field"):
        check_template("{nope}")
    assert check_template(DEFAULT_TEMPLATE) == DEFAULT_TEMPLATE


def test_the_command_writes_the_same_bytes_twice_and_reads_stdin(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert main(["rows", str(CONVFINQA), "--for", "verl", "--out", str(first)]) == 0
    assert main(["rows", str(CONVFINQA), "--for", "verl", "--out", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()
    piped = subprocess.run([sys.executable, "-m", "progexec", "rows", "-", "--for", "verl", "--out",
                            str(tmp_path / "c.jsonl")], input=CONVFINQA.read_bytes(), capture_output=True,
                           env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}, check=False)
    assert piped.returncode == 0, piped.stderr
    assert (tmp_path / "c.jsonl").read_bytes() == first.read_bytes()
    assert b"progexec rows: 9 verl rows\n" in piped.stderr
    assert f"progexec rows: wrote {tmp_path / 'c.jsonl'}\n".encode() in piped.stderr


def test_an_embedded_corpus_gives_rows_too(tmp_path: Path) -> None:
    rows = list(build_rows("mathqa:challenge_test", "verl"))
    assert len(rows) == 604 and rows[0]["extra_info"]["id"] == "mathqa-challenge_test-0"
    assert rows[0]["reward_model"]["ground_truth"] in list("abcde")


@pytest.mark.parametrize("argv, message", [
    (["--for", "verl", "--out", "OUT.csv"], "must end in .parquet or .jsonl"),
    (["--for", "nope", "--out", "OUT.jsonl"], "invalid choice"),
])
def test_bad_arguments_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
                              message: str) -> None:
    argv = [arg.replace("OUT", str(tmp_path / "out")) for arg in argv]
    assert main(["rows", str(FINQA), *argv]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("content, message", [
    ('[{"id": "a", "predicted": ["EOF"]}]', "item 1 is not an official FinQA"),
    ('[{"id": "a", "qa": {"question": "q?", "program": "add(1, 2)", "exe_ans": "banana"}}]', "no usable gold"),
    ("", "no records"),
])
def test_an_input_that_gives_no_rows_is_an_error_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           content: str, message: str) -> None:
    source = tmp_path / "in.json"
    source.write_text(content)
    assert main(["rows", str(source), "--for", "trl", "--out", str(tmp_path / "o.jsonl")]) == 2
    err = capsys.readouterr().err
    assert message in err and str(source) in err


def test_table_units_are_opt_in() -> None:
    table = [["", "amount ( in millions )"], ["2014 net revenue", "$ 5735"]]
    assert table_unit(table) == "million"
    assert table_unit([["a", "in millions"], ["b", "in thousands"]]) is None
    assert table_unit([["a", "1"]], "dollars in thousands , except per share") == "thousand"
    rows = list(build_rows(str(FINQA), "trl", table_units=True))
    plain = list(build_rows(str(FINQA), "trl"))
    assert all(row["unit"] is None for row in plain)
    for row, item in zip(rows, _load(FINQA)):
        stated = table_unit(item["table"], *item["pre_text"], *item["post_text"])
        asks_percent = question_units(item["qa"]["question"]) == ["percent"]  # the question's unit wins
        assert row["unit"] == (None if asks_percent else stated)
        assert row["question_units"] == question_units(item["qa"]["question"])
    assert [row["question_units"] for row in rows] == [["percent"], ["percent"], []]
    assert [row["unit"] for row in rows] == [None, None, "thousand"]  # GPN: "( in thousands )" in a passage


SHARED_FILES = [SHARED / "finqa" / "sources" / "original_format" / "dolphin2333_test_100.json",
                SHARED / "finqa" / "sources" / "original_format" / "sukritganesh_dev_200.json",
                SHARED / "convfinqa" / "dev.json", SHARED / "mathqa" / "challenge_test.json"]


@pytest.mark.parametrize("path", SHARED_FILES, ids=lambda path: path.name)
def test_rows_from_the_official_files_score_their_gold_back(path: Path) -> None:
    if not path.exists():
        pytest.skip(f"{path} is absent")
    golds = _golds(path)
    rows = list(build_rows(str(path), "verl"))
    assert len(rows) == len(golds)
    assert _scores(rows, "verl", [f"Answer: {answer}" for answer, _ in golds]) == [1.0] * len(rows)
    if "mathqa" not in path.parts:  # MathQA's annotated programs do not always compute the correct option
        sample = list(build_rows(str(path), "openrlhf", Policy.OFFICIAL))[::10]
        programs = [f"Program: {program}" for _, program in golds][::10]
        assert _scores(sample, "openrlhf", programs) == [1.0] * len(sample)


@pytest.mark.parametrize("target", ["verl", "trl", "openrlhf"])
def test_tatqa_rows_hold_paragraphs_and_table_and_score_their_gold_back(target: str) -> None:
    """TAT-QA rows (from the embedded official dev file) carry the context's paragraphs and table and the gold
    record {dialect: tatqa, answer, scale, answer_type}; the gold answer written with its scale scores 1.0
    through every adapter, the bare number of a scaled answer 0.0 (the official rule needs the scale)."""
    from progexec.datasets.tatqa.data import read_questions

    questions = [q for q in read_questions("tatqa:dev") if q.answer_type == "arithmetic"][:60]
    wanted = {q.uid for q in questions}
    rows = [row for row in build_rows("tatqa:dev", target) if row.get("id", row.get("extra_info", {}).get("id"))
            in wanted]
    assert len(rows) == len(questions)
    first = rows[0]["input"] if target == "openrlhf" else _prompt(rows[0])
    assert questions[0].paragraphs[0][:40] in first and "Table:" in first
    words = {"": "", "percent": "%", "thousand": " thousand", "million": " million", "billion": " billion"}
    right = [f"Answer: {q.answer}{words[q.scale]}" for q in questions]
    assert _scores(rows, target, right) == [1.0] * len(rows)
    scaled = [index for index, q in enumerate(questions) if q.scale and q.answer != 0]  # 0 is 0 at any scale
    bare = _scores([rows[i] for i in scaled], target, [f"Answer: {questions[i].answer}" for i in scaled])
    assert scaled and bare == [0.0] * len(scaled)


def _row(rows: list[dict[str, Any]], row_id: str) -> dict[str, Any]:
    return next(row for row in rows if row["id"] == row_id)


@pytest.mark.skipif(not (SHARED / "finqa" / "test.json").is_file(), reason="the shared FinQA files are absent")
def test_the_unit_the_question_asks_for_wins_over_the_tables() -> None:
    """JPM/2010/page_273.pdf-2: the table is in millions, the question asks "in billions", the gold is 68.9
    (docs/reward-integrations.md, "Units")."""
    rows = list(build_rows(str(SHARED / "finqa" / "test.json"), "openrlhf", table_units=True))
    row = _row(rows, "JPM/2010/page_273.pdf-2")
    gold = json.loads(row["label"])
    assert gold["answer"] == 68.9 and gold["unit"] == "billion" and row["question_units"] == ["billion"]
    assert "( in millions )" in row["input"] and "in billions" in row["input"]
    rewards = openrlhf.reward_func(["Answer: $68.9 billion", "Answer: $68.9 million"], ["", ""], [row["label"]] * 2)
    assert rewards["rewards"] == [1.0, 0.0]
    plain = _row(list(build_rows(str(SHARED / "finqa" / "test.json"), "openrlhf")), "JPM/2010/page_273.pdf-2")
    assert "unit" not in json.loads(plain["label"]) and "question_units" not in plain  # opt-in
    # a question naming two units (CME: a percentage "in millions"): no unit, and the row says which units
    two = _row(rows, "CME/2010/page_69.pdf-2")
    assert "unit" not in json.loads(two["label"]) and two["question_units"] == ["million", "percent"]
    # a question asking a percentage over a table in millions: no scale unit
    verl_rows = list(build_rows(str(SHARED / "finqa" / "test.json"), "verl", table_units=True))
    percent = next(row for row in verl_rows if row["extra_info"]["question_units"] == ["percent"]
                   and "in millions" in row["prompt"][0]["content"])
    assert percent["extra_info"]["unit"] is None
    # a question without a unit keeps the table's
    table = next(row for row in verl_rows if row["extra_info"]["question_units"] == []
                 and "( in millions )" in row["prompt"][0]["content"])
    assert table["extra_info"]["unit"] == "million"


@pytest.mark.parametrize(("question", "units"), [
    ("what was the total fair value in billions of assets?", ["billion"]),
    ("what is the applied 2019s net sales in 2018 , ( in billions ) ?", ["billion"]),
    ("what is the amount in $ millions?", ["million"]),
    ("what is that in thousands?", ["thousand"]),
    ("what is the percentage change in revenue?", ["percent"]),
    ("what portion of sales is this, in %?", ["percent"]),
    ("what are the expected proceeds of the sale of the 19 percent interest?", []),
    ("what was the change in net sales in millions in 2007 in billions", ["billion", "million"]),
    ("what was the net change in cash?", []),
])
def test_the_units_a_question_asks_for(question: str, units: list[str]) -> None:
    assert question_units(question) == units


@pytest.mark.skipif(not (SHARED / "finqa" / "test.json").is_file(), reason="the shared FinQA files are absent")
def test_the_documented_count_of_rows_the_question_decides() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("count_question_units", ROOT / "scripts" / "count_question_units.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    KINDS, changed = script.KINDS, script.changed

    total: dict[str, int] = {kind: 0 for kind in KINDS}
    for name in ("finqa/test.json", "finqa/dev.json", "convfinqa/dev.json"):
        for kind, count in changed(str(SHARED / name)).items():
            total[kind] += count
    assert [total[kind] for kind in KINDS] == [48, 201, 451, 11]  # docs/reward-integrations.md, "Units"
