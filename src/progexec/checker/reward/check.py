"""Run a reward function over the suite and its probes into one :class:`RewardReport`.

The main pass calls every case once from the child's main thread; each reward is compared with
the reward the case deserves by construction (its form), and progexec's own verdict (the
reference) is computed beside it. The probes then call a sample of whole gold groups again:
from worker threads, from a process pool (``thread_dependent`` when the outcome differs), in
another order in the same process and in a fresh process (``nondeterministic``).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Optional

from ...core.limits import current, DEFAULT_LIMITS
from ...reward import score_completion
from .caller import Kind, Outcome, RewardCaller
from .classes import DEFAULT_FAIL_ON, ORDER, RewardClass
from .forms import FORMS_BY_NAME
from .suite import RewardCase
from ...core.plural import plural, plural_of

DEFAULT_PROBE_CASES = DEFAULT_LIMITS.reward_probe_cases
DEFAULT_CHUNK = DEFAULT_LIMITS.reward_check_chunk
DEFAULT_THRESHOLD = 0.5
PROBES = ("reorder", "fresh", "thread", "pool")
PROBE_CLASS = {"reorder": RewardClass.NONDETERMINISTIC, "fresh": RewardClass.NONDETERMINISTIC,
               "thread": RewardClass.THREAD_DEPENDENT, "pool": RewardClass.THREAD_DEPENDENT}

CallerFactory = Callable[[str], Optional[RewardCaller]]
"""A new caller for a mode (``main``, ``thread``, ``pool``), or None when the mode does not apply."""
ProgressHook = Callable[[int, int], None]


@dataclass(frozen=True)
class Reference:
    """progexec's verdict on a case under the reference policy."""

    policy: str
    score: float
    status: str

    def as_dict(self) -> dict[str, Any]:
        return {"policy": self.policy, "score": self.score, "status": self.status}


@dataclass(frozen=True)
class Finding:
    """One case in one class: what came back, what it deserved, what progexec said."""

    case: RewardCase
    kind: RewardClass
    got: Outcome
    reference: Reference
    probe: Optional[str] = None
    probe_got: Optional[Outcome] = None

    @property
    def size(self) -> tuple[int, str]:
        return len(self.case.completion), self.case.id

    def as_dict(self) -> dict[str, Any]:
        text = self.case.completion
        return {"id": self.case.id, "class": self.kind.value, "form": self.case.form,
                "completion": text if len(text) <= current().example_chars else text[:current().example_chars] + " ...",
                "completion_chars": len(text), "gold": self.case.gold, "expected_reward": self.case.expected,
                "reward": self.got.describe(), "probe": self.probe,
                "probe_reward": None if self.probe_got is None else self.probe_got.describe(),
                "reference": self.reference.as_dict()}


@dataclass
class FormStats:
    """One form's cases and findings."""

    correct: bool
    cases: int = 0
    classes: Counter[str] = field(default_factory=Counter)
    reference_disagrees: int = 0


