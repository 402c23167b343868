"""Match predictions to gold and run the requested scorers: one :class:`ScoreReport` per run.

Nothing is dropped silently: predictions whose id is not in the gold, repeated ids,
unreadable records and gold items without a prediction are all listed. The
denominator ``n`` is what the official loop divides by — every prediction record whose
id is in the gold, repeats included (the official script would crash on an unknown id;
here such records are listed and left out of ``n``). A record with a known id but an
unusable program stays in ``n`` and scores 0, as the official functions score it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import partial
from itertools import combinations
from typing import Any

from . import official_scorer as official, peers
from .results import GoldItem, ScoredItem, Prediction, ScoreReport, ScorerFigures, Verdict
from ..core.limits import Limits, current, using
from ..parallel import Engine, ParallelError, ParallelOptions, PerItem, fork_is_safe, parallel_map
from ..runner import prepare
from .loading import LOOKS_LIKE_GOLD
from .official_scorer import ItemContext
from .equivalence import Why, prepare_symbolic
from ..core.plural import plural
from ..core.errors import InputError

Scorer = Callable[[ItemContext], Verdict]

SCORERS: dict[str, Scorer] = {
    "official": official.score,
    "helm-fin-qa": peers.helm_fin_qa,
    "helm-float-equiv": peers.helm_float_equiv,
    "pot": peers.pot,
    "unitxt": peers.unitxt,
    "unitxt-2024": peers.unitxt_2024,
}
"""Every scorer by its ``--scorer`` name, official first."""

HAS_PROGRAM_ACCURACY = frozenset({"official", "helm-fin-qa", "unitxt", "unitxt-2024"})


def resolve_scorers(names: Sequence[str] | None) -> list[str]:
    """Expand ``all`` and check names: exactly the scorers named, in :data:`SCORERS` order (``official``
    alone when none is named). ``would_abort`` and the gold symbolisation are the official scorer's, so
    they are reported only when it runs."""
    wanted: list[str] = []
    for name in names or ["official"]:
        for part in name.split(","):
            part = part.strip()
            if not part:
                continue
            if part == "all":
                wanted.extend(SCORERS)
            elif part in SCORERS:
                wanted.append(part)
            else:
                raise KeyError(part)
    if not wanted:
        raise KeyError(",".join(names or []))
    return [name for name in SCORERS if name in wanted]


def check_inputs(gold: Sequence[GoldItem], predictions: Sequence[Prediction], names: Sequence[str],
                 gold_source: str = "GOLD", pred_source: str = "PRED") -> None:
    """Refuse, with the likely cause, inputs that would only score 0.0 silently: no gold, no usable
    prediction, no prediction id in the gold, swapped files, answer-only predictions under a program scorer."""
    if not gold:
        raise InputError(f"{gold_source}: no gold items")
    if not predictions:
        raise InputError(f"{pred_source}: no predictions (the file is empty)")
    usable = [pred for pred in predictions if pred.error is None]
    gold_like = sum(1 for pred in predictions if pred.error and LOOKS_LIKE_GOLD in pred.error)
    without_answers = all(item.exe_ans is None for item in gold)
    if gold_like > len(predictions) // 2 or (without_answers and not usable):
        raise InputError(f"{pred_source} holds dataset items, not predictions, and {gold_source} has no gold "
                              f"answers: the two files look swapped (use --gold DATASET --pred PREDICTIONS)")
    if not usable:
        first = next((pred.error for pred in predictions if pred.error), "")
        raise InputError(f"{pred_source}: no usable prediction in {plural(len(predictions), 'record')} (first "
                              f"problem: "
                              f"{first}); predictions are JSON or JSON Lines records with an id and a program "
                              "or an answer (a CSV file is not read)")
    gold_ids = {item.id for item in gold}
    matched = [pred for pred in usable if pred.id in gold_ids]
    if not matched:
        hint = _split_hint(usable, gold_source)
        raise InputError(f"none of the {len(usable)} prediction ids of {pred_source} is in {gold_source} "
                              f"({plural(len(gold_ids), 'gold id')}; e.g. prediction id {usable[0].id!r}){hint}")
    if without_answers:
        raise InputError(f"{gold_source} has no gold answers (exe_ans): is it a prediction file? "
                              "(use --gold DATASET --pred PREDICTIONS)")
    program_scorers = [name for name in names if name in HAS_PROGRAM_ACCURACY]
    if set(names) <= HAS_PROGRAM_ACCURACY and all(pred.tokens is None for pred in matched):
        raise InputError(f"{pred_source} holds answers only (no programs), and the scorers "
                              f"{', '.join(program_scorers)} execute programs: score answers with "
                              "--scorer helm-float-equiv or --scorer pot")


def _split_hint(predictions: Sequence[Prediction], gold_source: str) -> str:
    """Name the embedded split the prediction ids come from, when they come from another one."""
    from ..corpus import corpus_items

    wanted = {pred.id for pred in predictions[:200]}
    for name in ("finqa:test", "finqa:dev", "finqa:train", "convfinqa:dev"):
        ids = {item.id for item in corpus_items(name)}
        if len(wanted & ids) > len(wanted) // 2:
            return f": the predictions are for {name} (wrong split?)"
    return ": wrong split, or predictions for another dataset?"


def score_predictions(gold: Sequence[GoldItem], predictions: Sequence[Prediction],
                      scorer_names: Sequence[str] | None = None, gold_source: str = "",
                      pred_source: str = "", progress: Callable[[int], None] | None = None,
                      parallel: ParallelOptions | None = None, limits: Limits | None = None) -> ScoreReport:
    """Score every prediction against its gold item with each named scorer (``progress(done)`` after each).

    ``parallel`` spreads the pairs over worker processes or a Ray cluster; the report is the serial one.
    """
    names = resolve_scorers(scorer_names)
    by_id: dict[str, GoldItem] = {}
    for item in gold:
        by_id.setdefault(item.id, item)
    dialects = Counter(item.dialect for item in gold)
    report = ScoreReport(gold_source, pred_source, dialects.most_common(1)[0][0] if dialects else "finqa",
                         len(gold), len(predictions),
                         {name: ScorerFigures(name, program_correct=0 if name in HAS_PROGRAM_ACCURACY else None)
                          for name in names}, [])
    seen: Counter[str] = Counter()
    pairs: list[tuple[GoldItem, Prediction]] = []
    for pred in predictions:
        if pred.error is not None:
            report.unreadable.append(f"record {pred.position} ({pred.id or 'no id'}): {pred.error}")
            if not pred.id:  # the official loop cannot even look such a record up
                continue
        target = by_id.get(pred.id)
        if target is None:
            report.unknown_ids.append(pred.id)
            continue
        seen[pred.id] += 1
        if seen[pred.id] == 2:
            report.duplicate_ids.append(pred.id)
        pairs.append((target, pred))
    for done, (result, gold_error) in enumerate(_scored(pairs, tuple(names), limits or current(), parallel), start=1):
        _account(report, result, gold_error)
        if progress is not None:
            progress(done)
    report.missing_ids = [item.id for item in gold if item.id not in seen]
    return report


_INHERITED: list[tuple[GoldItem, Prediction]] = []
"""The pairs of the run under way, which forked workers inherit: they are sent index ranges into it."""


def _scored(pairs: list[tuple[GoldItem, Prediction]], names: tuple[str, ...], limits: Limits,
            parallel: ParallelOptions | None) -> Iterator[tuple[ScoredItem, bool]]:
    """:func:`score_pair` of every pair, in order, on the engine ``parallel`` names. Worker processes forked from
    this one inherit the pairs and are sent ranges of their positions, never the records; workers started
    otherwise (a threaded process, another system, Ray) are sent the pairs."""
    if parallel is None or parallel.engine is not Engine.PROCESS or not fork_is_safe():
        yield from parallel_map(PerItem(partial(score_pair, names=names, limits=limits)), pairs, parallel)
        return
    if _INHERITED:
        raise ParallelError("a parallel scoring run is already under way in this process")
    size = parallel.chunk_size
    spans = [(start, min(start + size, len(pairs))) for start in range(0, len(pairs), size)]
    _INHERITED[:] = pairs
    try:
        work = PerItem(partial(score_span, names=names, limits=limits))
        warm_up = partial(_prepare_workers, "official" in names and len(spans) > 1)
        for results in parallel_map(work, spans, replace(parallel, chunk_size=1), prepare=warm_up):
            yield from results
    finally:
        _INHERITED.clear()


def _prepare_workers(symbolic: bool) -> None:
    """What forked scoring workers start with: the parsers, and sympy (a quarter of a second to load) when the
    official scorer runs on more than one chunk: any pair whose programs its rules cannot tell equal needs it, and
    loaded here it is loaded once, not once in every worker."""
    prepare()
    if symbolic:
        prepare_symbolic()


def score_span(span: tuple[int, int], names: tuple[str, ...], limits: Limits) -> list[tuple[ScoredItem, bool]]:
    """:func:`score_pair` of the inherited pairs ``span[0]`` to ``span[1]``: what a forked worker runs."""
    start, stop = span
    if stop > len(_INHERITED):
        raise ParallelError(f"pairs {start}-{stop} are not in this worker (it was not forked from the run)")
    return [score_pair(pair, names, limits) for pair in _INHERITED[start:stop]]


def score_pair(pair: tuple[GoldItem, Prediction], names: tuple[str, ...], limits: Limits) -> tuple[ScoredItem, bool]:
    """Every named scorer's verdict on one (gold, prediction) pair, and whether the official script could
    not symbolise the gold: the function every engine (serial, processes, Ray) runs."""
    with using(limits):
        prepare()  # the parsers; sympy is loaded by equal_program, outside its clock, if a pair needs it
        ctx = ItemContext(*pair)
        verdicts = {name: SCORERS[name](ctx) for name in names}
        result = ScoredItem(ctx.pred.id, ctx.pred.position, verdicts,
                            official_value=ctx.verdict.value if ctx.verdict.valid else None,
                            gold_value=ctx.gold_value)
        gold_error = False
        if "official" in names and ctx.pred.tokens is not None and ctx.gold.tokens is not None:
            result.decided_by = ctx.match.decided_by.value
            result.would_abort = official.would_abort(ctx)
            gold_error = ctx.match.gold_error
        result.stopped_by_clock = ctx.clock or any(verdict.program_why is Why.TIME_LIMIT for verdict in verdicts.values())
    return result, gold_error


def _account(report: ScoreReport, result: ScoredItem, gold_error: bool) -> None:
    """Add one scored pair to the report, in prediction order."""
    report.items.append(result)
    if gold_error and result.id not in report.gold_error_ids:
        report.gold_error_ids.append(result.id)
    if result.would_abort:
        report.would_abort_ids.append(result.id)
    if result.stopped_by_clock:
        report.stopped_by_clock_ids.append(result.id)
    verdicts = result.verdicts
    for name, verdict in verdicts.items():
        figures = report.scorers[name]
        figures.n += 1
        figures.execution_correct += verdict.execution
        if figures.program_correct is not None and verdict.program:
            figures.program_correct += 1


def disagreements(report: ScoreReport, examples: int = 3) -> list[dict[str, Any]]:
    """For each pair of scorers and each measure they share, how many items they disagree on, with example ids."""
    rows: list[dict[str, Any]] = []
    names = list(report.scorers)
    for first, second in combinations(names, 2):
        measures = ["execution"]
        if first in HAS_PROGRAM_ACCURACY and second in HAS_PROGRAM_ACCURACY:
            measures.append("program")
        for measure in measures:
            ids = [item.id for item in report.items
                   if getattr(item.verdicts[first], measure) != getattr(item.verdicts[second], measure)]
            rows.append({"scorers": [first, second], "measure": measure, "disagree": len(ids),
                         "examples": ids[:examples]})
    return rows
