"""The Python-solution reward: official and strict rules, gold values and gold solutions, bad input."""

from __future__ import annotations

import pytest

from progexec.isolation import bwrap as bubblewrap
from progexec.datasets.pysolution.pool import Budget
from progexec.datasets.pysolution.reward import PythonSolutionScorer, python_solution_reward

pytestmark = pytest.mark.skipif(not bubblewrap.status().available, reason="no bubblewrap isolation on this machine")


def fenced(value: str) -> str:
    return f"Let me compute.\n```python\ndef solution():\n    return {value}\n```\nDone."


def test_rewards_by_rule() -> None:
    completions = [fenced("0.0575"), fenced("5.75"), fenced("-0.0575"), fenced("1235.0"), "no code at all",
                   fenced("1 / 0"), fenced("8184.0")]
    golds: list[int | float | bool | str] = [0.0575, 0.0575, 0.0575, 1234.5, 0.0575, 0.0575,
                                             "def solution():\n    return 21000 - 57000 * 0.8 ** 3"]
    with PythonSolutionScorer(jobs=1, budget=Budget(cpu_seconds=1, wall_seconds=5)) as scorer:
        official = scorer.score(completions, golds, "official")
        strict = scorer.score(completions, golds, "strict")
        with pytest.raises(ValueError):
            scorer.score(completions, golds, "lenient")
        with pytest.raises(ValueError):
            scorer.score(completions, golds[:2])
        bad_gold = scorer.score([fenced("1")], ["def solution():\n    raise ValueError"])
    assert [r.reward for r in official] == [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0]
    assert [r.reward for r in strict] == [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    assert [r.divergence for r in official] == [None, "power_of_ten", "sign_ignored", "within_0.15_percent",
                                                None, None, None]
    assert [r.status for r in official[4:6]] == ["syntax_error", "runtime_error"]  # prose becomes a body (rule 5)
    assert bad_gold[0].status == "bad_gold" and bad_gold[0].reward == 0.0


def test_one_completion_through_the_shared_scorer() -> None:
    assert python_solution_reward(fenced("3 * 4"), 12) == 1.0
    assert python_solution_reward(fenced("-12"), 12, "strict") == 0.0


def test_python_solution_golds_go_through_the_reward_core_and_its_adapters() -> None:
    """A gold record of dialect financemath (a value, or a gold solution) is scored by running the completion's
    solution() in the sandbox pool, through score_completion and so through every adapter (verl here);
    official is FinanceMath's get_acc (the sign is ignored), numeric the strict rule."""
    from progexec.integrations.verl import compute_score
    from progexec.reward import score_completion

    right, negated = fenced("6 * 7"), fenced("-42")
    gold = {"dialect": "financemath", "answer": 42.0}
    assert score_completion(right, gold).score == 1.0
    assert score_completion(negated, gold).score == 1.0  # compare_two_numbers ignores the sign
    strict = score_completion(negated, gold, policy="numeric")
    assert strict.score == 0.0 and "sign_ignored" in strict.reason
    by_solution = {"dialect": "financemath", "python_solution": "def solution():\n    return 42"}
    assert score_completion(right, by_solution).score == 1.0
    assert compute_score("progexec/financemath", right, "42", {"dialect": "financemath"})["score"] == 1.0
    assert score_completion(right, {"dialect": "financemath", "answer": "forty-two"}).status.label == "bad_gold"


def test_a_numpy_bool_is_read_as_the_official_rule_reads_it() -> None:
    """FinanceMath's get_acc(prediction, gt, cot=False) first calls float(prediction): float(np.bool_(True)) is
    1.0, and compare_two_numbers(1.0, 1) accepts it (a ratio of 1). It used to be bad_result, scored 0."""
    code = "```python\nimport numpy as np\ndef solution():\n    return np.bool_(True)\n```"
    assert python_solution_reward(code, 1) == 1.0
    assert python_solution_reward(code, 2) == 0.0
    # a gold solution returning a numpy bool: the official assert reads type(gt).__name__, 'bool' since numpy 2
    # (compared by ==), 'bool_' before (every prediction wrong)
    numpy = pytest.importorskip("numpy")
    expected = 1.0 if type(numpy.bool_(True)).__name__ == "bool" else 0.0
    gold = "import numpy as np\ndef solution():\n    return np.bool_(True)"
    assert python_solution_reward(fenced("True"), gold) == expected


@pytest.mark.parametrize(("sleep", "expected"), [(5, 0.0), (2, 1.0)])
def test_a_solution_that_sleeps_past_the_official_alarm_scores_0(sleep: float, expected: float) -> None:
    """FinanceMath's evaluation.py runs each solution under signal.alarm(3) (wall clock): one that sleeps 5 s is a
    TimeoutException, acc 0, whatever it would return; one that sleeps 2 s returns in time. The CPU limit alone
    let the 5 s sleep finish (it uses no CPU) and scored 1. The sleep is counted, not timed."""
    code = f"```python\nimport time\ndef solution():\n    time.sleep({sleep})\n    return 5\n```"
    with PythonSolutionScorer(jobs=1, budget=Budget(cpu_seconds=3, wall_seconds=30, alarm_seconds=3)) as scorer:
        [result] = scorer.score([code], [5])
    assert result.reward == expected
    if expected == 0.0:
        assert result.status == "time_limit" and "alarm" in result.message
