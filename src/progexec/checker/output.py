"""Reporters for a :class:`~progexec.checker.check.CheckReport`: text, JSON and JUnit XML.

All three read the same report model and are deterministic (sorted keys, no timestamps).
"""

from __future__ import annotations

import json
from typing import Any
from xml.etree import ElementTree

from .check import CheckReport, Counterexample
from .divergence import Divergence
from ..records import FORMAT_VERSION  # the one version of every output (its change log is there)



def as_json(report: CheckReport, allow_sign_of_zero: bool = False) -> dict[str, Any]:
    """The ``--json`` object: counts, counts by family and by class, the first counterexamples."""
    return {
        "format_version": FORMAT_VERSION,
        "rounder": report.rounder,
        "seed": report.seed,
        "digits": report.digits,
        "cases": report.cases,
        "divergent": report.divergent,
        "divergent_major": report.divergent_major,
        "passed": report.passed(allow_sign_of_zero),
        "by_family": {family: {"cases": counts[0], "divergent": counts[1]}
                      for family, counts in sorted(report.by_family.items())},
        "by_class": {kind: report.by_class[kind] for kind in sorted(report.by_class)},
        "classes": {kind: Divergence(kind).explain for kind in sorted(report.by_class)},
        "counterexamples": [example.as_dict() for example in report.counterexamples],
        "search": report.search.as_dict() if report.search is not None else None,
        "protocol": list(report.protocol),
        "faults": [{"class": kind.value, "detail": detail, "lesser": kind.minor} for kind, detail in report.faults],
    }


def dumps_json(report: CheckReport, allow_sign_of_zero: bool = False) -> str:
    return json.dumps(as_json(report, allow_sign_of_zero), indent=2, sort_keys=False, ensure_ascii=False)


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
    lines = [f"{verdict} {report.rounder}: {report.cases:,} cases (seed {report.seed}, ndigits {report.digits}), "
             f"{report.divergent:,} divergent"]
    for kind in sorted(report.by_class, key=lambda k: (-report.by_class[k], k)):
        minor = " (lesser)" if Divergence(kind).minor else ""
        lines.append(f"  {report.by_class[kind]:>9,}  {kind}{minor}: {Divergence(kind).explain}")
    failing = [(family, counts) for family, counts in sorted(report.by_family.items()) if counts[1]]
    if failing:
        lines.append("by family (divergent / cases):")
        lines += [f"  {family:<14} {counts[1]:>9,} / {counts[0]:,}" for family, counts in failing]
    if report.counterexamples:
        lines.append("first counterexamples:")
        lines += [_example_line(example) for example in varied(report.counterexamples, examples)]
    if report.search is not None:
        lines.append("simplest counterexample found by the search:")
        lines.append(_example_line(report.search))
    if report.faults:
        lines.append("protocol failures of the program:")
        lines += [f"  [{kind.value}]{' (lesser)' if kind.minor else ''} {detail}" for kind, detail in report.faults]
    if report.protocol:
        lines.append("external program:")
        lines += [f"  {note}" for note in report.protocol]
    return "\n".join(lines)


def as_junit(report: CheckReport, allow_sign_of_zero: bool = False) -> str:
    """JUnit XML: one test case per family (a failure lists its counterexamples), plus the search."""
    suite = ElementTree.Element("testsuite", name=f"progexec.check-rounder {report.rounder}")
    tests = failures = 0
    for family, (cases, divergent) in sorted(report.by_family.items()):
        tests += 1
        case = ElementTree.SubElement(suite, "testcase", classname="progexec.check_rounder", name=family)
        ElementTree.SubElement(case, "system-out").text = f"{cases} cases"
        minor_only = allow_sign_of_zero and all(
            c.divergence.minor for c in report.counterexamples if c.family.value == family)
        if divergent and not minor_only:
            failures += 1
            shown = [_example_line(c) for c in report.counterexamples if c.family.value == family]
            failure = ElementTree.SubElement(case, "failure", type="divergence",
                                             message=f"{divergent} of {cases} cases differ from CPython round")
            failure.text = "\n".join(shown)
    if report.search is not None:
        tests += 1
        failures += 1
        case = ElementTree.SubElement(suite, "testcase", classname="progexec.check_rounder", name="search")
        ElementTree.SubElement(case, "failure", type="divergence",
                               message="hypothesis found a counterexample").text = _example_line(report.search)
    if report.failing_faults:
        tests += 1
        failures += 1
        case = ElementTree.SubElement(suite, "testcase", classname="progexec.check_rounder", name="protocol")
        ElementTree.SubElement(case, "failure", type="protocol", message="the program broke the protocol").text = \
            "\n".join(f"[{kind.value}] {detail}" for kind, detail in report.failing_faults)
    if report.protocol:
        ElementTree.SubElement(suite, "system-err").text = "\n".join(report.protocol)
    suite.set("tests", str(tests))
    suite.set("failures", str(failures))
    suite.set("errors", "0")
    ElementTree.indent(suite)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(suite, encoding="unicode") + "\n"