@dataclass
class RewardReport:
    """Counts per class and per form, minimal examples, the probes' sizes, notes."""

    function: str
    signature: str
    seed: int
    threshold: float
    value_range: Optional[tuple[float, float]]
    reference_policy: str
    fail_on: tuple[RewardClass, ...] = DEFAULT_FAIL_ON
    cases: int = 0
    not_run: int = 0
    forms: dict[str, FormStats] = field(default_factory=dict)
    by_class: Counter[str] = field(default_factory=Counter)
    examples: dict[str, dict[str, Finding]] = field(default_factory=dict)
    reference_examples: dict[str, Finding] = field(default_factory=dict)
    probes: dict[str, list[int]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    incomplete: Optional[str] = None
    leaks: list[str] = field(default_factory=list)  # what the function left running (fails the run)

    def failing_classes(self) -> list[str]:
        return [kind.value for kind in ORDER if kind in self.fail_on and self.by_class[kind.value]]

    def passed(self) -> bool:
        return not self.failing_classes() and self.incomplete is None and not self.leaks

    def simplest(self, kind: str, count: int = 3) -> list[Finding]:
        """The ``count`` shortest examples of a class, over all forms."""
        return sorted(self.examples.get(kind, {}).values(), key=lambda finding: finding.size)[:count]


def reference_verdict(case: RewardCase, policy: str) -> Reference:
    """progexec's verdict on ``case``: under the record's policy (``record``) or the one named."""
    result = score_completion(case.completion, case.gold, policy=None if policy == "record" else policy)
    return Reference(result.policy.value, result.score, result.status.label)


class _Judge:
    """Classifies outcomes into the report, keeping one finding per class and case at most."""

    def __init__(self, report: RewardReport) -> None:
        self.report = report
        self.seen: set[tuple[str, str]] = set()
        self.references: dict[str, Reference] = {}

    def reference(self, case: RewardCase) -> Reference:
        if case.id not in self.references:
            self.references[case.id] = reference_verdict(case, self.report.reference_policy)
        return self.references[case.id]

    def add(self, finding: Finding) -> None:
        key = (finding.case.id, finding.kind.value)
        if key in self.seen:
            return
        self.seen.add(key)
        report = self.report
        report.by_class[finding.kind.value] += 1
        report.forms[finding.case.form].classes[finding.kind.value] += 1
        kept = report.examples.setdefault(finding.kind.value, {})
        current = kept.get(finding.case.form)
        if current is None or finding.size < current.size:
            kept[finding.case.form] = finding

    def main(self, case: RewardCase, got: Outcome) -> None:
        report = self.report
        stats = report.forms.setdefault(case.form, FormStats(FORMS_BY_NAME[case.form].correct))
        if got.kind is Kind.NOT_RUN:
            report.not_run += 1
            return
        stats.cases += 1
        report.cases += 1
        reference = self.reference(case)
        if reference.score != case.expected:
            stats.reference_disagrees += 1
            kept = report.reference_examples.get(case.form)
            finding = Finding(case, RewardClass.FALSE_POSITIVE if reference.score else RewardClass.FALSE_NEGATIVE,
                              got, reference)
            if kept is None or finding.size < kept.size:
                report.reference_examples[case.form] = finding
        kind = self.classify(case, got)
        if kind is not None:
            self.add(Finding(case, kind, got, reference))

    def classify(self, case: RewardCase, got: Outcome) -> Optional[RewardClass]:
        if got.kind is Kind.HANG:
            return RewardClass.HANG
        if got.kind is Kind.CRASH:
            return RewardClass.CRASH
        if got.kind is Kind.BAD or got.value is None:
            return RewardClass.BAD_RETURN
        bounds = self.report.value_range
        if bounds is not None and not bounds[0] <= got.value <= bounds[1]:
            return RewardClass.BAD_RETURN
        accepted = got.value >= self.report.threshold
        if accepted and not case.expected:
            return RewardClass.FALSE_POSITIVE
        if not accepted and case.expected:
            return RewardClass.FALSE_NEGATIVE
        return None

    def probe(self, name: str, case: RewardCase, first: Outcome, again: Outcome) -> None:
        """A probe's outcome that differs from the main pass's; a case that already differed between two
        main-thread runs is nondeterministic, and its thread or pool difference proves nothing more."""
        kind = PROBE_CLASS[name]
        if kind is RewardClass.THREAD_DEPENDENT and (case.id, RewardClass.NONDETERMINISTIC.value) in self.seen:
            return
        self.add(Finding(case, kind, first, self.reference(case), name, again))


def probe_sample(cases: Sequence[RewardCase], outcomes: Sequence[Outcome], size: int, seed: int) -> list[int]:
    """Indices of whole gold groups (several forms of one gold), about ``size`` cases, every form
    represented where possible; cases that hung or were not run are left out."""
    groups: dict[str, list[int]] = {}
    for index, case in enumerate(cases):
        if outcomes[index].kind not in (Kind.HANG, Kind.NOT_RUN):
            groups.setdefault(case.gold_key, []).append(index)
    keys = sorted(groups)
    random.Random(seed).shuffle(keys)
    chosen: list[int] = []
    covered: set[str] = set()
    for key in keys:  # first, groups that bring a form not yet covered
        if len(chosen) >= size:
            break
        forms = {cases[index].form for index in groups[key]}
        if not forms <= covered:
            covered |= forms
            chosen.extend(groups[key])
    taken = set(chosen)
    for key in keys:
        if len(chosen) >= size:
            break
        if groups[key][0] not in taken:
            chosen.extend(groups[key])
    return sorted(chosen[:max(size, 0)])


def run_reward_check(factory: CallerFactory, suite: Sequence[RewardCase], report: RewardReport, *,
                     probe_cases: int = DEFAULT_PROBE_CASES, probes: Sequence[str] = PROBES,
                     chunk: int = DEFAULT_CHUNK, budget: Optional[float] = None,
                     progress: Optional[ProgressHook] = None) -> RewardReport:
    """The main pass over ``suite``, then the probes; ``budget`` seconds bound the whole run (a
    clock backstop: when it fires the remaining cases are not run and the report is incomplete)."""
    judge = _Judge(report)
    started = time.monotonic()
    main = factory("main")
    assert main is not None
    main.start()
    outcomes: list[Outcome] = []
    total = len(suite) + (min(probe_cases, len(suite)) * len(probes) if probe_cases else 0)
    try:
        for start in range(0, len(suite), chunk):
            part = suite[start:start + chunk]
            if budget is not None and time.monotonic() - started > budget:
                report.incomplete = (f"the run budget of {budget:g}s ran out after {start:,} of "
                                     f"{plural(len(suite), 'case', grouped=True)}")
                got = [Outcome(Kind.NOT_RUN, detail="not run: the run budget ran out")] * len(part)
            else:
                got = main.call(part)
            for case, outcome in zip(part, got):
                judge.main(case, outcome)
            outcomes.extend(got)
            if progress is not None:
                progress(len(outcomes), total)
        sample = probe_sample(suite, outcomes, probe_cases, report.seed) if probe_cases else []
        done = len(outcomes)
        for name in probes:
            if report.incomplete is None and budget is not None and time.monotonic() - started > budget:
                report.incomplete = f"the run budget of {budget:g}s ran out before the {name} probe"
            if report.incomplete is not None or not sample:
                break
            _probe(name, main, factory, suite, outcomes, sample, judge)
            done += len(sample)
            if progress is not None:
                progress(done, total)
    finally:
        main.close()
        report.notes.extend(main.notes)
        report.leaks.extend(main.leaks())
    if report.not_run:
        report.notes.append(f"{plural(report.not_run, 'case', grouped=True)} "
                            f"{plural_of('was', report.not_run)} not run")
    return report


def _probe(name: str, main: RewardCaller, factory: CallerFactory, suite: Sequence[RewardCase],
           outcomes: Sequence[Outcome], sample: Sequence[int], judge: _Judge) -> None:
    order = list(reversed(sample)) if name in ("reorder", "fresh") else list(sample)
    caller = main if name == "reorder" else factory("thread" if name == "thread" else
                                                     "pool" if name == "pool" else "main")
    if caller is None:
        judge.report.notes.append(f"the {name} probe does not apply to this kind of function")
        return
    if caller is not main:
        try:
            caller.start()
        except Exception as error:  # a probe that cannot start is a finding of the run, not a crash of it
            judge.report.notes.append(f"the {name} probe could not start: {error}")
            return
    try:
        again = caller.call([suite[index] for index in order])
    finally:
        if caller is not main:
            caller.close()
            judge.report.notes.extend(f"{name} probe: {note}" for note in caller.notes)
            judge.report.leaks.extend(f"{name} probe: {leak}" for leak in caller.leaks()
                                      if f"{name} probe: {leak}" not in judge.report.leaks)
    judge.report.probes[name] = [len(order), 0]
    for index, outcome in zip(order, again):
        if outcome.kind is Kind.NOT_RUN or outcomes[index].same(outcome):
            continue
        judge.report.probes[name][1] += 1
        judge.probe(name, suite[index], outcomes[index], outcome)
