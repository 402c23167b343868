"""Reporters for an :class:`~.check.EvalReport`: text, JSON and JUnit XML (deterministic, no timestamps).

Built from the pieces :mod:`..report` shares with check-rounder's reporters.
"""

from __future__ import annotations

import json
from typing import Any

from ..report import JUnit, class_lines, dumps, families_json, family_lines, fault_lines, unanswered_note
from .check import EvalCounterexample, EvalReport, describe
from .classes import EvalDivergence
from ...records import FORMAT_VERSION  # the one version of every output (its change log is there)
from ...core.plural import plural, plural_of



def as_json(report: EvalReport, strict: bool = False) -> dict[str, Any]:
    return {
        "format_version": FORMAT_VERSION,
        "evaluator": report.evaluator,
        "protocol": report.protocol.value,
        "suite": report.suite,
        "seed": report.seed,
        "strict": strict,
        "cases": report.cases,
        "skipped": report.skipped,
        "divergent": report.divergent,
        "unanswered": report.unanswered,
        "passed": report.passed(strict),
        "failing_classes": report.failing_classes(strict),
        "by_family": families_json(report.by_family),
        "by_class": {kind: report.by_class[kind] for kind in sorted(report.by_class)},
        "classes": {kind: {"explain": EvalDivergence(kind).explain, "lesser": EvalDivergence(kind).minor}
                    for kind in sorted(set(report.by_class) | {fault.kind for fault in report.faults})},
        "counterexamples": {kind: [example.as_dict() for example in examples]
                            for kind, examples in sorted(report.examples.items())},
        "faults": [fault.as_dict() for fault in report.faults],
        "notes": list(report.notes),
    }


def dumps_json(report: EvalReport, strict: bool = False, meta: dict[str, Any] | None = None) -> str:
    """The ``--json`` text; ``meta`` (:func:`progexec.meta.run_meta`) first when given."""
    document = as_json(report, strict)
    return dumps({"meta": meta, **document} if meta is not None else document)


def example_line(example: EvalCounterexample) -> str:
    table = "" if not example.case.table else f" table {json.dumps(example.case.table, ensure_ascii=False)[:160]}"
    variant = f" (reproduced by {example.variant.value})" if example.variant else ""
    return (f"  [{example.divergence.value}] {example.case.id} ({example.case.dialect}): "
            f"{example.case.program[:160]!r}{table}\n      expected {describe(example.expected)}, "
            f"got {describe(example.got)}{variant}")


def as_text(report: EvalReport, strict: bool = False) -> str:
    verdict = "PASS" if report.passed(strict) else "FAIL"
    lines = [f"{verdict} {report.evaluator}: {plural(report.cases, 'case', grouped=True)} ({report.protocol.value} "
             f"protocol, suite "
             f"{report.suite}, seed {report.seed}), {report.divergent:,} divergent"
             f"{unanswered_note(report.unanswered)}"]
    lines += class_lines(report.by_class, lambda k: EvalDivergence(k).explain, lambda k: EvalDivergence(k).minor, 8)
    lines += family_lines(report.by_family, 16)
    if report.examples:
        lines.append("simplest counterexamples:")
        for kind in sorted(report.examples, key=lambda k: (-report.by_class[k], k)):
            lines += [example_line(example) for example in report.examples[kind]]
    lines += fault_lines("protocol failures of the port:", report.faults)
    if report.notes:
        lines.append("notes:")
        lines += [f"  {note}" for note in report.notes]
    return "\n".join(lines)


def as_junit(report: EvalReport, strict: bool = False) -> str:
    """One test case per family (a failure lists its counterexamples), plus one for protocol failures."""
    junit = JUnit(f"progexec.check-evaluator {report.evaluator}", "progexec.check_evaluator")
    failing = set(report.failing_classes(strict))
    for family, (cases, divergent) in sorted(report.by_family.items()):
        shown = [example for examples in report.examples.values() for example in examples
                 if example.case.family.value == family]
        fails = divergent and failing & set(report.family_classes.get(family, ()))
        differ = f"{divergent} of {plural(cases, 'case')} {plural_of('differs', divergent)} from the official answers"
        junit.case(family, plural(cases, "case"), ("divergence", differ, "\n".join(example_line(example)
                                                                                     for example in shown))
                   if fails else None)
    junit.faults([fault for fault in report.faults if fault.kind in failing], "the port broke the protocol")
    return junit.text(report.notes)
