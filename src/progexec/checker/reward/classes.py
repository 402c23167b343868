"""The finding classes of ``check-reward`` (data; the reporters format them)."""

from __future__ import annotations

from enum import Enum


class RewardClass(str, Enum):
    """What is wrong with a reward function on one case; ``.explain`` says it in a line."""

    FALSE_POSITIVE = "false_positive"
    FALSE_NEGATIVE = "false_negative"
    THREAD_DEPENDENT = "thread_dependent"
    NONDETERMINISTIC = "nondeterministic"
    HANG = "hang"
    CRASH = "crash"
    BAD_RETURN = "bad_return"

    @property
    def explain(self) -> str:
        return _EXPLAIN[self]


_EXPLAIN = {
    RewardClass.FALSE_POSITIVE: "a wrong answer was rewarded: the reward can be gamed",
    RewardClass.FALSE_NEGATIVE: "a right answer was not rewarded",
    RewardClass.THREAD_DEPENDENT: "a different reward, or an exception, only off the main thread "
                                  "(worker threads or a process pool)",
    RewardClass.NONDETERMINISTIC: "a different reward for the same case in another order or a fresh process",
    RewardClass.HANG: "no reward within the per-call timeout (the call was killed)",
    RewardClass.CRASH: "the function raised, or its process died",
    RewardClass.BAD_RETURN: "the reward is not a finite number (or is outside --range)",
}

DEFAULT_FAIL_ON = (RewardClass.FALSE_POSITIVE, RewardClass.THREAD_DEPENDENT, RewardClass.HANG, RewardClass.CRASH)
"""The classes that fail a run unless ``--fail-on`` says otherwise."""

ORDER = tuple(RewardClass)
"""The report order of the classes."""


def parse_classes(text: str) -> tuple[RewardClass, ...]:
    """``"false_positive,hang"`` -> the classes; ValueError naming an unknown one. ``""`` or ``none``: no class."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if names == ["none"]:
        return ()
    if names == ["all"]:
        return ORDER
    out = []
    for name in names:
        try:
            out.append(RewardClass(name))
        except ValueError:
            raise ValueError(f"unknown class {name!r}; known: {', '.join(kind.value for kind in ORDER)}, all, none") \
                from None
    return tuple(out)
