"""A sample that cannot be judged is refused alike by ``progexec serve``'s ``/get_reward`` (400 naming
the field and position) and by every adapter (AdapterInputError naming the same), never a silent 0.0
and never a bare TypeError (docs/serve.md, docs/reward-integrations.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from progexec.integrations import openrlhf, trl, verl
from progexec.integrations._gold import AdapterInputError
from progexec.reward.server import RewardApp
from tests.serve_harness import ROOT, asgi_call

GOOD = {"query": ["Answer: 3.5"], "prompts": [""], "labels": ['{"answer": 3.5}']}
"""One sample the reward judges (1.0); each bad case below changes one field of a copy of it."""

MISSING = object()

BAD = [
    # (what changes, the field[position] the error must name)
    ({"labels": MISSING}, "labels"),
    ({"prompts": MISSING}, "prompts"),
    ({"query": MISSING}, "query"),
    ({"labels": None}, "labels"),
    ({"prompts": None}, "prompts"),
    ({"query": None}, "query"),
    ({"labels": []}, "labels"),
    ({"query": [], "prompts": [], "labels": []}, "query"),
    ({"labels": 5}, "labels"),
    ({"labels": '{"answer": 3.5}'}, "labels"),
    ({"query": "Answer: 3.5"}, "query"),
    ({"labels": [""]}, "labels[0]"),
    ({"labels": ["   "]}, "labels[0]"),
    ({"labels": [None]}, "labels[0]"),
    ({"labels": ["{}"]}, "labels[0]"),
    ({"labels": [{}]}, "labels[0]"),
    ({"labels": [5]}, "labels[0]"),
    ({"labels": ['{"answer": "many"}']}, "labels[0]"),
    ({"labels": ['{"table": 3}']}, "labels[0]"),
    ({"query": [5]}, "query[0]"),
    ({"query": [None]}, "query[0]"),
    ({"query": [["Answer: 3.5"]]}, "query[0]"),
    ({"query": ["Answer: 3.5", "Answer: \ud800"], "prompts": ["", ""], "labels": ["3.5", "3.5"]}, "query[1]"),
    ({"labels": ['{"answer": 3.5, "policy": "oficial"}']}, "labels[0]"),
    ({"prompts": [None]}, "prompts[0]"),
    ({"prompts": [7]}, "prompts[0]"),
    ({"labels": ['{"answer": 3.5}', '{"answer": 3.5}']}, "labels"),
    ({"prompts": ["", ""]}, "prompts"),
    ({"query": ["Answer: 3.5", "Answer: 3.5"]}, "prompts"),
]


def _case(change: dict[str, Any]) -> dict[str, Any]:
    body = {**GOOD, **change}
    return {key: value for key, value in body.items() if value is not MISSING}


@pytest.mark.parametrize(("change", "field"), BAD, ids=[f"{field}-{index}" for index, (_, field) in enumerate(BAD)])
def test_serve_and_the_openrlhf_file_refuse_alike(change: dict[str, Any], field: str) -> None:
    body = _case(change)
    status, _, answer = asgi_call(RewardApp(), "POST", "/get_reward", json.dumps(body).encode())
    assert status == 400, answer
    assert answer["error"].startswith(f"{field}: "), answer
    with pytest.raises(AdapterInputError) as raised:
        openrlhf.reward_func(body.get("query"), body.get("prompts"), body.get("labels"))
    assert str(raised.value) == f"reward_func: {answer['error']}"


@pytest.mark.parametrize("policy", ["oficial", 5, ["numeric"]])
def test_an_unknown_policy_is_refused_alike(policy: object) -> None:
    status, _, answer = asgi_call(RewardApp(), "POST", "/get_reward", json.dumps({**GOOD, "policy": policy}).encode())
    assert status == 400 and answer["error"].startswith("policy: "), answer
    with pytest.raises(AdapterInputError) as raised:
        openrlhf.reward_func(GOOD["query"], GOOD["prompts"], GOOD["labels"], policy=policy)
    assert str(raised.value) == f"reward_func: {answer['error']}"


@pytest.mark.parametrize("label", ["null", "[]", "many", '{"answer": null}', '{"program": "add(1, "}', "{not json"])
def test_labels_that_are_no_gold_are_refused_alike(label: str) -> None:
    body = {**GOOD, "labels": [label]}
    status, _, answer = asgi_call(RewardApp(), "POST", "/get_reward", json.dumps(body).encode())
    assert status == 400 and answer["error"].startswith("labels[0]: "), answer
    with pytest.raises(AdapterInputError) as raised:
        openrlhf.reward_func(body["query"], body["prompts"], body["labels"])
    assert str(raised.value) == f"reward_func: {answer['error']}"


def test_a_bad_sample_among_good_ones_is_named_by_its_position() -> None:
    body = {"query": ["Answer: 3.5"] * 4, "prompts": [""] * 4,
            "labels": ['{"answer": 3.5}', "3.5", '{"answer": 3.5}', "{}"]}
    status, _, answer = asgi_call(RewardApp(), "POST", "/get_reward", json.dumps(body).encode())
    assert status == 400 and answer["error"].startswith("labels[3]: the gold record is unusable")
    with pytest.raises(AdapterInputError, match=r"^reward_func: labels\[3\]: "):
        openrlhf.reward_func(**{"queries": body["query"], "prompts": body["prompts"], "labels": body["labels"]})


def test_the_good_sample_is_judged_by_both() -> None:
    status, _, answer = asgi_call(RewardApp(), "POST", "/get_reward", json.dumps(GOOD).encode())
    assert status == 200 and answer["rewards"] == [1.0]
    assert openrlhf.reward_func(GOOD["query"], GOOD["prompts"], GOOD["labels"])["rewards"] == [1.0]


VERL_BAD = [
    # (data_sources, solution_strs, ground_truths, extra_infos, the field the error names)
    (None, ["Answer: 3.5"], ["3.5"], None, "data_sources"),
    (["progexec/finqa"], None, ["3.5"], None, "solution_strs"),
    (["progexec/finqa"], ["Answer: 3.5"], None, None, "ground_truths"),
    (["progexec/finqa"], ["Answer: 3.5"], 5, None, "ground_truths"),
    ([], [], [], None, "solution_strs"),
    (["progexec/finqa"], ["Answer: 3.5"], [""], None, "ground_truths[0]"),
    (["progexec/finqa"], ["Answer: 3.5"], [None], None, "ground_truths[0]"),
    (["progexec/finqa"], ["Answer: 3.5"], ["{}"], None, "ground_truths[0]"),
    (["progexec/finqa"], [5], ["3.5"], None, "solution_strs[0]"),
    (["progexec/finqa"], [None], ["3.5"], None, "solution_strs[0]"),
    (["progexec/finqa"] * 2, ["Answer: 3.5"], ["3.5"], None, "data_sources"),
    (["progexec/finqa"], ["Answer: 3.5"], ["3.5"], [None, None], "extra_infos"),
]


@pytest.mark.parametrize(("sources", "solutions", "truths", "extras", "field"), VERL_BAD)
def test_verl_refuses_naming_the_field(sources: Any, solutions: Any, truths: Any, extras: Any, field: str) -> None:
    with pytest.raises(AdapterInputError) as raised:
        verl.compute_score_batch(sources, solutions, truths, extras)
    assert str(raised.value).startswith(f"compute_score_batch: {field}: "), str(raised.value)


@pytest.mark.parametrize(("solution", "truth", "field"), [
    ("Answer: 3.5", "", "ground_truth"), ("Answer: 3.5", None, "ground_truth"), ("Answer: 3.5", "{}", "ground_truth"),
    (None, "3.5", "solution_str"), (5, "3.5", "solution_str"),
])
def test_verl_single_refuses_naming_the_field(solution: Any, truth: Any, field: str) -> None:
    for call in (verl.compute_score, verl.compute_score_float):
        with pytest.raises(AdapterInputError, match=rf"^compute_score: {field}: "):
            call("progexec/finqa", solution, truth)


@pytest.mark.parametrize(("call", "field"), [
    ({"completions": None, "answer": ["3.5"]}, "completions"),
    ({"answer": ["3.5"]}, "completions"),
    ({"completions": [], "answer": []}, "completions"),
    ({"completions": "Answer: 3.5", "answer": ["3.5"]}, "completions"),
    ({"completions": ["Answer: 3.5"], "prompts": ["", ""], "answer": ["3.5"]}, "prompts"),
    ({"completions": ["Answer: 3.5"], "answer": ["3.5", "3.5"]}, "answer: column 'answer' must hold one entry per completion (1), got 2"),
    ({"completions": ["Answer: 3.5"], "answer": [""]}, "answer[0]"),
    ({"completions": ["Answer: 3.5"], "answer": ["{}"]}, "answer[0]"),
    ({"completions": [5], "answer": ["3.5"]}, "completions[0]"),
    ({"completions": ["Answer: 3.5"], "answer": ["3.5"], "policy": ["oficial"]}, "policy[0]"),
])
def test_trl_refuses_naming_the_field(call: dict[str, Any], field: str) -> None:
    with pytest.raises(AdapterInputError) as raised:
        trl.ProgexecReward()(**call)
    assert str(raised.value).startswith(f"progexec_reward: {field}"), str(raised.value)


def test_the_adapters_judge_the_good_sample() -> None:
    assert verl.compute_score_batch(["progexec/finqa"], ["Answer: 3.5"], ["3.5"])[0]["score"] == 1.0
    assert trl.ProgexecReward()(prompts=[""], completions=["Answer: 3.5"], answer=["3.5"]) == [1.0]


def test_the_serve_docs_table_shows_the_messages_given() -> None:
    """Each error quoted in docs/serve.md's refusal table is the message of one of the cases above."""
    given = []
    for change, _ in BAD:
        status, _, answer = asgi_call(RewardApp(), "POST", "/get_reward", json.dumps(_case(change)).encode())
        given.append(answer["error"])
    given.append(asgi_call(RewardApp(), "POST", "/get_reward",
                           json.dumps({**GOOD, "policy": "oficial"}).encode())[2]["error"])
    text = (ROOT / "docs" / "serve.md").read_text().split("### What `/get_reward` refuses")[1].split("\n\n")[2]
    quoted = [row.rsplit("| `", 1)[1].rstrip("` |").replace("\\\"", '"') for row in text.splitlines()[2:]]
    assert len(quoted) == 9
    for message in quoted:
        assert message in given, message
