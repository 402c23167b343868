"""Every line of the reward gold sets gets its expected reward under every policy.

tests/data/rewards/convfinqa_sonnet.jsonl.gz: 1,490 real Claude Sonnet 4.6 answers on ConvFinQA dev,
expected from the official bare-number rule, the dataset scorer's verdict (reviewed overrides) and
HELM's own float_equiv (scripts/build_reward_goldset.py). tests/data/rewards/handwritten.jsonl:
gaming attempts and reading rules, expected by hand from docs/reward.md.
"""

from __future__ import annotations

import gzip
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from progexec.reward import Policy, score_completion

DATA = Path(__file__).parent / "data" / "rewards"
POLICIES = [policy.value for policy in Policy]


def _lines(name: str) -> list[dict[str, Any]]:
    path = DATA / name
    assert path.exists(), f"the gold set {path} is missing"
    opener = gzip.open if name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


REAL = _lines("convfinqa_sonnet.jsonl.gz")
HAND = _lines("handwritten.jsonl")


def _completion(line: dict[str, Any]) -> str:
    return str(line["completion"]) * int(line.get("repeat", 1))


def _mismatches(lines: list[dict[str, Any]], policy: str) -> list[str]:
    wrong = []
    for line in lines:
        expected = line["expected"][policy]
        result = score_completion(_completion(line), line["gold"], policy=policy)
        if result.score != expected["score"] or ("status" in expected and result.status.label != expected["status"]):
            wrong.append(f"{line['id']}: expected {expected}, got {result.score} {result.status.label} ({result.reason})")
    return wrong


def test_the_real_set_is_complete() -> None:
    assert len(REAL) == 1490
    assert len({line["id"] for line in REAL}) == 1490


@pytest.mark.parametrize("policy", POLICIES)
def test_real_convfinqa_answers(policy: str) -> None:
    assert _mismatches(REAL, policy) == []


def test_real_numeric_agrees_with_the_dataset_scorer_except_the_reviewed_turns() -> None:
    overridden = [line for line in REAL if "status" in line["expected"]["numeric"]]
    assert len(overridden) == 41
    assert all(line["dataset_correct"] for line in overridden)  # each a scale, precision or two-answer refusal
    kept = [line for line in REAL if "status" not in line["expected"]["numeric"]]
    assert all(line["expected"]["numeric"]["score"] == float(line["dataset_correct"]) for line in kept)


@pytest.mark.parametrize("policy", POLICIES)
def test_handwritten_attempts(policy: str) -> None:
    assert _mismatches(HAND, policy) == []


def test_no_gaming_attempt_scores_under_numeric() -> None:
    gaming = {"scale-guess-100", "scale-guess-1000", "number-list", "stuffing-no-marker", "stuffing-prose-marker",
              "multiple-boxed", "program-raises", "giant-output", "many-numbers-big", "self-contradiction",
              "scale-guess-ratio", "two-programs", "negated-gold", "boxed-vs-answer-line"}
    lines = {line["id"]: line for line in HAND}
    assert gaming <= set(lines)
    for name in sorted(gaming):
        assert score_completion(_completion(lines[name]), lines[name]["gold"], policy="numeric").score == 0.0, name


def test_threads_give_the_serial_records() -> None:
    sample = REAL[::7] + HAND
    jobs = [(line, policy) for line in sample for policy in POLICIES]

    def judge(job: tuple[dict[str, Any], str]) -> str:
        line, policy = job
        return json.dumps(score_completion(_completion(line), line["gold"], policy=policy).record())

    serial = [judge(job) for job in jobs]
    with ThreadPoolExecutor(max_workers=8) as pool:
        threaded = list(pool.map(judge, jobs))
    assert threaded == serial
