"""verl's own reward managers (naive, batch, prime) driven with progexec's reward over a CPU torch.

Each manager gets a real DataProto (left-padded prompts, right-padded responses, attention mask,
``reward_model`` and ``extra_info`` columns) and puts each completion's reward on its last response
token; the expected rewards are the committed ConvFinQA gold set's, written there per policy.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
np = pytest.importorskip("numpy")
pytest.importorskip("verl")
pytestmark = pytest.mark.verl

from verl import DataProto  # noqa: E402
from verl.workers.reward_manager import BatchRewardManager, NaiveRewardManager, PrimeRewardManager  # noqa: E402

from progexec.integrations import verl as adapter  # noqa: E402
from progexec.reward import RECORD_KEYS  # noqa: E402
from tests.rl_tiny import tiny_tokenizer  # noqa: E402

GOLD_SET = Path(__file__).parent / "data" / "rewards" / "convfinqa_sonnet.jsonl.gz"


def _sample(per_kind: int = 3) -> list[dict[str, Any]]:
    """The first few items of each (official, numeric, helm) score combination, in file order."""
    taken: dict[tuple[float, ...], int] = {}
    out = []
    for line in gzip.decompress(GOLD_SET.read_bytes()).decode("utf-8").splitlines():
        item = json.loads(line)
        kind = tuple(item["expected"][policy]["score"] for policy in ("official", "numeric", "helm"))
        if taken.get(kind, 0) < per_kind:
            taken[kind] = taken.get(kind, 0) + 1
            out.append(item)
    return out


ITEMS = _sample()


def _batch(tokenizer: Any, policy: str) -> tuple[Any, list[float], list[int]]:
    prompts = [tokenizer.encode(f"Q{index}: ", add_special_tokens=False) for index in range(len(ITEMS))]
    responses = [tokenizer.encode(item["completion"], add_special_tokens=False) for item in ITEMS]
    width_p, width_r, pad = max(map(len, prompts)), max(map(len, responses)), tokenizer.pad_token_id
    prompt_ids = torch.tensor([[pad] * (width_p - len(p)) + p for p in prompts])
    response_ids = torch.tensor([r + [pad] * (width_r - len(r)) for r in responses])
    mask = torch.tensor([[0] * (width_p - len(p)) + [1] * (len(p) + len(r)) + [0] * (width_r - len(r))
                         for p, r in zip(prompts, responses)])
    extras = []
    for item in ITEMS:
        extras.append({**{k: v for k, v in item["gold"].items() if k != "answer"}, "policy": policy})
    non_tensors = {
        "data_source": np.array(["progexec/convfinqa"] * len(ITEMS), dtype=object),
        "reward_model": np.array([{"style": "rule", "ground_truth": str(item["gold"]["answer"])} for item in ITEMS],
                                 dtype=object),
        "extra_info": np.array(extras, dtype=object),
    }
    data = DataProto.from_dict(tensors={"prompts": prompt_ids, "responses": response_ids, "attention_mask": mask,
                                        "input_ids": torch.cat([prompt_ids, response_ids], dim=1)},
                               non_tensors=non_tensors)
    return data, [item["expected"][policy]["score"] for item in ITEMS], [len(r) for r in responses]


def _rewards_on_last_tokens(reward_tensor: Any, lengths: list[int]) -> list[float]:
    assert float(reward_tensor.abs().sum()) == pytest.approx(sum(float(reward_tensor[i, n - 1])
                                                                 for i, n in enumerate(lengths)))
    return [float(reward_tensor[i, n - 1]) for i, n in enumerate(lengths)]


@pytest.mark.parametrize("policy", ["official", "numeric", "helm"])
def test_the_naive_manager_with_compute_score(policy: str) -> None:
    tokenizer = tiny_tokenizer()
    data, expected, lengths = _batch(tokenizer, policy)
    assert len(set(expected)) == 2  # the sample holds right and wrong answers
    manager = NaiveRewardManager(tokenizer=tokenizer, num_examine=0, compute_score=adapter.compute_score)
    out = manager(data, return_dict=True)
    assert _rewards_on_last_tokens(out["reward_tensor"], lengths) == expected
    assert tuple(out["reward_extra_info"]) == RECORD_KEYS
    assert all(len(values) == len(ITEMS) for values in out["reward_extra_info"].values())


def test_the_batch_manager_with_compute_score_batch() -> None:
    tokenizer = tiny_tokenizer()
    data, expected, lengths = _batch(tokenizer, "numeric")
    manager = BatchRewardManager(tokenizer=tokenizer, num_examine=0, compute_score=adapter.compute_score_batch)
    out = manager(data, return_dict=True)
    assert _rewards_on_last_tokens(out["reward_tensor"], lengths) == expected
    assert data.batch["acc"].tolist() == expected
    assert out["reward_extra_info"]["status"][0] in {"ok", "wrong", "scale_mismatch"}


def test_the_prime_manager_with_compute_score_float() -> None:
    tokenizer = tiny_tokenizer()
    data, expected, lengths = _batch(tokenizer, "numeric")
    manager = PrimeRewardManager(tokenizer=tokenizer, num_examine=0, compute_score=adapter.compute_score_float)
    reward_tensor = manager(data)
    assert _rewards_on_last_tokens(reward_tensor, lengths) == expected  # prime zeroes the batch on any failure
    assert data.batch["acc"].tolist() == expected


def test_verls_validation_metrics_accept_the_extra_keys() -> None:
    metric_utils = pytest.importorskip("verl.trainer.ppo.metric_utils")
    tokenizer = tiny_tokenizer()
    data, expected, _ = _batch(tokenizer, "numeric")
    manager = NaiveRewardManager(tokenizer=tokenizer, num_examine=0, compute_score=adapter.compute_score)
    infos = manager(data, return_dict=True)["reward_extra_info"]
    metrics = metric_utils.process_validation_metrics(["progexec/convfinqa"] * len(ITEMS),
                                                      ["uid"] * len(ITEMS), dict(infos))
    means = metrics["progexec/convfinqa"]["score"]
    assert means[f"mean@{len(ITEMS)}"] == pytest.approx(sum(expected) / len(expected))


@pytest.mark.parametrize("path", ["file", "pkg://progexec.integrations.verl"])
def test_verls_custom_reward_loader_takes_the_adapter_and_the_policy_kwarg(path: str) -> None:
    omegaconf = pytest.importorskip("omegaconf")
    reward_module = pytest.importorskip("verl.trainer.ppo.reward")
    config = omegaconf.OmegaConf.create({"reward": {"custom_reward_function": {
        "path": adapter.__file__ if path == "file" else path, "name": "compute_score",
        "reward_kwargs": {"policy": "numeric"}}}})
    function = reward_module.get_custom_reward_fn(config)
    tokenizer = tiny_tokenizer()
    data, expected, lengths = _batch(tokenizer, "official")  # the rows say official; the kwarg says numeric
    manager = NaiveRewardManager(tokenizer=tokenizer, num_examine=0, compute_score=function)
    numeric = [item["expected"]["numeric"]["score"] for item in ITEMS]
    assert _rewards_on_last_tokens(manager(data), lengths) == numeric != expected


def test_a_table_that_came_through_numpy_is_read_as_lists() -> None:
    item = next(item for item in ITEMS if item["gold"].get("table") and item["expected"]["official"]["score"] == 1.0)
    table = np.array([np.array(row, dtype=object) for row in item["gold"]["table"]], dtype=object)
    extra = {**{k: v for k, v in item["gold"].items() if k not in ("answer", "table")}, "table": table}
    out = adapter.compute_score("progexec/convfinqa", item["completion"], str(item["gold"]["answer"]),
                                {**extra, "policy": "official"})
    assert out["score"] == 1.0


# verl's reward loop (verl.experimental.reward_loop): each reward worker awaits an async custom function on its
# own event loop (NaiveRewardManager.run_single); the progexec function must give `progexec reward`'s scores
# and leave that loop free while it works.

@pytest.fixture()
def fresh_loop() -> Any:
    """A new event loop set as the thread's current one, as in a new reward-loop actor (verl takes the current one)."""
    import asyncio

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    yield loop
    asyncio.set_event_loop(None)
    loop.close()


