"""The Python-solution reward: official and strict rules, gold values and gold solutions, bad input."""

from __future__ import annotations

import pytest

from progexec.datasets.mathqa import bubblewrap
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
