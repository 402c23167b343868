"""The reward policy for Python solutions: a completion's program-of-thought code run in the sandbox pool
and judged against a gold value or a gold solution, by the official or the strict rule.

For the RL adapters (verl, TRL, OpenRLHF) and ``progexec serve``: :func:`python_solution_rewards`
scores a batch (one pool round trip for all its solutions) and :func:`python_solution_reward` one
completion. The gold is a number (``int``/``float``/``bool``, typed as the official rule types it) or
the text of a gold ``python_solution``, executed once in a pool of its own (never in a worker that
runs completions) and cached by its text. The completion's code is extracted as FinanceMath does
(:func:`progexec.datasets.pysolution.extract.extract_code`). Reward 1.0 when the rule accepts, else 0.0; the
result also says why (the solution's status, the divergence class when only the official rule
accepts). A process-wide :class:`PythonSolutionScorer` is created on first use and closed at exit.
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...reward.model import RewardResult
from .extract import extract_code
from .official import Gold
from .pool import Budget, Pool, Request
from .results import SolutionResult, Status, failure
from .strict import verdicts

RULES = ("official", "strict")


@dataclass(frozen=True, slots=True)
class PythonSolutionReward:
    """One completion's reward and how it came about."""

    reward: float
    status: str
    official: bool
    strict: bool
    divergence: str | None
    value: float | None
    message: str = ""

    def record(self) -> dict[str, Any]:
        return {"reward": self.reward, "status": self.status, "official": self.official, "strict": self.strict,
                "divergence": self.divergence, "value": self.value, "message": self.message or None}


def _gold_from_value(value: int | float | bool) -> Gold:
    return Gold(type(value).__name__, value)


def _gold_from_result(result: SolutionResult) -> Gold | None:
    if not result.status.returned:
        return None
    if result.status is Status.NOT_A_NUMBER:
        return Gold(result.type_name, None)
    return Gold(result.type_name, result.python_value() if result.type_name in ("int", "float", "float64", "bool")
                else None)


class PythonSolutionScorer:
    """Scores completions against golds in two warm pools (gold solutions, completions); a context manager."""

    def __init__(self, jobs: int = 2, budget: Budget | None = None, *, unsafe_no_isolation: bool = False) -> None:
        self._args = (jobs, budget, unsafe_no_isolation)
        self._pool: Pool | None = None
        self._gold_pool: Pool | None = None
        self._gold_cache: dict[str, Gold | None] = {}
        self._lock = threading.Lock()

    def __enter__(self) -> PythonSolutionScorer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            for pool in (self._pool, self._gold_pool):
                if pool is not None:
                    pool.close()
            self._pool = self._gold_pool = None

    def _new_pool(self) -> Pool:
        jobs, budget, unsafe = self._args
        return Pool(jobs, budget, unsafe_no_isolation=unsafe)

    def _golds(self, golds: Sequence[int | float | bool | str]) -> list[Gold | None]:
        codes = [gold for gold in golds if isinstance(gold, str) and gold not in self._gold_cache]
        unique = list(dict.fromkeys(codes))
        if unique:
            if self._gold_pool is None:
                self._gold_pool = self._new_pool()
            for code, result in zip(unique, self._gold_pool.run([Request(code) for code in unique])):
                self._gold_cache[code] = _gold_from_result(result)
        return [self._gold_cache[gold] if isinstance(gold, str) else _gold_from_value(gold) for gold in golds]

    def score(self, completions: Sequence[str], golds: Sequence[int | float | bool | str],
              rule: str = "official") -> list[PythonSolutionReward]:
        """One reward per completion, in order. Raises ValueError for an unknown rule or unequal lengths."""
        if rule not in RULES:
            raise ValueError(f"unknown rule {rule!r} (one of {', '.join(RULES)})")
        if len(completions) != len(golds):
            raise ValueError("completions and golds differ in length")
        with self._lock:
            resolved = self._golds(golds)
            codes = [extract_code(completion) if isinstance(completion, str) else "" for completion in completions]
            runnable = [index for index, code in enumerate(codes) if code and resolved[index] is not None]
            if self._pool is None and runnable:
                self._pool = self._new_pool()
            ran = self._pool.run([Request(codes[index]) for index in runnable]) if runnable and self._pool else []
        results: dict[int, SolutionResult] = dict(zip(runnable, ran))
        rewards = []
        for index, code in enumerate(codes):
            gold = resolved[index]
            if gold is None:
                rewards.append(PythonSolutionReward(0.0, "bad_gold", False, False, None, None,
                                                    "the gold solution gives no value"))
                continue
            result = results.get(index) or failure("no_code", "the completion holds no code")
            number = result.number if result.status is Status.OK else None
            official, strict, divergence = verdicts(number, gold)
            accepted = official if rule == "official" else strict
            rewards.append(PythonSolutionReward(1.0 if accepted else 0.0, result.status.value, official, strict,
                                                divergence, number, result.message))
        return rewards


