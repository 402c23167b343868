"""Every embedded gold program executes to the dataset's own exe_ans, exactly."""

from __future__ import annotations

from collections import Counter

import pytest

from progexec.datasets import get_dataset
from progexec.corpus import convfinqa_records, finqa_records
from progexec.interp.run import execute_text
from progexec.core.status import Status


def test_corpus_is_present_and_complete() -> None:
    splits = Counter(record["split"] for record in finqa_records())
    assert splits == {"test": 1147, "dev": 883, "train": 6118}
    dev_turns = sum(len(r["turn_program"]) for r in convfinqa_records() if r["split"] == "dev")
    assert dev_turns == 1490


@pytest.mark.parametrize("split", ["test", "dev", "train"])
def test_every_finqa_gold_program_matches_exe_ans(split: str) -> None:
    failures = []
    for record in finqa_records():
        if record["split"] != split:
            continue
        execution = execute_text(record["program"], record["table"], get_dataset("finqa"))
        gold = record["exe_ans"]
        if execution.outcome.answer() != gold or not execution.official.equals_gold(gold):
            failures.append((record["id"], record["program"], execution.outcome, gold))
    assert failures == []


def test_every_convfinqa_turn_matches_exe_ans() -> None:
    failures = []
    turns = 0
    for record in convfinqa_records():
        for program, gold in zip(record["turn_program"], record["exe_ans_list"]):
            turns += 1
            execution = execute_text(program, record["table"], get_dataset("convfinqa"))
            if execution.outcome.status is not Status.OK or execution.outcome.answer() != gold:
                failures.append((record["id"], program, execution.outcome, gold))
    assert turns == 2028
    assert failures == []
