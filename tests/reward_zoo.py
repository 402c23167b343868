"""A zoo of reward functions for ``check-reward``'s tests: a strict reader written from the suite's
documented rules (docs/check-reward.md), each known mistake of real FinQA rewards as that reader
with one rule changed, and thin wrappers of progexec's own reward in each framework's shape.

Every function here is ``f(completion, gold) -> float`` (``--signature plain``) unless noted.
"""

from __future__ import annotations

import json
import math
import os
import re
import signal
import time
from typing import Any

from progexec.integrations.trl import ProgexecReward
from progexec.reward import score_completion

LONG = 100_000
_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
_MARKED = re.compile(r"(?:answer:|####|the answer is)\s*(.+)", re.IGNORECASE)
_NUMBER = re.compile(r"(\()?\s*([-\u2212])?\s*\$?\s*(\d[\d,]*(?:\.\d+)?|\.\d+)\s*\)?\s*"
                     r"(%|percent|thousand|million|billion)?", re.IGNORECASE)
_HEDGES = re.compile(r"\b(not|cannot|maybe|perhaps|unsure)\b", re.IGNORECASE)
_OPTION = re.compile(r"(?:^|,)\s*([a-e])\s*\)\s*")
_MIXED = re.compile(r"\s*(?:(\d+)\s+)?(\d+(?:\.\d+)?)\s*/\s*(\d+(?:\.\d+)?)")
_SCALES = {"%": 0.01, "percent": 0.01, "thousand": 1e3, "million": 1e6, "billion": 1e9}


def span(completion: str) -> str | None:
    """The final answer's text: the one boxed value, else the last marked line, else a bare last line."""
    if len(completion) > LONG:
        return None
    boxed = set(_BOXED.findall(completion))
    if len(boxed) > 1:
        return None
    if boxed:
        return str(boxed.pop()).strip()
    marked = [match.group(1).strip() for match in _MARKED.finditer(completion)]
    if marked:
        return marked[-1].rstrip(".")
    lines = completion.strip().splitlines()
    return lines[-1].strip() if lines else None


def numbers(text: str, percent: bool = True) -> list[float]:
    """Every number in ``text`` with its sign, parentheses, separators, percent and scale word read."""
    found = []
    for match in _NUMBER.finditer(text):
        value = float(match.group(3).replace(",", ""))
        if match.group(2) or (match.group(1) and match.group(0).rstrip().endswith(")")):
            value = -value
        unit = (match.group(4) or "").lower()
        if unit in _SCALES and (percent or unit not in ("%", "percent")):
            value *= _SCALES[unit]
        found.append(value)
    return found


def gold_value(gold: dict[str, Any]) -> float | bool | str:
    answer = gold["answer"]
    if isinstance(answer, str) and answer.strip().lower() in ("yes", "no"):
        return answer.strip().lower() == "yes"
    if gold.get("options"):
        return str(answer).strip()
    return float(answer)


def option_value(options: str, letter: str) -> float | None:
    """An option's value as MathQA writes it: ``2 1 / 2``, ``6 / 7``, else its first number (``80 %`` is 80)."""
    parts = _OPTION.split(options.strip("[]").replace("'", "").replace('"', ""))
    for found, text in zip(parts[1::2], parts[2::2]):
        if found == letter:
            mixed = _MIXED.match(text)
            if mixed:
                whole, top, bottom = (float(part) for part in mixed.groups(default="0"))
                return whole + top / bottom if bottom else None
            values = numbers(text, percent=False)
            return values[0] if values else None
    return None


def near(value: float, gold: float) -> bool:
    return abs(value - gold) <= 1e-3 * abs(gold) if gold else abs(value) < 1e-9


