"""The Python-solution reward: official and strict rules, gold values and gold solutions, bad input."""

from __future__ import annotations

import pytest

from progexec.mathqa import bubblewrap
from progexec.pysolution.pool import Budget
from progexec.pysolution.reward import PythonSolutionScorer, python_solution_reward

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
