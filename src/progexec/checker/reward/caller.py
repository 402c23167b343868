"""Calling the reward function under test: a leashed child process answering batches of cases.

Three ways in: ``--python MODULE:FUNC`` with a signature (:mod:`.child` loads it), ``--url`` (the
child posts OpenRLHF's body to the server) and ``--cmd`` (any program: one JSON case per line in,
one JSON answer per line out, in order, flushed). Every call goes through the leash
(:class:`~progexec.checker.engine.ChildExchange`): a call with no answer within ``timeout`` seconds
is a hang and the child is killed and restarted; a child that dies is a crash; the cases after
it are sent again. After ``max_hangs`` hangs the remaining cases are not run (the report says so).
"""

from __future__ import annotations

import ipaddress
import json
import socket
import sys
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Optional

from ...core.limits import current, DEFAULT_LIMITS
from ...core.errors import OptionError, SetupError
from ..engine import ChildExchange, Fault, FaultKind
from .suite import RewardCase
from ...core.plural import plural

SIGNATURES = ("verl", "verl-batch", "trl", "openrlhf", "plain")
BATCHED = frozenset({"verl-batch", "trl", "openrlhf", "url"})
DEFAULT_BATCH = DEFAULT_LIMITS.reward_check_batch
DEFAULT_TIMEOUT = DEFAULT_LIMITS.reward_call_timeout_seconds
PROMPT = "Question: answer from the table and text above.\nResponse: "
"""The prompt that OpenRLHF and TRL callers receive beside each completion."""
READY = b"progexec-rewardchild ready\n"
CHILD = Path(__file__).with_name("child.py")


def _child_bounds() -> list[str]:
    """The child's bounds as its last arguments: ``reward_probe_threads``, ``reward_probe_processes``,
    ``reward_answer_chars``, ``reward_named_threads``."""
    limits = current()
    return [str(limits.reward_probe_threads), str(limits.reward_probe_processes), str(limits.reward_answer_chars),
            str(limits.reward_named_threads)]


class Kind(str, Enum):
    """What one call gave."""

    REWARD = "reward"
    BAD = "bad"
    CRASH = "crash"
    HANG = "hang"
    NOT_RUN = "not_run"


@dataclass(frozen=True, slots=True)
class Outcome:
    """One case's result: a reward, a bad return (described), a crash or a hang (with detail)."""

    kind: Kind
    value: Optional[float] = None
    detail: str = ""

    def describe(self) -> str:
        if self.kind is Kind.REWARD:
            return repr(self.value)
        return f"{self.kind.value}: {self.detail}" if self.detail else self.kind.value

    def same(self, other: Outcome) -> bool:
        """The same reward, or the same kind of failure."""
        return self.kind is other.kind and (self.kind is not Kind.REWARD or self.value == other.value)