def judge(completion: str, gold: dict[str, Any], *, percent: bool = True, compare: Any = near) -> float:
    """The strict reader: 1.0 when the completion's one final answer is the gold, else 0.0."""
    text = span(completion)
    want = gold_value(gold)
    if not text or _HEDGES.search(text):
        return 0.0
    if isinstance(want, bool):
        word = text.lower().split()[0].strip(".,") if text.split() else ""
        return float(word in ("yes", "no") and (word == "yes") == want)
    if isinstance(want, str):
        letter = re.fullmatch(r"\(?([a-e])\)?", text.lower())
        if letter:
            return float(letter.group(1) == want)
        value = option_value(str(gold["options"]), want)
        want = math.nan if value is None else value
    found = numbers(text, percent)
    return float(len(found) == 1 and compare(found[0], want))


# -- correct ------------------------------------------------------------------------------------------

def correct_reward(completion: str, gold: dict[str, Any]) -> float:
    return judge(completion, gold)


def progexec_plain(completion: str, gold: dict[str, Any]) -> float:
    return score_completion(completion, gold).score


progexec_trl = ProgexecReward()
"""progexec's TRL reward, an instance (``--signature trl``)."""


# -- one rule wrong each ----------------------------------------------------------------------------------

def scale_guess_reward(completion: str, gold: dict[str, Any]) -> float:
    """Accepts the answer at any of five scales (x1, x100, /100, x1000, /1000)."""
    return judge(completion, gold, compare=lambda value, want: any(
        near(value, want * scale) for scale in (1, 100, 0.01, 1000, 0.001)))


def percent_ignored_reward(completion: str, gold: dict[str, Any]) -> float:
    """Reads ``14.46%`` as 14.46."""
    return judge(completion, gold, percent=False)


def sign_ignored_reward(completion: str, gold: dict[str, Any]) -> float:
    """Compares absolute values."""
    return judge(completion, gold, compare=lambda value, want: near(abs(value), abs(want)))


def first_number_reward(completion: str, gold: dict[str, Any]) -> float:
    """Takes the first number anywhere in the completion."""
    if len(completion) > LONG or not isinstance(gold_value(gold), float):
        return judge(completion, gold)
    found = numbers(completion)
    return float(bool(found) and near(found[0], float(gold["answer"])))


def substring_reward(completion: str, gold: dict[str, Any]) -> float:
    """Rewards any completion that contains the gold rounded to two places."""
    want = gold_value(gold)
    if not isinstance(want, float):
        return judge(completion, gold)
    return float(f"{want:.2f}" in completion)


def alarm_reward(completion: str, gold: dict[str, Any]) -> float:
    """A ``signal.alarm`` timeout: outside the main thread ``signal.signal`` raises, and the reward is 0."""
    def expired(signum: int, frame: Any) -> None:
        raise TimeoutError("reward timed out")
    try:
        signal.signal(signal.SIGALRM, expired)
        signal.alarm(5)
    except ValueError:  # "signal only works in main thread of the main interpreter"
        return 0.0
    try:
        return judge(completion, gold)
    finally:
        signal.alarm(0)


_CACHE: dict[str, float] = {}


def cached_reward(completion: str, gold: dict[str, Any]) -> float:
    """Caches the reward by the gold answer, so every later completion for that gold gets the first one's."""
    key = json.dumps(gold.get("answer"))
    if key not in _CACHE:
        _CACHE[key] = judge(completion, gold)
    return _CACHE[key]


def long_input_hang_reward(completion: str, gold: dict[str, Any]) -> float:
    """Hangs on a long completion (as a backtracking pattern does)."""
    while len(completion) > 50_000:
        time.sleep(0.05)
    return judge(completion, gold)


def table_reward(completion: str, gold: dict[str, Any]) -> float:
    """Reads the gold's table unconditionally: a KeyError for a record without one (every MathQA record)."""
    if not gold["table"]:
        return 0.0
    return judge(completion, gold)


def exit_reward(completion: str, gold: dict[str, Any]) -> float:
    """Ends its process on an empty completion (``os._exit``), as a native crash would."""
    if not completion:
        os._exit(3)
    return judge(completion, gold)


def string_reward(completion: str, gold: dict[str, Any]) -> Any:
    """Returns ``"1"`` or ``"0"``: a string, not a number."""
    return str(int(judge(completion, gold)))
