"""Reward functions that judge right but leave something running on every call (``check-reward`` fails them)."""

from __future__ import annotations

import os
import threading
from typing import Any

from tests.reward_zoo import judge


def _daemon() -> None:
    """Double-fork a process that detaches (new session, no descriptors) and sleeps on."""
    first = os.fork()
    if first == 0:
        try:
            if os.fork() == 0:
                os.setsid()
                os.closerange(0, 65536)
                threading.Event().wait(3600)
        finally:
            os._exit(0)
    os.waitpid(first, 0)


def daemon_per_call_reward(completion: str, gold: dict[str, Any]) -> float:
    """Right rewards; a detached daemon left behind by every call."""
    _daemon()
    return judge(completion, gold)


def thread_per_call_reward(completion: str, gold: dict[str, Any]) -> float:
    """Right rewards; a daemon thread that never ends started by every call."""
    threading.Thread(target=threading.Event().wait, name="leaky-watcher", daemon=True).start()
    return judge(completion, gold)


def lingering_thread_reward(completion: str, gold: dict[str, Any]) -> float:
    """Right rewards; a non-daemon thread that never ends started by every call (the process cannot exit)."""
    threading.Thread(target=threading.Event().wait, name="leaky-lingerer").start()
    return judge(completion, gold)


def one_pool_reward(completion: str, gold: dict[str, Any]) -> float:
    """Right rewards; one helper thread started on the first call and reused (a cache, not a leak per call)."""
    global _HELPER
    if _HELPER is None:
        _HELPER = threading.Thread(target=threading.Event().wait, name="one-helper", daemon=True)
        _HELPER.start()
    return judge(completion, gold)


_HELPER: threading.Thread | None = None
