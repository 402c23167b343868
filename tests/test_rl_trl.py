"""TRL's own GRPOTrainer runs a training step with progexec's reward, sync and async (tiny offline model, CPU)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")
trl_lib = pytest.importorskip("trl")
datasets = pytest.importorskip("datasets")
pytestmark = pytest.mark.trl

from progexec.integrations.trl import AsyncProgexecReward, ProgexecReward  # noqa: E402
from tests.rl_tiny import tiny_model, tiny_tokenizer  # noqa: E402

ROWS = [  # FinQA test items 0 and 1 (ETR/2016/page_23.pdf-2: subtract(5829, 5735) = 94.0)
    {"prompt": "Net revenue went from 5735 to 5829. By how much? Answer:", "answer": "94.0",
     "program": "subtract(5829, 5735)", "dialect": "finqa"},
    {"prompt": "Is 5829 greater than 5735? Answer:", "answer": "yes", "program": "greater(5829, 5735)",
     "dialect": "finqa"},
]


def _config(tmp_path: Path) -> Any:
    return trl_lib.GRPOConfig(
        output_dir=str(tmp_path), per_device_train_batch_size=4, num_generations=2, max_completion_length=12,
        max_steps=1, learning_rate=1e-3, logging_steps=1, report_to=[], use_cpu=True, bf16=False, fp16=False,
        save_strategy="no", seed=0, dataloader_num_workers=0)


def test_grpo_trainer_takes_a_step_with_the_progexec_reward(tmp_path: Path) -> None:
    tokenizer = tiny_tokenizer()
    reward = ProgexecReward(policy="numeric")
    config = _config(tmp_path)
    trainer = trl_lib.GRPOTrainer(model=tiny_model(tokenizer), reward_funcs=[reward], args=config,
                                  train_dataset=datasets.Dataset.from_list(ROWS * 2), processing_class=tokenizer)
    trainer.train()
    assert trainer.state.global_step == 1
    logged = trainer._logs  # what the trainer itself recorded for the step: its completions and rewards
    completions, rewards = list(logged["completion"]), list(logged["rewards"]["progexec_reward"])
    assert len(completions) == len(rewards) == 4
    golds = {row["prompt"]: row for row in ROWS}
    prompts = list(logged["prompt"])
    again = reward(prompts=prompts, completions=completions, completion_ids=None,
                   answer=[golds[p]["answer"] for p in prompts], program=[golds[p]["program"] for p in prompts],
                   dialect=[golds[p]["dialect"] for p in prompts])
    assert rewards == again  # the trainer used the reward as given, one per completion, in order
    assert set(logged["extra"]["progexec_reward_status"]) <= {"no_answer", "unreadable", "wrong", "ok",
                                                              "many_candidates", "multiple_answers"}
    assert any(history.get("rewards/progexec_reward/mean") is not None for history in trainer.state.log_history)


def test_grpo_trainer_awaits_the_async_reward_on_its_loop_with_the_scores_of_progexec_reward(tmp_path: Path) -> None:
    from progexec.cli import main

    tokenizer = tiny_tokenizer()
    reward = AsyncProgexecReward(policy="numeric")
    assert trl_lib.trainer.utils.is_async_callable(reward)
    probe_ran = threading.Event()
    threads: set[int] = set()
    loop_threads: set[int] = set()
    judge = reward.results

    def gated(*args: Any, **kwargs: Any) -> Any:  # where the async reward sends its batch
        threads.add(threading.get_ident())
        assert probe_ran.wait(120), "the probe reward never ran: the progexec reward blocked TRL's event loop"
        return judge(*args, **kwargs)

    reward.results = gated  # type: ignore[method-assign]

    async def probe(prompts: Any = None, completions: Any = None, **_: Any) -> list[float | None]:
        loop_threads.add(threading.get_ident())  # TRL gathers it with the progexec reward on the same loop
        probe_ran.set()
        return [None] * len(completions or [])

    trainer = trl_lib.GRPOTrainer(model=tiny_model(tokenizer), reward_funcs=[reward, probe], args=_config(tmp_path),
                                  train_dataset=datasets.Dataset.from_list(ROWS * 2), processing_class=tokenizer)
    trainer.train()
    assert trainer.state.global_step == 1 and probe_ran.is_set()
    assert threads and loop_threads and not threads & loop_threads
    logged = trainer._logs
    prompts, completions = list(logged["prompt"]), list(logged["completion"])
    rewards = list(logged["rewards"]["progexec_reward"])
    golds = {row["prompt"]: row for row in ROWS}
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    source.write_text("".join(json.dumps({"id": index, "completion": completion,
                                          "gold": {key: golds[prompt][key] for key in ("answer", "program", "dialect")}})
                              + "\n" for index, (prompt, completion) in enumerate(zip(prompts, completions))),
                      encoding="utf-8")
    assert main(["reward", str(source), "--policy", "numeric", "--quiet", "--out", str(out)]) == 0
    assert rewards == [json.loads(line)["score"] for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rewards) == 4
