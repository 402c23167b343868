"""What the scoring reports (score.md, score.html) show, derived from a :class:`ScoreReport`.

The views — failures grouped by reason, disagreements between scorers with the items
involved, coverage problems — are computed here from the score model, never stored in it,
so the Markdown and the HTML list the same things in the same order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from ..score.results import GoldItem, ScoredItem, Prediction, ScoreReport
from ..score.scoring import HAS_PROGRAM_ACCURACY
from .templates import anchors

MEASURES = ("execution", "program")


def reason(value: object) -> str:
    """A verdict's reason as text (an enum's value, or the string itself)."""
    return str(getattr(value, "value", value))


@dataclass(frozen=True, slots=True)
class FailureGroup:
    """The items one scorer does not count correct on one measure, for one reason."""

    scorer: str
    measure: str
    reason: str
    items: tuple[int, ...]
    """Indices into ``ScoreReport.items``."""


@dataclass(frozen=True, slots=True)
class Disagreement:
    """The items two scorers decide differently on one measure."""

    first: str
    second: str
    measure: str
    items: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CoverageRow:
    """One kind of coverage problem and the ids (or record descriptions) it concerns."""

    key: str
    label: str
    entries: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ScoreViews:
    """Everything both score reports print, computed once."""

    report: ScoreReport
    anchors: tuple[str, ...]
    """One HTML anchor per scored item (repeated ids get ``-2``, ``-3``)."""
    failures: tuple[FailureGroup, ...]
    disagreements: tuple[Disagreement, ...]
    coverage: tuple[CoverageRow, ...]
    gold_programs: dict[str, str]
    predicted_programs: dict[int, str]
    """Prediction position -> the program (or answer text) it gave."""


def measures_of(scorer: str) -> tuple[str, ...]:
    """The measures a scorer decides: execution, and program where it has program accuracy."""
    return MEASURES if scorer in HAS_PROGRAM_ACCURACY else MEASURES[:1]


def verdict_of(item: ScoredItem, scorer: str, measure: str) -> tuple[bool | None, str]:
    """(correct, reason) of one scorer on one measure of one item; ``None`` when the scorer has no such measure."""
    verdict = item.verdicts[scorer]
    if measure == "execution":
        return verdict.execution, reason(verdict.execution_why)
    return verdict.program, reason(verdict.program_why) if verdict.program_why is not None else ""


def _failures(report: ScoreReport) -> tuple[FailureGroup, ...]:
    groups: dict[tuple[str, str, str], list[int]] = {}
    for scorer in report.scorers:
        for measure in measures_of(scorer):
            for index, item in enumerate(report.items):
                correct, why = verdict_of(item, scorer, measure)
                if correct is False:
                    groups.setdefault((scorer, measure, why), []).append(index)
    order = list(report.scorers)
    return tuple(FailureGroup(scorer, measure, why, tuple(indices)) for (scorer, measure, why), indices in
                 sorted(groups.items(), key=lambda entry: (order.index(entry[0][0]), MEASURES.index(entry[0][1]),
                                                           -len(entry[1]), entry[0][2])))


def _disagreements(report: ScoreReport) -> tuple[Disagreement, ...]:
    rows = []
    for first, second in combinations(report.scorers, 2):
        for measure in measures_of(first):
            if measure not in measures_of(second):
                continue
            indices = tuple(index for index, item in enumerate(report.items)
                            if verdict_of(item, first, measure)[0] != verdict_of(item, second, measure)[0])
            rows.append(Disagreement(first, second, measure, indices))
    return tuple(rows)


def _coverage(report: ScoreReport) -> tuple[CoverageRow, ...]:
    return (
        CoverageRow("missing", "gold items without a prediction", tuple(report.missing_ids)),
        CoverageRow("unknown", "predictions whose id is not in the gold (left out of n)", tuple(report.unknown_ids)),
        CoverageRow("repeated", "repeated prediction ids (each counted, as the official loop does)",
                    tuple(report.duplicate_ids)),
        CoverageRow("unreadable", "unreadable prediction records", tuple(report.unreadable)),
        CoverageRow("gold_error", "items whose gold program the official script cannot symbolise",
                    tuple(report.gold_error_ids)),
    )


def _program(tokens: Sequence[str] | None, text: str | None) -> str:
    if text:
        return text
    return " ".join(tokens) if tokens else ""


def views(report: ScoreReport, gold: Sequence[GoldItem] = (), predictions: Sequence[Prediction] = ()) -> ScoreViews:
    """The derived views; ``gold`` and ``predictions`` (optional) add the program texts to each item's detail."""
    gold_programs: dict[str, str] = {}
    for item in gold:
        gold_programs.setdefault(item.id, _program(item.tokens, item.program_text))
    predicted = {pred.position: _program(pred.tokens, pred.program_text or pred.text) for pred in predictions}
    return ScoreViews(report, tuple(anchors("i", (item.id for item in report.items))), _failures(report),
                      _disagreements(report), _coverage(report), gold_programs, predicted)
