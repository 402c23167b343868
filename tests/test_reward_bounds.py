"""Completions built to make a backtracking pattern or a per-span loop blow up get their typed
result at the largest size read (about 100,000 characters). A quadratic (or worse) scan of any of
them would take minutes to hours here, so this file finishing is the check; no clock is read."""

from __future__ import annotations

import pytest

from progexec.reward import MAX_COMPLETION_CHARS, RewardStatus, score_completion

N = MAX_COMPLETION_CHARS - 1000
GOLD = {"answer": 5.0}

CASES = {
    "spaces after a fence": ("```" + " " * N + "x", "no_answer"),
    "spaces before a number": ("Answer: (" + " " * N + "5", "prose"),
    "spaces after a parenthesised number": ("Answer: (5" + " " * N + "x", "prose"),
    "a last line of spaces": (" " * N + "x", "no_answer"),
    "spaces after a marker word": ("Answer" + " " * N + "x", "no_answer"),
    "spaces inside 'the answer is'": ("the" + " " * N + "answer", "no_answer"),
    "spaces after 'Program'": ("Program" + " " * N + ": x", "no_answer"),
    "unclosed boxes": ("\\boxed{" * (N // 7), "no_answer"),
    "nested braces": ("\\boxed{" + "{" * (N // 2) + "5" + "}" * (N // 2) + "}", "prose"),
    "empty fences": ("```\n" * (N // 4), "no_answer"),
    "one long number": ("1" * N, "no_answer"),
    "commas": ("1," * (N // 2), "no_answer"),
    "hashes": ("#" * N, "unreadable"),  # every marker's span ends at the next marker: all empty
    "spaces after a percent candidate": ("Answer: 5" + " " * N + "x", "prose"),
    "many answer lines": ("Answer: 5\n" * (N // 10), "ok"),
    "many different answer lines": ("".join(f"Answer: {i}\n" for i in range(N // 14)), "multiple_answers"),
    "a list of numbers": ("Answer: " + "1 " * (N // 2), "many_candidates"),
    "dashes": ("-" * N, "no_answer"),
    "parentheses": ("(" * N, "no_answer"),
    "unclosed answer tags": ("<answer>" * (N // 8), "no_answer"),
    "many answer tags": ("<answer>5</answer>" * (N // 18), "ok"),
    "unclosed think tags": ("<think>" * (N // 7) + "Answer: 5", "no_answer"),
    "unopened think tags": ("</think>" * (N // 8) + "Answer: 5", "ok"),
    "empty answer lines": ("Answer:\n" * (N // 8) + "5", "ok"),
    "blank lines after a marker": ("Answer:" + "\n" * N + "5", "ok"),
    "powers": ("Answer: " + "2**" * (N // 3) + "2", "many_candidates"),
    "slashes": ("Answer: " + "1/" * (N // 2) + "2", "many_candidates"),
    "spaced thousands": ("Answer: 1" + " 000" * (N // 4), "many_candidates"),
    "hedge sentences": ("Answer: 5" + ". Or 5" * (N // 6), "many_candidates"),
    "hedge lines": ("Answer: 5" + "\nor 5" * (N // 5), "many_candidates"),
    "answer lines with hedge lines": ("Answer: 5\nor 5\n" * (N // 15), "ok"),
    "a long tag of lines": ("<answer>" + "5\n" * (N // 2) + "</answer>", "many_candidates"),
    "dots and spaces": (". " * (N // 2), "no_answer"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_adversarial_completion_at_full_size(name: str) -> None:
    completion, status = CASES[name]
    assert len(completion) <= MAX_COMPLETION_CHARS
    numeric = score_completion(completion, GOLD, policy="numeric")
    assert numeric.status.label == status, numeric.reason[:300]
    for policy in ("official", "helm"):
        result = score_completion(completion, GOLD, policy=policy)
        assert result.status is not RewardStatus.INTERNAL_ERROR
        assert result.extracted is None or len(result.extracted) <= 503
