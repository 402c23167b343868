"""The reward policy for Python solutions: a completion's program-of-thought code run in the sandbox pool
and judged against a gold value or a gold solution, by the official or the strict rule.

For the RL adapters (verl, TRL, OpenRLHF) and ``progexec serve``: :func:`python_solution_rewards`
scores a batch (one pool round trip for all its solutions) and :func:`python_solution_reward` one
completion. The gold is a number (``int``/``float``/``bool``, typed as the official rule types it) or
the text of a gold ``python_solution``, executed once in a pool of its own (never in a worker that
runs completions) and cached by its text. The completion's code is extracted as FinanceMath does
(:func:`progexec.datasets.pysolution.extract.extract_code`). Reward 1.0 when the rule accepts, else 0.0; the
result also says why (the solution's status, the divergence class when only the official rule
accepts). A process-wide :class:`PythonSolutionScorer` is created on first use and closed at exit; it scores
``Limits.solution_lanes`` calls at once, each in pools of its own (``progexec serve`` runs one request per
lane, in a thread off its event loop, within the request's budget: :func:`progexec.isolation.budget.request_budget`).
"""

from __future__ import annotations

import atexit
import queue
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...core.bytecache import ByteCache, text_size
from ...core.limits import current
from ...isolation.budget import deadline as request_deadline
from ...reward.model import RewardResult
from .extract import extract_code
from .official import Gold
from .pool import Budget, Pool, Request
from .results import SolutionResult, Status, failure
from .strict import verdicts
from ...core.errors import InputError

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


GOLD_ENTRY_BYTES = 400
"""Bytes counted for a cached gold solution's value beside its text (see :mod:`progexec.bytecache`)."""

@dataclass
class _Lane:
    """One caller's pools at a time: completions, and gold solutions (never in a worker that runs completions)."""

    pool: Pool | None = None
    gold_pool: Pool | None = None


class PythonSolutionScorer:
    """Scores completions against golds in warm pools; a context manager.

    ``lanes`` callers score at once (default ``Limits.solution_lanes``), each in pools of its own, so one
    caller's slow solutions never hold up another's; a further caller waits for a free lane. Gold solutions'
    values are cached by their text within ``max_cached_gold_bytes``."""

    def __init__(self, jobs: int = 2, budget: Budget | None = None, *, unsafe_no_isolation: bool = False,
                 lanes: int | None = None) -> None:
        self._args = (jobs, budget, unsafe_no_isolation)
        count = max(1, lanes if lanes is not None else current().solution_lanes)
        self._lanes = [_Lane() for _ in range(count)]
        self._free: queue.SimpleQueue[_Lane] = queue.SimpleQueue()
        for lane in self._lanes:
            self._free.put(lane)
        self._gold_cache: ByteCache[str, Gold | None] = ByteCache()
        self._closed = False

    def __enter__(self) -> PythonSolutionScorer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close every lane's pools (a lane in use is closed as its caller leaves it)."""
        self._closed = True
        for lane in self._lanes:
            for pool in (lane.pool, lane.gold_pool):
                if pool is not None:
                    pool.close()
            lane.pool = lane.gold_pool = None

    def _new_pool(self) -> Pool:
        jobs, budget, unsafe = self._args
        return Pool(jobs, budget, unsafe_no_isolation=unsafe)

    def _golds(self, lane: _Lane, golds: Sequence[int | float | bool | str],
               deadline: float | None) -> list[Gold | None]:
        known = self._gold_cache.entries
        unique = list(dict.fromkeys(gold for gold in golds if isinstance(gold, str) and gold not in known))
        found: dict[str, Gold | None] = {}
        if unique:
            if lane.gold_pool is None:
                lane.gold_pool = self._new_pool()
            bound = current().max_cached_gold_bytes
            for code, result in zip(unique, lane.gold_pool.run([Request(code) for code in unique], None, deadline)):
                found[code] = _gold_from_result(result)
                if result.status is not Status.TIME_LIMIT or not result.wall_clock:  # an unrun gold is not a value
                    self._gold_cache.put(code, found[code], text_size(code) + GOLD_ENTRY_BYTES, bound)
        return [(found[gold] if gold in found else known.get(gold)) if isinstance(gold, str)
                else _gold_from_value(gold) for gold in golds]

    def score(self, completions: Sequence[str], golds: Sequence[int | float | bool | str],
              rule: str = "official") -> list[PythonSolutionReward]:
        """One reward per completion, in order. Raises ValueError for an unknown rule or unequal lengths."""
        if rule not in RULES:
            raise ValueError(f"unknown rule {rule!r} (one of {', '.join(RULES)})")
        if len(completions) != len(golds):
            raise ValueError("completions and golds differ in length")
        deadline = request_deadline()
        lane = self._free.get()
        try:
            resolved = self._golds(lane, golds, deadline)
            codes = [extract_code(completion) if isinstance(completion, str) else "" for completion in completions]
            runnable = [index for index, code in enumerate(codes) if code and resolved[index] is not None]
            if lane.pool is None and runnable:
                lane.pool = self._new_pool()
            ran = lane.pool.run([Request(codes[index]) for index in runnable], None, deadline) \
                if runnable and lane.pool else []
        finally:
            if self._closed:
                for pool in (lane.pool, lane.gold_pool):
                    if pool is not None:
                        pool.close()
                lane.pool = lane.gold_pool = None
            self._free.put(lane)
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
    from ...reward.gold import parse_policy
    from ...reward.model import Policy, RewardStatus, make_result

    try:
        chosen = parse_policy(policy if policy is not None else gold.get("policy") or "official")
    except InputError:
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
