"""TRL's own GRPOTrainer runs a training step with progexec's reward (tiny offline model, CPU)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch")
trl_lib = pytest.importorskip("trl")
datasets = pytest.importorskip("datasets")
pytestmark = pytest.mark.trl

from progexec.integrations.trl import ProgexecReward  # noqa: E402
from tests.rl_tiny import tiny_model, tiny_tokenizer  # noqa: E402

ROWS = [  # FinQA test items 0 and 1 (ETR/2016/page_23.pdf-2: subtract(5829, 5735) = 94.0)
    {"prompt": "Net revenue went from 5735 to 5829. By how much? Answer:", "answer": "94.0",
     "program": "subtract(5829, 5735)", "dialect": "finqa"},
    {"prompt": "Is 5829 greater than 5735? Answer:", "answer": "yes", "program": "greater(5829, 5735)",
     "dialect": "finqa"},
]


def test_grpo_trainer_takes_a_step_with_the_progexec_reward(tmp_path: Path) -> None:
    tokenizer = tiny_tokenizer()
    reward = ProgexecReward(policy="numeric")
    config = trl_lib.GRPOConfig(
        output_dir=str(tmp_path), per_device_train_batch_size=4, num_generations=2, max_completion_length=12,
        max_steps=1, learning_rate=1e-3, logging_steps=1, report_to=[], use_cpu=True, bf16=False, fp16=False,
        save_strategy="no", seed=0, dataloader_num_workers=0)
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
