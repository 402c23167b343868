"""Counts in messages: ``1 question``, ``2 questions`` — the one helper every message with a count uses."""

from __future__ import annotations

IRREGULAR = {"process": "processes", "query": "queries", "entry": "entries", "its": "their", "is": "are",
             "was": "were", "has": "have", "does": "do", "gets": "get", "differs": "differ"}
"""Plurals (and verb forms agreeing with a count) that are not the noun plus ``s``."""


def plural_of(noun: str, count: int) -> str:
    """``noun`` as it agrees with ``count`` (``question``/``questions``; ``is``/``are``)."""
    if count == 1:
        return noun
    head, _, last = noun.rpartition(" ")  # "worker process": the last word takes the plural
    return f"{head} {IRREGULAR.get(last, last + 's')}" if head else IRREGULAR.get(last, last + "s")


def plural(count: int, noun: str, grouped: bool = False) -> str:
    """``count noun`` with the noun agreeing: ``1 question``, ``0 questions``; ``grouped``: ``1,234 cases``."""
    return f"{count:,} {plural_of(noun, count)}" if grouped else f"{count} {plural_of(noun, count)}"