_SHARED: PythonSolutionScorer | None = None
_SHARED_LOCK = threading.Lock()


def shared_scorer() -> PythonSolutionScorer:
    """The process-wide scorer (created on first use, closed at exit)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = PythonSolutionScorer()
            atexit.register(_SHARED.close)
        return _SHARED


def python_solution_rewards(completions: Sequence[str], golds: Sequence[int | float | bool | str],
                            rule: str = "official") -> list[PythonSolutionReward]:
    """Rewards for a batch of completions (the adapters' entry point)."""
    return shared_scorer().score(completions, golds, rule)


def python_solution_reward(completion: str, gold: int | float | bool | str, rule: str = "official") -> float:
    """One completion's reward, 1.0 or 0.0."""
    return python_solution_rewards([completion], [gold], rule)[0].reward


def score_python_solution_gold(completion: str, gold: dict[str, Any], policy: Any = None) -> RewardResult:
    """The reward core's result for a Python-solution gold: the completion's ``solution()`` run in the sandbox
    pool. ``official`` (the default for these datasets) is FinanceMath's ``get_acc`` rule; ``numeric``
    (progexec's own) is the strict rule: same sign, same scale, equal at the gold's precision."""
    from ...reward.gold import GoldRecordError, parse_policy
    from ...reward.model import Policy, RewardStatus, make_result

    try:
        chosen = parse_policy(policy if policy is not None else gold.get("policy") or "official")
    except GoldRecordError:
        return make_result(RewardStatus.BAD_POLICY, Policy.OFFICIAL, name=str(policy)[:100])
    target: Any = gold.get("python_solution")
    if not isinstance(target, str):  # no gold solution: the gold value, a number or its text (verl's ground_truth)
        target = gold.get("answer")
        if isinstance(target, str):
            try:
                target = float(target.replace(",", ""))
            except ValueError:
                target = None
    if isinstance(target, bool) or not isinstance(target, (int, float, str)):
        return make_result(RewardStatus.BAD_GOLD, chosen,
                           detail="a Python-solution gold needs a numeric 'answer' or a 'python_solution' text")
    if not isinstance(completion, str):
        return make_result(RewardStatus.BAD_INPUT, chosen, detail="the completion is not text")
    rule = "official" if chosen is Policy.OFFICIAL else "strict"
    outcome = python_solution_rewards([completion], [target], rule)[0]
    if outcome.reward == 1.0:
        return make_result(RewardStatus.OK, chosen, extracted=f"solution() = {outcome.value!r}", value=outcome.value,
                           gold=repr(target)[:60])
    if outcome.value is None:
        return make_result(RewardStatus.PROGRAM_INVALID, chosen, detail=f"{outcome.status}: {outcome.message}"[:300])
    return make_result(RewardStatus.WRONG, chosen, value=outcome.value,
                       gold=repr(target)[:60] + (f" ({outcome.divergence} under the official rule)"
                                                 if outcome.divergence else ""))
