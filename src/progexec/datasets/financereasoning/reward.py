"""FinanceReasoning in the reward core (verl, TRL, OpenRLHF, ``progexec serve``): a completion's
program-of-thought code run in the sandbox and judged against the gold's ``answer`` (its ``ground_truth``).

A gold record is ``{"dialect": "financereasoning", "answer": <int, float or bool>, "policy": ...}`` (the
rows of ``progexec rows`` carry it). The completion's code is extracted as the official
``extract_pot_answers`` does; ``solution()`` runs in the sandbox pool (10 s, as the official config); a
text it returns is normalized in the sandbox too. ``official`` is the official ``get_acc``; ``numeric``
is progexec's strict rule (:mod:`.rule`). One process-wide pool, created on first use, closed at exit.
"""

from __future__ import annotations

import atexit
import threading
from typing import Any

from ..pysolution.extract import extract_code
from ..pysolution.pool import Pool
from ...reward.model import Policy, RewardResult, RewardStatus, make_result
from . import sandbox
from .rule import divergence, official_acc, plain_value, strict_acc
from .values import Value

POLICIES = (Policy.OFFICIAL, Policy.NUMERIC)
_LOCK = threading.Lock()
_POOL: list[Pool] = []


def _pool() -> Pool:
    if not _POOL:
        _POOL.append(Pool(2, sandbox.budget()))
        atexit.register(_close)
    return _POOL[0]


def _close() -> None:
    with _LOCK:
        for pool in _POOL:
            pool.close()
        _POOL.clear()


def _gold_value(gold: dict[str, Any]) -> int | float | bool | None:
    answer = gold.get("answer")
    if isinstance(answer, (bool, int, float)):
        return answer
    if isinstance(answer, str):  # verl's ground_truth is text: read back as the number or bool it was written from
        text = answer.strip()
        if text in ("True", "False"):
            return text == "True"
        value = plain_value(text)
        if value is not None and value.exact is not None:
            return int(value.exact) if value.category == "int" else float(value.exact)
        try:
            return float(text)  # str() of a float gold may use an exponent (1e-05)
        except ValueError:
            return None
    return None


def judge(completion: str, gold: int | float | bool) -> tuple[str, Value | None, Value | None, str]:
    """(status, the returned value, the value as the official rule judges it, message) for one completion."""
    code = extract_code(completion)
    if not code:
        return "no_code", None, None, "no code in the completion"
    with _LOCK:
        outcome = sandbox.run(_pool(), [("pot", code, "")])[0]
        value = outcome.value
        if value is None:
            return outcome.result.status.value, None, None, outcome.result.message
        if value.unpicklable is not None:
            return "unpicklable", value, None, "the official result queue cannot carry this value"
        judged: Value | None = value.normalized or value
        if value.kind == "text" and value.text is not None:
            judged = plain_value(value.text) or sandbox.run(_pool(), [("text", value.text, "")])[0].value
    return "ok", value, judged, ""


def score_financereasoning(completion: str, gold: dict[str, Any], policy: Any = None) -> RewardResult:
    """The reward core's result for a FinanceReasoning gold (``official`` by default, or ``numeric``: strict)."""
    from ...reward.gold import GoldRecordError, parse_policy
    try:
        chosen = parse_policy(policy if policy is not None else gold.get("policy") or "official")
    except GoldRecordError:
        return make_result(RewardStatus.BAD_POLICY, Policy.OFFICIAL, name=str(policy)[:100])
    if chosen not in POLICIES:
        return make_result(RewardStatus.BAD_POLICY, chosen, name=chosen.value)
    target = _gold_value(gold)
    if target is None:
        return make_result(RewardStatus.BAD_GOLD, chosen,
                           detail="a FinanceReasoning gold needs an int, float or bool 'answer'")
    if not isinstance(completion, str):
        return make_result(RewardStatus.BAD_INPUT, chosen, detail="the completion is not text")
    status, value, judged, message = judge(completion, target)
    if value is None or status != "ok":
        if status == "no_code":
            return make_result(RewardStatus.NO_PROGRAM, chosen, dialect="Python")
        return make_result(RewardStatus.PROGRAM_INVALID, chosen, detail=f"{status}: {message}"[:300])
    official = official_acc(judged, target)
    accepted = official if chosen is Policy.OFFICIAL else strict_acc(value, target)
    shown = value.shown()
    if accepted:
        return make_result(RewardStatus.OK, chosen, extracted=f"solution() = {shown}", gold=repr(target))
    note = f" ({divergence(value, judged, target)} under the official rule)" if official and judged else ""
    number = float(judged.exact) if judged is not None and judged.exact is not None else None
    return make_result(RewardStatus.WRONG, chosen, value=number, gold=repr(target) + note)