def _reward_loop_worker(tmp_path: Path, policy: str) -> Any:
    omegaconf = pytest.importorskip("omegaconf")
    reward_loop = pytest.importorskip("verl.experimental.reward_loop.reward_loop")
    tiny_tokenizer().save_pretrained(tmp_path / "tokenizer")
    config = omegaconf.OmegaConf.create({
        "actor_rollout_ref": {"model": {"tokenizer_path": str(tmp_path / "tokenizer"), "path": None}},
        "reward": {"num_workers": 1, "reward_model": {"enable": False},
                   "reward_manager": {"source": "register", "name": "naive"},
                   "custom_reward_function": {"path": "pkg://progexec.integrations.verl",
                                              "name": "compute_score_async", "reward_kwargs": {"policy": policy}}}})
    return reward_loop.RewardLoopWorker(config)


def _cli_rewards(tmp_path: Path, policy: str) -> list[dict[str, Any]]:
    from progexec.cli import main

    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    source.write_text("".join(json.dumps({"id": index, "completion": item["completion"], "gold": item["gold"]}) + "\n"
                              for index, item in enumerate(ITEMS)), encoding="utf-8")
    assert main(["reward", str(source), "--policy", policy, "--quiet", "--out", str(out)]) == 0
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("policy", ["official", "numeric", "helm"])
def test_verls_reward_loop_awaits_compute_score_async_with_the_scores_of_progexec_reward(
        tmp_path: Path, policy: str, fresh_loop: Any) -> None:
    from verl.experimental.reward_loop.reward_manager.naive import NaiveRewardManager as LoopNaive

    worker = _reward_loop_worker(tmp_path, policy)
    assert isinstance(worker.reward_manager, LoopNaive) and worker.reward_manager.is_async_reward_score
    data, expected, _ = _batch(worker.input_tokenizer, policy)
    outputs = worker.loop.run_until_complete(worker.compute_score_batch(data))
    cli = _cli_rewards(tmp_path, policy)
    assert [output["reward_score"] for output in outputs] == [record["score"] for record in cli] == expected
    for output, record in zip(outputs, cli):
        info = output["reward_extra_info"]
        assert (info["status"], info["correct"], info["reason"]) == (record["status"], record["correct"],
                                                                    record["reason"])