def check_url(url: str, allow_remote: bool) -> None:
    """OptionError unless ``url`` is http(s) to a loopback address (any address with ``allow_remote``)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise OptionError(f"--url wants http://HOST:PORT/PATH, not {url!r}")
    if allow_remote:
        return
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(parts.hostname, parts.port or 80)}
    except OSError as error:
        raise OptionError(f"cannot resolve {parts.hostname}: {error}") from None
    if not addresses or not all(ipaddress.ip_address(str(address).split("%")[0]).is_loopback
                                for address in addresses):
        raise OptionError(f"{parts.hostname} is not a loopback address; pass --allow-remote to call it")


class RewardCaller:
    """The function under test in a leashed child; :meth:`call` gives one Outcome per case, in order."""

    def __init__(self, argv: Sequence[str], *, per_case: bool, batch: int, timeout: float,
                 max_hangs: int | None = None, name: str = "") -> None:
        self.argv, self.per_case, self.batch = list(argv), per_case, max(1, batch)
        self.timeout, self.name = timeout, name
        self.max_hangs = current().max_reward_hangs if max_hangs is None else max_hangs
        self.exchange = ChildExchange(self.argv, timeout=timeout, chunk=1 << 30, max_line=current().max_answer_line_bytes,
                                      max_restarts=1 << 30, stall=timeout, ready=None if per_case else READY)
        self.hangs = 0
        self.deaths = 0
        self.notes: list[str] = []
        self.threads_first: int | None = None  # the function's threads running after its first answered call
        self.threads_last = 0                  # ... and after its last
        self.thread_names: list[str] = []

    @classmethod
    def python(cls, spec: str, signature: str, mode: str, *, batch: int, timeout: float,
               max_hangs: int | None = None) -> RewardCaller:
        size = batch if signature in BATCHED else 1
        return cls([sys.executable, str(CHILD), signature, spec, mode, *_child_bounds()], per_case=False, batch=size,
                   timeout=timeout, max_hangs=max_hangs, name=spec)

    @classmethod
    def url(cls, url: str, mode: str, *, batch: int, timeout: float,
            max_hangs: int | None = None) -> RewardCaller:
        return cls([sys.executable, str(CHILD), "url", url, mode, *_child_bounds()], per_case=False, batch=batch,
                   timeout=timeout, max_hangs=max_hangs, name=url)

    @classmethod
    def command(cls, argv: Sequence[str], *, timeout: float, max_hangs: int | None = None) -> RewardCaller:
        return cls(argv, per_case=True, batch=1, timeout=timeout, max_hangs=max_hangs, name=" ".join(argv))

    def start(self) -> None:
        """Start the child now; OptionError when it cannot start or load the function."""
        try:
            self.exchange.start()
        except SetupError as error:
            raise OptionError(f"cannot start {self.name}: {error}") from None

    def close(self) -> None:
        self.exchange.close()
        self.notes.extend(self.exchange.notes)

    @property
    def gave_up(self) -> bool:
        return self.hangs >= self.max_hangs or self.deaths >= current().max_reward_deaths

    # -- requests and answers ------------------------------------------------------------------------
    def _line(self, number: int, cases: Sequence[RewardCase]) -> bytes:
        if self.per_case:
            case = cases[0]
            record: dict[str, Any] = {"id": case.id, "completion": case.completion, "gold": case.gold}
        else:
            record = {"id": number, "items": [{"completion": case.completion, "gold": case.gold, "prompt": PROMPT}
                                              for case in cases]}
        return json.dumps(record, ensure_ascii=True).encode("ascii") + b"\n"

    def _parse(self, line: bytes, cases: Sequence[RewardCase]) -> list[Outcome]:
        try:
            answer = json.loads(line)
        except (ValueError, RecursionError):
            return [Outcome(Kind.BAD, detail=f"the answer line is not JSON: {line[:120]!r}")] * len(cases)
        if not isinstance(answer, dict):
            return [Outcome(Kind.BAD, detail=f"the answer is not a JSON object: {line[:120]!r}")] * len(cases)
        self._count_threads(answer)
        if "error" in answer:
            return [Outcome(Kind.CRASH, detail=str(answer.get("detail") or answer["error"])[:300])] * len(cases)
        if self.per_case:
            if answer.get("id") != cases[0].id:
                return [Outcome(Kind.BAD, detail=f"the answer carries id {str(answer.get('id'))[:40]!r}, "
                                                 f"not {cases[0].id!r} (answers out of order)")]
            return [_reward(answer.get("reward", {"bad": "no reward key"}))]
        rewards = answer.get("rewards")
        if not isinstance(rewards, list) or len(rewards) != len(cases):
            return [Outcome(Kind.BAD, detail="malformed answer from the child")] * len(cases)
        return [_reward(value) for value in rewards]

    def _count_threads(self, answer: dict[str, Any]) -> None:
        """Keep what the child says of the function's threads still running after this call."""
        count = answer.get("threads", 0)
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            count = 0
        if self.threads_first is None:
            self.threads_first = count
        self.threads_last = count
        names = answer.get("thread_names")
        if count and isinstance(names, list):
            self.thread_names = [str(name)[:80] for name in names[:3]]

    def leaks(self) -> list[str]:
        """What the function left running, as the report names it: processes still running when its process ended
        (the reaper killed them), or threads that grew with its calls (more after the last call than after the
        first: a one-time helper thread is no leak)."""
        found = [fault.detail for fault in self.exchange.faults if fault.kind is FaultKind.NO_EXIT]
        first = self.threads_first or 0
        if self.threads_last > first:
            shown = ", ".join(self.thread_names)
            found.append(f"the function left {plural(self.threads_last, 'thread')} running after its calls ({first} after "
                         f"its first call; e.g. {shown}): a thread per call that never ends")
        return found

    def call(self, cases: Sequence[RewardCase]) -> list[Outcome]:
        """One Outcome per case, in order; a batch that crashed or hung is called again case by case."""
        groups = [list(cases[start:start + self.batch]) for start in range(0, len(cases), self.batch)]
        out: list[Outcome] = []
        for group, outcomes in zip(groups, self._run(groups)):
            if len(group) > 1 and outcomes[0].kind in (Kind.CRASH, Kind.HANG):
                outcomes = [result for single in self._run([[case] for case in group]) for result in single]
            out.extend(outcomes)
        return out

    def _run(self, groups: list[list[RewardCase]]) -> list[list[Outcome]]:
        """Outcomes per group; after a fault the groups not answered are sent again to a new child."""
        results: list[list[Outcome]] = []
        while len(results) < len(groups):
            if self.gave_up:
                detail = f"not run: the function hung {plural(self.hangs, 'time')}" if self.hangs >= self.max_hangs \
                    else f"not run: the function's process died {plural(self.deaths, 'time')}"
                results += [[Outcome(Kind.NOT_RUN, detail=detail)] * len(group) for group in groups[len(results):]]
                break
            pending = groups[len(results):]
            answers = self.exchange.exchange([self._line(len(results) + index, group)
                                              for index, group in enumerate(pending)])
            for group, answer in zip(pending, answers):
                if isinstance(answer, Fault):
                    hang = "no progress" in answer.detail
                    self.hangs += hang and len(group) == 1  # a batch that hung is retried case by case
                    self.deaths += not hang and len(group) == 1
                    results.append([Outcome(Kind.HANG if hang else Kind.CRASH, detail=answer.detail[:300])]
                                   * len(group))
                    self.exchange.kill()
                    break
                results.append(self._parse(answer, group))
        return results


def _reward(value: Any) -> Outcome:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        if isinstance(value, dict) and isinstance(value.get("bad"), str):
            return Outcome(Kind.BAD, detail=value["bad"])
        return Outcome(Kind.BAD, detail=f"not a number: {json.dumps(value)[:120]}")
    return Outcome(Kind.REWARD, float(value))
