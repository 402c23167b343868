"""Reporters for a :class:`~progexec.checker.check.CheckReport`: text, JSON and JUnit XML.

All three read the same report model, are deterministic (no timestamps) and are built from
the pieces :mod:`.report` shares with check-evaluator's reporters.
"""

from __future__ import annotations

from typing import Any

from .check import CheckReport, Counterexample
from .divergence import Divergence
from .report import JUnit, class_lines, dumps, families_json, family_lines, fault_lines, unanswered_note
from ..records import FORMAT_VERSION  # the one version of every output (its change log is there)
from ..core.plural import plural, plural_of



def as_json(report: CheckReport, allow_sign_of_zero: bool = False) -> dict[str, Any]:
    """The ``--json`` object: counts, counts by family and by class, the first counterexamples."""
    return {
        "format_version": FORMAT_VERSION,
        "rounder": report.rounder,
        "seed": report.seed,
        "digits": report.digits,
        "cases": report.cases,
        "divergent": report.divergent,
        "unanswered": report.unanswered,
        "divergent_major": report.divergent_major,
        "passed": report.passed(allow_sign_of_zero),
        "by_family": families_json(report.by_family),
        "by_class": {kind: report.by_class[kind] for kind in sorted(report.by_class)},
        "classes": {kind: Divergence(kind).explain for kind in sorted(report.by_class)},
        "counterexamples": [example.as_dict() for example in report.counterexamples],
        "search": report.search.as_dict() if report.search is not None else None,
        "protocol": list(report.protocol),
        "faults": [fault.as_dict() for fault in report.faults],
    }


def dumps_json(report: CheckReport, allow_sign_of_zero: bool = False, meta: dict[str, Any] | None = None) -> str:
    """The ``--json`` text; ``meta`` (:func:`progexec.meta.run_meta`) first when given."""
    document = as_json(report, allow_sign_of_zero)
    return dumps({"meta": meta, **document} if meta is not None else document)


def _example_line(example: Counterexample) -> str:
    return (f"  [{example.divergence.value}] {example.family.value}: round({example.x!r}, {example.ndigits}) "
            f"(x = {example.x.hex()}) expected {example.expected!r}, got {example.got_text()}")


def varied(examples: list[Counterexample], count: int) -> list[Counterexample]:
    """Up to ``count`` counterexamples: the first of each class, then of each family, then the rest."""
    chosen: list[Counterexample] = []
    for key in (lambda c: c.divergence, lambda c: c.family, id):
        seen = {key(c) for c in chosen}
        for example in examples:
            if len(chosen) < count and key(example) not in seen and example not in chosen:
                seen.add(key(example))
                chosen.append(example)
    return chosen


def as_text(report: CheckReport, allow_sign_of_zero: bool = False, examples: int = 10) -> str:
    """A human summary: verdict, classes, families with divergences, a few counterexamples."""
    verdict = "PASS" if report.passed(allow_sign_of_zero) else "FAIL"
    lines = [f"{verdict} {report.rounder}: {plural(report.cases, 'case', grouped=True)} (seed {report.seed}, "
             f"ndigits {report.digits}), "
             f"{report.divergent:,} divergent{unanswered_note(report.unanswered)}"]
    lines += class_lines(report.by_class, lambda k: Divergence(k).explain, lambda k: Divergence(k).minor, 9)
    lines += family_lines(report.by_family, 14)
    if report.counterexamples:
        lines.append("first counterexamples:")
        lines += [_example_line(example) for example in varied(report.counterexamples, examples)]
    if report.search is not None:
        lines.append("simplest counterexample found by the search:")
        lines.append(_example_line(report.search))
    lines += fault_lines("protocol failures of the program:", report.faults)
    if report.protocol:
        lines.append("external program:")
        lines += [f"  {note}" for note in report.protocol]
    return "\n".join(lines)


def as_junit(report: CheckReport, allow_sign_of_zero: bool = False) -> str:
    """JUnit XML: one test case per family (a failure lists its counterexamples), plus the search and protocol."""
    junit = JUnit(f"progexec.check-rounder {report.rounder}", "progexec.check_rounder")
    for family, (cases, divergent) in sorted(report.by_family.items()):
        minor_only = allow_sign_of_zero and all(
            c.divergence.minor for c in report.counterexamples if c.family.value == family)
        shown = [_example_line(c) for c in report.counterexamples if c.family.value == family]
        differ = f"{divergent} of {plural(cases, 'case')} {plural_of('differs', divergent)} from CPython round"
        junit.case(family, plural(cases, "case"), ("divergence", differ,
                                              "\n".join(shown)) if divergent and not minor_only else None)
    if report.search is not None:
        junit.case("search", failure=("divergence", "hypothesis found a counterexample", _example_line(report.search)))
    junit.faults(report.failing_faults, "the program broke the protocol")
    return junit.text(report.protocol)