def test_verls_reward_loop_stays_free_while_compute_score_async_works(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_loop: Any) -> None:
    import asyncio
    import threading

    worker = _reward_loop_worker(tmp_path, "numeric")
    probe_ran = threading.Event()
    threads: set[int] = set()
    real = adapter.compute_score

    def gated(*args: Any, **kwargs: Any) -> dict[str, Any]:  # runs where compute_score_async sends the work
        threads.add(threading.get_ident())
        assert probe_ran.wait(120), "the probe never ran: the reward blocked its event loop"
        return real(*args, **kwargs)

    monkeypatch.setattr(adapter, "compute_score", gated)  # the loop loads pkg://progexec.integrations.verl
    data, expected, _ = _batch(worker.input_tokenizer, "numeric")
    huge = "Let me think. " * 75_000 + "Answer: 94.0"  # 1 MB: too_large, read no further
    data.non_tensor_batch["extra_info"][0]["policy"] = "numeric"

    async def step() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        async def probe() -> None:
            await asyncio.sleep(0)
            probe_ran.set()

        scored, big, _ = await asyncio.gather(
            worker.compute_score_batch(data),
            adapter.compute_score_async("progexec/convfinqa", huge, "94.0", {"program": "subtract(5829, 5735)"}),
            probe())
        return scored, big

    scored, big = worker.loop.run_until_complete(step())
    assert threading.get_ident() not in threads
    assert [output["reward_score"] for output in scored] == expected
    assert big["status"] == "too_large"
