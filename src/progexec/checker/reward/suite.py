"""The reward suite: ``N`` cases (completion, gold record, expected reward, form), a pure function of the seed.

Cases are shared among the forms by their weights (every form gets at least one case when ``N``
allows), each written from a gold drawn at random among those the form suits, then shuffled so
the forms interleave. ``export`` writes them as JSON Lines, byte-identical for a seed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...core.limits import current, DEFAULT_LIMITS
from ...core.errors import OptionError
from .forms import FORMS, FORMS_BY_NAME, Form
from .golds import Gold, gold_pool

DEFAULT_CASES = DEFAULT_LIMITS.reward_suite_cases
SUITE_FILE = "reward.jsonl"
GROUP = DEFAULT_LIMITS.reward_suite_group
"""Cases written for one gold, at most (different forms)."""


@dataclass(frozen=True)
class RewardCase:
    """One completion to reward, its gold record (``policy`` included) and the reward it deserves."""

    id: str
    form: str
    completion: str
    gold: dict[str, Any]
    expected: float
    gold_key: str

    def export(self) -> dict[str, Any]:
        return {"completion": self.completion, "gold": self.gold, "expected_reward": self.expected,
                "form": self.form}


@lru_cache(maxsize=None)
def _applicable(name: str) -> tuple[Gold, ...]:
    form = FORMS_BY_NAME[name]
    return tuple(gold for gold in gold_pool() if form.applies(gold))


def select_forms(names: Iterable[str] | None) -> tuple[Form, ...]:
    """The forms named (all of them for None); OptionError naming an unknown one."""
    if names is None:
        return FORMS
    chosen = []
    for name in names:
        if name not in FORMS_BY_NAME:
            raise OptionError(f"unknown form {name!r}; known: {', '.join(FORMS_BY_NAME)}")
        chosen.append(FORMS_BY_NAME[name])
    if not chosen:
        raise OptionError("no form selected")
    return tuple(chosen)


def _shares(forms: Sequence[Form], total: int) -> list[int]:
    """Cases per form: proportional to weight, at least one each when ``total`` allows, summing to ``total``."""
    weights = [form.weight for form in forms]
    scale = sum(weights)
    counts = [int(total * weight / scale) for weight in weights]
    if total >= len(forms):
        counts = [max(1, count) for count in counts]
    order = sorted(range(len(forms)), key=lambda i: (-(total * weights[i] / scale - int(total * weights[i] / scale)), i))
    index = 0
    while sum(counts) < total:
        counts[order[index % len(order)]] += 1
        index += 1
    while sum(counts) > total:
        victim = max(range(len(forms)), key=lambda i: (counts[i], -i))
        counts[victim] -= 1
    return counts


def _write(form: Form, rng: random.Random) -> tuple[Gold, str] | None:
    golds = _applicable(form.name)
    if not golds:
        return None
    for _ in range(current().max_suite_draws):
        gold = golds[rng.randrange(len(golds))]
        text = form.render(gold, rng)
        if text is not None:
            return gold, text
    start = rng.randrange(len(golds))
    for offset in range(len(golds)):
        gold = golds[(start + offset) % len(golds)]
        text = form.render(gold, rng)
        if text is not None:
            return gold, text
    return None


def build_suite(cases: int = DEFAULT_CASES, seed: int = 0, forms: Iterable[str] | None = None) -> list[RewardCase]:
    """``cases`` cases over the chosen forms (all by default), deterministic for ``seed``.

    Golds are used in groups, as a GRPO step scores several completions of one prompt: after a
    form draws a gold, up to ``GROUP - 1`` other forms with cases left are written for the same gold.
    """
    if not 1 <= cases <= current().max_suite_cases:
        raise OptionError(f"the suite size must be between 1 and {current().max_suite_cases:,}, got {cases}")
    chosen = select_forms(forms)
    rng = random.Random(seed)
    left = dict(zip((form.name for form in chosen), _shares(chosen, cases)))
    written: list[tuple[str, Gold, str]] = []
    while any(left.values()):
        lead = max(chosen, key=lambda form: left[form.name])  # ties: the first in FORMS order
        result = _write(lead, rng)
        left[lead.name] -= 1
        if result is None:
            continue
        gold = result[0]
        written.append((lead.name, *result))
        others = [form for form in chosen if left[form.name] and form.applies(gold)]
        rng.shuffle(others)
        for form in others[:current().reward_suite_group - 1]:
            text = form.render(gold, rng)
            if text is not None:
                left[form.name] -= 1
                written.append((form.name, gold, text))
    rng.shuffle(written)
    out = []
    for index, (name, gold, text) in enumerate(written):
        form = FORMS_BY_NAME[name]
        record = {key: value for key, value in gold.record.items() if value is not None}
        record["policy"] = form.policy
        out.append(RewardCase(f"r{index:06d}", name, text, record, 1.0 if form.correct else 0.0, gold.key))
    return out


def export(directory: Path, cases: int | None, seed: int) -> dict[str, int]:
    """Write the suite as ``reward.jsonl`` in ``directory``; the number of cases per file."""
    suite = build_suite(cases or current().reward_suite_cases, seed)
    directory.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(case.export(), ensure_ascii=False, sort_keys=False) for case in suite]
    (directory / SUITE_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8", newline="\n")
    return {SUITE_FILE: len(suite)}
