"""Run the case suite through a rounder and collect one :class:`CheckReport`.

A rounder is seen through an *answerer*: ``answer(xs, ndigits) -> list`` with one entry per
case, a value (the rounder's return) or a :class:`~progexec.checker.divergence.Failure`. Python
callables and external programs (:mod:`progexec.checker.external`) both become answerers, so the
comparison, the classification and the report are the same for both.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .cases import DEFAULT_CASES, CaseBlock, DigitsPlan, Family, iter_blocks
from .divergence import Divergence, Failure, classify, mismatches, reference_round, same_float
from ..core.errors import ProgexecError
from .report import PortFault
from ..core.plural import plural
from ..core.limits import DEFAULT_LIMITS

Answerer = Callable[[Sequence[float], Sequence[int]], list[object]]
"""One answer per case: the rounder's value, or a Failure."""

ProgressHook = Callable[[int, int], None]
"""Called with (cases done, cases in all) after every block."""

ORACLE_SAMPLE = DEFAULT_LIMITS.rounder_oracle_sample
"""Every 97th case (and every fixed case) is also checked against the Fraction oracle."""


@dataclass(frozen=True, slots=True)
class Counterexample:
    """One divergent case, in the order the suite met it."""

    x: float
    ndigits: int
    family: Family
    expected: float
    got: object
    divergence: Divergence

    def got_text(self) -> str:
        if isinstance(self.got, Failure):
            return self.got.detail
        if isinstance(self.got, float):
            return repr(float(self.got))
        return f"{type(self.got).__name__}: {self.got!r}"[:200]

    def as_dict(self) -> dict[str, object]:
        got = self.got
        return {
            "x": repr(self.x), "x_hex": self.x.hex(), "ndigits": self.ndigits, "family": self.family.value,
            "expected": repr(self.expected), "expected_hex": self.expected.hex(),
            "got": self.got_text(), "got_hex": float(got).hex() if isinstance(got, float) else None,
            "class": self.divergence.value,
        }


@dataclass
class CheckReport:
    """Everything a reporter needs: counts by family and by class, and the first counterexamples."""

    rounder: str
    seed: int
    digits: str
    cases: int = 0
    divergent: int = 0
    by_family: dict[str, list[int]] = field(default_factory=dict)  # family -> [cases, divergent]
    by_class: Counter[str] = field(default_factory=Counter)
    counterexamples: list[Counterexample] = field(default_factory=list)
    protocol: list[str] = field(default_factory=list)
    search: Counterexample | None = None
    faults: list[PortFault] = field(default_factory=list)  # the child's protocol failures

    @property
    def failing_faults(self) -> list[PortFault]:
        """Protocol failures that fail the run (all but ``unflushed``, which batch mode copes with)."""
        return [fault for fault in self.faults if not fault.lesser]

    @property
    def unanswered(self) -> int:
        """Divergent cases the program did not answer (it died, hung or flooded): not counterexamples."""
        return sum(count for kind, count in self.by_class.items() if Divergence(kind).unanswered)

    @property
    def divergent_major(self) -> int:
        """Divergences other than the lesser class (a zero with the wrong sign)."""
        return self.divergent - self.by_class.get(Divergence.SIGN_OF_ZERO.value, 0)

    def passed(self, allow_sign_of_zero: bool = False) -> bool:
        return ((self.divergent_major if allow_sign_of_zero else self.divergent) == 0 and self.search is None
                and not self.failing_faults)


def _keep(report: CheckReport, example: Counterexample, limit: int) -> None:
    """Keep the first ``limit`` counterexamples, plus the first of every class and family."""
    kept = report.counterexamples
    if len(kept) < limit or all(c.divergence is not example.divergence for c in kept) \
            or all(c.family is not example.family for c in kept):
        kept.append(example)


def check_block(block: CaseBlock, answers: Sequence[object], report: CheckReport, limit: int = 20) -> None:
    """Compare one block's answers with the oracle and add them to ``report``."""
    if len(answers) != len(block):
        raise ValueError(f"{plural(len(answers), 'answer')} for {plural(len(block), 'case')}")
    for family in block.families:
        report.by_family.setdefault(family.value, [0, 0])[0] += 1
    for index in mismatches(answers, block.expected):
        x, n, family, want = block.xs[index], block.ndigits[index], block.families[index], block.expected[index]
        kind = classify(x, n, want, answers[index])
        report.divergent += 1
        report.by_class[kind.value] += 1
        report.by_family[family.value][1] += 1
        if not kind.unanswered:  # a case never answered is shown once, as the program's protocol failure
            _keep(report, Counterexample(x, n, family, want, answers[index], kind), limit)
    report.cases += len(block)


def verify_oracle(block: CaseBlock, every: int = ORACLE_SAMPLE) -> None:
    """Cross-check CPython ``round`` against the exact Fraction oracle on a sample of the block."""
    for index in range(len(block)):
        if index % every and block.families[index] is not Family.SEED:
            continue
        x, n = block.xs[index], block.ndigits[index]
        if not (math.isfinite(x) or math.isnan(x)) or abs(n) > 400:
            continue
        if not same_float(block.expected[index], reference_round(x, n)):
            raise ProgexecError(f"CPython round({x!r}, {n}) = {block.expected[index]!r} disagrees with Fraction")


def run_check(answer: Answerer, name: str, cases: int = DEFAULT_CASES, seed: int = 0,
              plan: DigitsPlan | None = None, limit: int = 20, progress: ProgressHook | None = None,
              oracle_every: int = ORACLE_SAMPLE, nonfinite: bool = False, step: int = 50_000) -> CheckReport:
    """Run the whole suite through ``answer``; the oracle is cross-checked on a sample as it goes.

    ``answer`` is called with at most ``step`` cases at a time (the suite itself does not depend on it).
    """
    plan = plan or DigitsPlan()
    report = CheckReport(name, seed, plan.describe())
    for block in iter_blocks(cases, seed, plan, nonfinite=nonfinite):
        if oracle_every:
            verify_oracle(block, oracle_every)
        for start in range(0, len(block), step):  # smaller steps: progress for slow rounders
            part = CaseBlock(block.xs[start:start + step], block.ndigits[start:start + step],
                             block.families[start:start + step], block.expected[start:start + step])
            check_block(part, answer(part.xs, part.ndigits), report, limit)
            if progress is not None:
                progress(report.cases, cases)
    return report


def python_answerer(func: Callable[[float, int], object]) -> Answerer:
    """An in-process answerer calling ``func(x, ndigits)``; an ``Exception`` becomes a Failure.

    For trusted callables (``progexec.testing``). The CLI's ``--python`` runs the function in a
    child process instead (:mod:`.pychild`), where a hang, ``SystemExit`` or ``os._exit`` is a
    failing verdict too.
    """

    def answer(xs: Sequence[float], ns: Sequence[int]) -> list[object]:
        out: list[object] = []
        append = out.append
        for x, n in zip(xs, ns):
            try:
                append(func(x, n))
            except Exception as error:  # the rounder's bug is a finding, not a crash of the checker
                append(Failure(Divergence.EXCEPTION, f"{type(error).__name__}: {error}"[:200]))
        return out

    return answer
