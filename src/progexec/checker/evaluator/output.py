"""Reporters for an :class:`~.check.EvalReport`: text, JSON and JUnit XML (deterministic, no timestamps)."""

from __future__ import annotations

import json
from typing import Any
from xml.etree import ElementTree

from .check import EvalCounterexample, EvalReport, describe
from .classes import EvalDivergence
from ...records import FORMAT_VERSION  # the one version of every output (its change log is there)



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
        "passed": report.passed(strict),
        "failing_classes": report.failing_classes(strict),
        "by_family": {family: {"cases": counts[0], "divergent": counts[1]}
                      for family, counts in sorted(report.by_family.items())},
        "by_class": {kind: report.by_class[kind] for kind in sorted(report.by_class)},
        "classes": {kind: {"explain": EvalDivergence(kind).explain, "lesser": EvalDivergence(kind).minor}
                    for kind in sorted(set(report.by_class) | {k.value for k, _ in report.faults})},
        "counterexamples": {kind: [example.as_dict() for example in examples]
                            for kind, examples in sorted(report.examples.items())},
        "faults": [{"class": kind.value, "detail": detail, "lesser": kind.minor} for kind, detail in report.faults],
        "notes": list(report.notes),
    }


def dumps_json(report: EvalReport, strict: bool = False) -> str:
    return json.dumps(as_json(report, strict), indent=2, ensure_ascii=False)


def example_line(example: EvalCounterexample) -> str:
    table = "" if not example.case.table else f" table {json.dumps(example.case.table, ensure_ascii=False)[:160]}"
    variant = f" (reproduced by {example.variant.value})" if example.variant else ""
    return (f"  [{example.divergence.value}] {example.case.id} ({example.case.dialect}): "
            f"{example.case.program[:160]!r}{table}\n      expected {describe(example.expected)}, "
            f"got {describe(example.got)}{variant}")


def as_text(report: EvalReport, strict: bool = False) -> str:
    verdict = "PASS" if report.passed(strict) else "FAIL"
    lines = [f"{verdict} {report.evaluator}: {report.cases:,} cases ({report.protocol.value} protocol, suite "
             f"{report.suite}, seed {report.seed}), {report.divergent:,} divergent"]
    for kind in sorted(report.by_class, key=lambda k: (-report.by_class[k], k)):
        lesser = " (lesser)" if EvalDivergence(kind).minor else ""
        lines.append(f"  {report.by_class[kind]:>8,}  {kind}{lesser}: {EvalDivergence(kind).explain}")
    failing = [(family, counts) for family, counts in sorted(report.by_family.items()) if counts[1]]
    if failing:
        lines.append("by family (divergent / cases):")
        lines += [f"  {family:<16} {counts[1]:>8,} / {counts[0]:,}" for family, counts in failing]
    if report.examples:
        lines.append("simplest counterexamples:")
        for kind in sorted(report.examples, key=lambda k: (-report.by_class[k], k)):
            lines += [example_line(example) for example in report.examples[kind]]
    if report.faults:
        lines.append("protocol failures of the port:")
        lines += [f"  [{kind.value}]{' (lesser)' if kind.minor else ''} {detail}" for kind, detail in report.faults]
    if report.notes:
        lines.append("notes:")
        lines += [f"  {note}" for note in report.notes]
    return "\n".join(lines)


def as_junit(report: EvalReport, strict: bool = False) -> str:
    """One test case per family (a failure lists its counterexamples), plus one for protocol failures."""
    suite = ElementTree.Element("testsuite", name=f"progexec.check-evaluator {report.evaluator}")
    tests = failures = 0
    failing = set(report.failing_classes(strict))
    for family, (cases, divergent) in sorted(report.by_family.items()):
        tests += 1
        case = ElementTree.SubElement(suite, "testcase", classname="progexec.check_evaluator", name=family)
        ElementTree.SubElement(case, "system-out").text = f"{cases} cases"
        shown = [example for examples in report.examples.values() for example in examples
                 if example.case.family.value == family]
        if divergent and failing & set(report.family_classes.get(family, ())):
            failures += 1
            failure = ElementTree.SubElement(case, "failure", type="divergence",
                                             message=f"{divergent} of {cases} cases differ from the official answers")
            failure.text = "\n".join(example_line(example) for example in shown)
    protocol_faults = [(kind, detail) for kind, detail in report.faults if kind.value in failing]
    if protocol_faults:
        tests += 1
        failures += 1
        case = ElementTree.SubElement(suite, "testcase", classname="progexec.check_evaluator", name="protocol")
        ElementTree.SubElement(case, "failure", type="protocol", message="the port broke the protocol").text = \
            "\n".join(f"[{kind.value}] {detail}" for kind, detail in protocol_faults)
    if report.notes:
        ElementTree.SubElement(suite, "system-err").text = "\n".join(report.notes)
    suite.set("tests", str(tests))
    suite.set("failures", str(failures))
    suite.set("errors", "0")
    ElementTree.indent(suite)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(suite, encoding="unicode") + "\n"
