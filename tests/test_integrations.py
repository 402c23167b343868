"""The verl, TRL and OpenRLHF adapters, called the way each framework calls them (no framework needed).

The gold is the datasets': a FinQA gold program run with the official semantics gives its
``exe_ans`` (checked for all 8,148 programs), so the gold program as a completion must score 1.0
through every adapter, and the same completion must score the same everywhere.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from progexec.integrations import openrlhf, trl, verl
from progexec.integrations._gold import GOLD_KEYS, AdapterInputError
from progexec.integrations.verl_rows import EXTRA_KEYS, iter_rows, load_questions, main, write_jsonl
from progexec.reward import RECORD_KEYS, Policy
from progexec.reward.batch import score_lines
from progexec.reward.remote import openrlhf_rewards

FINQA_TEST = list(iter_rows("finqa", ["test"], Policy.OFFICIAL))
CONVFINQA = list(iter_rows("convfinqa", ["dev"], Policy.NUMERIC))[::7]
MATHQA = list(iter_rows("mathqa", ["test"], Policy.NUMERIC))[::13]


def _gold_json(row: dict[str, Any]) -> str:
    extra = {key: value for key, value in row["extra_info"].items() if value is not None}
    return json.dumps({**extra, "answer": row["reward_model"]["ground_truth"]})


def _every_adapter(rows: list[dict[str, Any]], completions: list[str]) -> dict[str, list[float]]:
    """The score of each completion through every adapter entry point."""
    sources = [row["data_source"] for row in rows]
    truths = [row["reward_model"]["ground_truth"] for row in rows]
    extras = [row["extra_info"] for row in rows]
    columns = {key: [extra[key] for extra in extras] for key in ("program", "table", "dialect", "options",
                                                                 "problem", "policy")}
    return {
        "verl": [verl.compute_score(data_source=s, solution_str=c, ground_truth=t, extra_info=e)["score"]
                 for s, c, t, e in zip(sources, completions, truths, extras)],
        "verl_batch": [d["score"] for d in verl.compute_score_batch(
            data_sources=sources, solution_strs=completions, ground_truths=truths, extra_infos=extras)],
        "verl_prime": [verl.compute_score_float(s, c, t, e) for s, c, t, e in zip(sources, completions, truths, extras)],
        "trl": [float(score) if score is not None else -1.0 for score in trl.ProgexecReward()(
            prompts=[row["prompt"] for row in rows], completions=[[{"role": "assistant", "content": c}]
                                                                 for c in completions],
            completion_ids=None, answer=truths, **columns)],
        "openrlhf": openrlhf.reward_func([f"PROMPT {c}<|im_end|>" for c in completions], ["PROMPT"] * len(rows),
                                         [_gold_json(row) for row in rows])["rewards"],
    }


def test_the_gold_program_scores_one_through_every_adapter_on_all_of_finqa_test() -> None:
    completions = [f"Let me compute.\nProgram: {row['extra_info']['program']}" for row in FINQA_TEST]
    for adapter, scores in _every_adapter(FINQA_TEST, completions).items():
        assert scores == [1.0] * len(FINQA_TEST), adapter


def test_the_gold_answer_scores_one_and_a_scale_guess_zero_on_every_dataset() -> None:
    rows = CONVFINQA + MATHQA + FINQA_TEST[::11]
    numeric = [{**row, "extra_info": {**row["extra_info"], "policy": "numeric"}} for row in rows]
    right = [f"Answer: {row['reward_model']['ground_truth']}" for row in numeric]
    for adapter, scores in _every_adapter(numeric, right).items():
        assert scores == [1.0] * len(rows), adapter
    numbers = [row for row in numeric if row["extra_info"]["dialect"] != "mathqa"
               and row["reward_model"]["ground_truth"] not in ("yes", "no")
               and float(row["reward_model"]["ground_truth"]) != 0]
    scaled = [f"Answer: {float(row['reward_model']['ground_truth']) * 100!r}" for row in numbers]
    for adapter, scores in _every_adapter(numbers, scaled).items():
        assert scores == [0.0] * len(numbers), adapter


def test_verl_dicts_have_the_same_keys_and_no_none_across_a_batch() -> None:
    rows = FINQA_TEST[:4]
    completions = ["Program: " + rows[0]["extra_info"]["program"], "no answer here", "Answer: 1, 2, 3", "<answer></answer>"]
    out = verl.compute_score_batch([r["data_source"] for r in rows], completions,
                                   [r["reward_model"]["ground_truth"] for r in rows], [r["extra_info"] for r in rows])
    assert [tuple(d) for d in out] == [RECORD_KEYS] * 4
    assert all(value is not None for d in out for value in d.values())
    assert [d["score"] for d in out] == [1.0, 0.0, 0.0, 0.0]
    assert all(isinstance(d["extracted"], str) and isinstance(d["value"], str) for d in out)


def test_verl_takes_the_policy_reward_kwarg_over_the_row() -> None:
    row = FINQA_TEST[0]  # subtract(5829, 5735) = 94.0
    official = verl.compute_score(row["data_source"], "Answer: 94", "94.0", row["extra_info"])
    numeric = verl.compute_score(row["data_source"], "Answer: 94", "94.0", row["extra_info"], policy="numeric")
    assert (official["score"], official["status"]) == (0.0, "no_program")
    assert (numeric["score"], numeric["policy"]) == (1.0, "numeric")


def test_verl_batch_refuses_columns_of_different_lengths() -> None:
    with pytest.raises(AdapterInputError):
        verl.compute_score_batch(["a"], ["x", "y"], ["1"], [None])


def test_trl_reward_pickles_and_gives_none_only_where_the_row_has_no_gold() -> None:
    reward = pickle.loads(pickle.dumps(trl.ProgexecReward(policy=Policy.NUMERIC, name="finqa_reward")))
    logged: dict[str, list[Any]] = {}
    scores = reward(prompts=["p"] * 3, completions=["Answer: 94", "Answer: 94", "Answer: 94"],
                    completion_ids=[[1]] * 3, answer=["94.0", None, "94.0"], policy=["official", None, None],
                    trainer_state=object(), log_extra=lambda name, values: logged.setdefault(name, values))
    assert scores == [1.0, None, 1.0]  # constructor policy beats the column; no answer, no program: no reward
    assert logged["finqa_reward_status"] == ["ok", "no_gold", "ok"]
    assert reward.__name__ == "finqa_reward"


def test_trl_refuses_an_unknown_policy_at_construction() -> None:
    with pytest.raises(AdapterInputError, match="unknown policy 'oficial'"):
        trl.ProgexecReward(policy="oficial")


def test_trl_refuses_a_batch_without_its_gold_column_naming_the_columns_it_has() -> None:
    reward = trl.ProgexecReward()
    with pytest.raises(AdapterInputError, match=r"no gold column 'answer'.*\['solution'\]"):
        reward(prompts=["p"], completions=["Answer: 94"], completion_ids=None, solution=["94.0"])
    assert trl.ProgexecReward(answer_column="solution")(completions=["Answer: 94"], solution=["94.0"]) == [1.0]


@pytest.mark.parametrize("columns, match", [
    ({"answer": ["banana"]}, r"answer\[0\]: the gold record is unusable"),
    ({"answer": ["94.0"], "policy": ["judge"]}, r"policy\[0\]: unknown policy 'judge'"),
    ({"answer": ["94.0"], "dialect": ["gsm8k"]}, "dialect must be one of"),
])
def test_trl_refuses_an_unusable_row(columns: dict[str, list[Any]], match: str) -> None:
    with pytest.raises(AdapterInputError, match=match):
        trl.ProgexecReward()(completions=["Answer: 94"], **columns)
    with pytest.raises(AdapterInputError, match=r"completions\[0\]: neither text"):
        trl.ProgexecReward()(completions=[42], answer=["94.0"])


@pytest.mark.parametrize("call, match", [
    (lambda: verl.compute_score("progexec/finqa", "Answer: 94", "94.0", {}, policy="oficial"), "unknown policy"),
    (lambda: verl.compute_score("progexec/finqa", "Answer: 94", None, {}), "no gold: ground_truth is None"),
    (lambda: verl.compute_score("progexec/finqa", "Answer: 94", "banana", {}), "gold record is unusable"),
    (lambda: verl.compute_score_float("progexec/finqa", None, "94.0"), "completion must be a string"),
    (lambda: verl.compute_score_batch(["progexec/finqa"] * 2, ["Answer: 94"] * 2, ["94.0", "x"], [{}, {}]),
     r"compute_score_batch: ground_truths\[1\]: the gold record is unusable"),
    (lambda: openrlhf.reward_func(["Q 94"], ["Q"], ["94.0"], policy="judge"), "unknown policy 'judge'"),
    (lambda: openrlhf.reward_func(["Q 94", "Q 94"], ["Q", "Q"], ["94.0", '{"table": 3}']), r"labels\[1\]: the gold record is unusable"),
])
def test_verl_and_openrlhf_raise_where_nothing_can_be_judged(call: Any, match: str) -> None:
    with pytest.raises(AdapterInputError, match=match):
        call()


def test_trl_reads_the_last_assistant_message_of_a_conversation() -> None:
    reward = trl.ProgexecReward()
    conversation = [{"role": "assistant", "content": "Answer: 1"}, {"role": "user", "content": "again"},
                    {"role": "assistant", "content": [{"type": "text", "text": "Answer: "}, {"type": "text", "text": "94"}]}]
    assert reward(completions=[conversation], answer=["94.0"]) == [1.0]
    with pytest.raises(AdapterInputError, match="'answer'"):
        reward(completions=["a", "b"], answer=["1"])


def test_openrlhf_strips_the_prompt_and_special_tokens_and_takes_plain_labels() -> None:
    assert openrlhf.response_text("<s>Q? Answer: 94</s><|endoftext|>  ", "<s>Q?") == " Answer: 94"
    out = openrlhf.reward_func(["Q? Answer: 94", "Q? Answer: 95"], ["Q?", "Q?"], ["94.0", '{"answer": "94.0"}'])
    assert out["rewards"] == out["scores"] == [1.0, 0.0]
    assert out["extra_logs"] == {"progexec_correct": 0.5, "progexec_format_ok": 1.0}


def test_rows_have_one_schema_and_the_question_joins_by_id(tmp_path: Path) -> None:
    questions = tmp_path / "q.json"
    questions.write_text(json.dumps([{"id": FINQA_TEST[0]["extra_info"]["id"], "qa": {"question": "What?"}}]))
    rows = list(iter_rows("finqa", ["test"], Policy.OFFICIAL, load_questions(questions)))
    assert [tuple(row["extra_info"]) for row in rows] == [EXTRA_KEYS] * len(rows)
    assert rows[0]["extra_info"]["question"] == "What?" and "Question: What?" in rows[0]["prompt"][0]["content"]
    assert rows[0]["reward_model"] == {"style": "rule", "ground_truth": "94.0"}
    out = tmp_path / "rows.jsonl"
    assert main(["--dataset", "mathqa", "--split", "challenge_test", "--out", str(out)]) == 0
    first = json.loads(out.read_text().splitlines()[0])
    assert first["reward_model"]["ground_truth"] in "abcde" and first["extra_info"]["options"]
    assert write_jsonl(iter([]), tmp_path / "empty.jsonl") == 0
    assert main(["--dataset", "finqa", "--split", "nope", "--out", str(out)]) == 2


REWARD_DATA = Path(__file__).parent / "data" / "rewards"


def _gold_sets() -> list[dict[str, Any]]:
    """Every 9th line of the real ConvFinQA answers, and every hand-written gaming attempt."""
    import gzip

    real = gzip.decompress((REWARD_DATA / "convfinqa_sonnet.jsonl.gz").read_bytes()).decode("utf-8").splitlines()
    handwritten = (REWARD_DATA / "handwritten.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in real[::9]] + [json.loads(line) for line in handwritten if line.strip()]


UNUSABLE = ("bad_gold", "bad_policy", "bad_input")


@pytest.mark.parametrize("policy", ["official", "numeric", "helm"])
def test_every_adapter_gives_the_gold_sets_expected_reward(policy: str) -> None:
    items = [item for item in _gold_sets() if policy in item["expected"]
             and item["expected"][policy].get("status") not in UNUSABLE and isinstance(item["gold"], dict)]
    expected = [item["expected"][policy]["score"] for item in items]
    golds = [item["gold"] for item in items]  # the policy is the call's: verl kwarg, TRL constructor, keyword
    completions = [str(item["completion"]) * int(item.get("repeat", 1)) for item in items]
    sources = [f"progexec/{gold.get('dialect') or 'finqa'}" for gold in golds]
    extras = [{key: value for key, value in gold.items() if key != "answer"} for gold in golds]
    truths = [None if gold.get("answer") is None else str(gold["answer"]) for gold in golds]
    columns = {key: [gold.get(key) for gold in golds] for key in GOLD_KEYS}
    trl_scores = trl.ProgexecReward(policy=policy)(prompts=[""] * len(items), completions=completions,
                                                   completion_ids=None, **columns)
    lines = [json.dumps({"id": index, "completion": completion, "gold": gold})
             for index, (completion, gold) in enumerate(zip(completions, golds))]
    got = {
        "verl": [verl.compute_score(s, c, t, e, policy=policy)["score"]
                 for s, c, t, e in zip(sources, completions, truths, extras)],
        "verl_batch": [d["score"] for d in verl.compute_score_batch(sources, completions, truths, extras,
                                                                    policy=policy)],
        "verl_prime": [verl.compute_score_float(s, c, t, e, policy=policy)
                       for s, c, t, e in zip(sources, completions, truths, extras)],
        "trl": trl_scores,
        "openrlhf": openrlhf.reward_func(completions, [""] * len(items), [json.dumps(g) for g in golds],
                                         policy=policy)["rewards"],
        "serve /get_reward": openrlhf_rewards(completions, [""] * len(items), [json.dumps(g) for g in golds],
                                              policy)["rewards"],
        "reward and serve /batch": [json.loads(line)["score"] for line in score_lines(lines, 1, Policy(policy))],
    }
    for adapter, scores in got.items():
        assert scores == expected, adapter


@pytest.mark.parametrize("policy", ["official", "numeric", "helm"])
def test_every_adapter_raises_on_the_gold_sets_unusable_items(policy: str) -> None:
    items = [item for item in _gold_sets() if item["expected"].get(policy, {}).get("status") in UNUSABLE]
    assert items
    for item in items:
        gold = item["gold"]
        with pytest.raises(AdapterInputError):
            openrlhf.reward_func([item["completion"]], [""], [gold if isinstance(gold, str) else json.dumps(gold)],
                                 policy=policy)
        if isinstance(gold, dict):
            with pytest.raises(AdapterInputError):
                verl.compute_score("progexec/finqa", item["completion"], gold.get("answer"),
                                   {key: value for key, value in gold.items() if key != "answer"}, policy=policy)
            if gold.get("answer") is not None or gold.get("program") is not None:
                with pytest.raises(AdapterInputError):
                    trl.ProgexecReward(policy=policy)(completions=[item["completion"]],
                                                      **{key: [value] for key, value in gold.items()})
        line = json.dumps({"id": 1, "completion": item["completion"], "gold": gold})
        assert json.loads(score_lines([line], 1, Policy(policy))[0])["status"] == item["expected"][policy]["status"]


@pytest.mark.parametrize("module, name", [(verl, "compute_score"), (openrlhf, "reward_func")])
def test_the_adapter_files_load_by_path_as_the_frameworks_load_them(module: Any, name: str) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("reward_func", module.__file__)  # OpenRLHF's and verl's way
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    function = getattr(loaded, name)
    if name == "compute_score":
        assert function("progexec/finqa", "Answer: 94", "94.0", {})["score"] == 1.0
    else:
        assert function(["Q Answer: 94"], ["Q"], ['{"answer": 94.0}'])["rewards"] == [1.0]
