"""The scoring data model: gold items, predictions, per-item verdicts and the run report.

One model feeds every reporter (text table, ``--json``, ``--items`` lines); nothing
here formats text.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from ..core.table import Table
from .equivalence import Why


@dataclass(frozen=True, slots=True)
class GoldItem:
    """One gold question: its program as official tokens, table, ``exe_ans`` and (if present) ``qa.answer``.

    ``program_text`` is the dataset's text form when it had one (unitxt rebuilds the
    nested ``program_re`` from it); ``dialect`` is ``finqa`` or ``convfinqa``.
    """

    id: str
    tokens: tuple[str, ...] | None
    table: Table | None
    exe_ans: float | str | None
    answer: str | None = None
    dialect: str = "finqa"
    program_text: str | None = None
    error: str | None = None


@dataclass(frozen=True, slots=True)
class Prediction:
    """One prediction line. ``tokens`` is the official token list (text is tokenized the
    official way on reading); ``text`` is free model text for the answer scorers.
    ``id`` is empty when the record has no usable id; ``error`` says what was wrong;
    ``program_text`` keeps a program given as text (HELM and unitxt read the text)."""

    id: str
    tokens: tuple[str, ...] | None
    text: str | None = None
    position: int = 0
    error: str | None = None
    program_text: str | None = None


class ExecutionWhy(str, enum.Enum):
    """Why one scorer did (not) count an item's execution: the one vocabulary of every scorer."""

    OK = "ok"
    FALLBACK_OK = "fallback_ok"                # unitxt: the expression fallback matched
    NO_PROGRAM = "no_program"
    NO_ANSWER = "no_answer"
    NO_NUMBER = "no_number"                    # HELM float_equiv: no number to compare
    NO_GOLD_ANSWER = "no_gold_answer"
    EXECUTION_INVALID = "execution_invalid"
    VALUE_DIFFERS = "value_differs"
    FALLBACK_NO_MATCH = "fallback_no_match"    # unitxt: the expression fallback did not match


@dataclass(frozen=True, slots=True)
class Verdict:
    """One scorer's decision on one item. ``program`` is None for scorers without program accuracy."""

    execution: bool
    program: bool | None
    execution_why: ExecutionWhy
    program_why: Why | None = None
    detail: str = ""


@dataclass(slots=True)
class ScoredItem:
    """Every requested scorer's verdict on one (gold, prediction) pair, plus what the official script would do."""

    id: str
    position: int
    verdicts: dict[str, Verdict]
    official_value: Any = None
    gold_value: Any = None
    would_abort: bool = False
    decided_by: str = ""
    stopped_by_clock: bool = False  # the per-item clock, not a counted bound, decided a verdict here


@dataclass(slots=True)
class ScorerFigures:
    """Counts for one scorer over the matched predictions."""

    name: str
    n: int = 0
    execution_correct: int = 0
    program_correct: int | None = None

    @property
    def execution_accuracy(self) -> float:
        """Correct / n, as the official script divides (0.0 for an empty run)."""
        return float(self.execution_correct) / self.n if self.n else 0.0

    @property
    def program_accuracy(self) -> float | None:
        if self.program_correct is None:
            return None
        return float(self.program_correct) / self.n if self.n else 0.0


@dataclass(slots=True)
class ScoreReport:
    """A whole scoring run: figures per scorer, coverage problems, aborts, per-item results."""

    gold_source: str
    pred_source: str
    dialect: str
    n_gold: int
    n_predictions: int
    scorers: dict[str, ScorerFigures]
    items: list[ScoredItem]
    unknown_ids: list[str] = field(default_factory=list)
    duplicate_ids: list[str] = field(default_factory=list)
    missing_ids: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)
    would_abort_ids: list[str] = field(default_factory=list)
    gold_error_ids: list[str] = field(default_factory=list)
    stopped_by_clock_ids: list[str] = field(default_factory=list)

    @property
    def headline(self) -> str:
        """The scorer whose figures head the report: ``official`` when it ran, else the first scorer run."""
        return "official" if "official" in self.scorers else next(iter(self.scorers))

    @property
    def n(self) -> int:
        """The denominator: predictions whose id is in the gold (duplicates counted, as the official loop does)."""
        return len(self.items)
