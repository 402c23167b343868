"""The scoring run model: what every ``score`` reporter formats, built once per run."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..score.results import GoldItem, Prediction, ScoreReport


@dataclass(frozen=True, slots=True)
class ScoreRun:
    """One scoring run: the scored report, the inputs it was scored on and the run's ``meta``.

    ``gold`` and ``predictions`` only supply program texts to the detail views (score.md,
    score.html); a run built from a bare :class:`ScoreReport` has none and shows none."""

    report: ScoreReport
    gold: Sequence[GoldItem] = ()
    predictions: Sequence[Prediction] = ()
    meta: dict[str, Any] | None = None


def as_score_run(model: ScoreRun | ScoreReport) -> ScoreRun:
    """``model`` itself, or a bare :class:`ScoreReport` wrapped as a run without inputs or meta."""
    return model if isinstance(model, ScoreRun) else ScoreRun(model)
