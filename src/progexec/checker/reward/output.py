"""Reporters for a :class:`~.check.RewardReport`: verdict line, text, JSON and JUnit XML (deterministic)."""

from __future__ import annotations

import json
from typing import Any, Optional

from ...core.limits import current
from xml.etree import ElementTree

from ...records import FORMAT_VERSION  # the one version of every output (its change log is there)
from .check import Finding, RewardReport
from .classes import ORDER
from .forms import FORMS_BY_NAME
from ...core.plural import plural



def rate(count: int, cases: int) -> float:
    return round(count / cases, 4) if cases else 0.0


def verdict_line(report: RewardReport) -> str:
    """``PASS name: N cases, ...`` or ``FAIL name: ... (false_positive 12, hang 1)``."""
    found = ", ".join(f"{kind.value} {report.by_class[kind.value]:,}" for kind in ORDER if report.by_class[kind.value])
    head = "PASS" if report.passed() else "FAIL"
    tail = f"; {report.incomplete}" if report.incomplete else ""
    if report.leaks:
        bound = current().reward_leak_chars  # the first leak quoted; the text report, JSON and HTML carry it whole
        first = report.leaks[0] if len(report.leaks[0]) <= bound else report.leaks[0][:bound] + " ..."
        tail += f"; left running: {first}" + (f" (+{len(report.leaks) - 1} more)" if len(report.leaks) > 1 else "")
    return (f"{head} {report.function} ({report.signature}): {plural(report.cases, 'case', grouped=True)}, "
            f"seed {report.seed}, "
            f"{'findings: ' + found if found else 'no finding'}{tail}")


def as_json(report: RewardReport, meta: Optional[dict[str, Any]] = None) -> dict[str, Any]:
    return {
        "format_version": FORMAT_VERSION,
        "function": report.function,
        "signature": report.signature,
        "seed": report.seed,
        "threshold": report.threshold,
        "range": list(report.value_range) if report.value_range else None,
        "reference_policy": report.reference_policy,
        "fail_on": [kind.value for kind in report.fail_on],
        "cases": report.cases,
        "not_run": report.not_run,
        "passed": report.passed(),
        "incomplete": report.incomplete,
        "leaks": list(report.leaks),
        "failing_classes": report.failing_classes(),
        "by_class": {kind.value: {"count": report.by_class[kind.value], "rate": rate(report.by_class[kind.value],
                                                                                     report.cases),
                                  "explain": kind.explain} for kind in ORDER},
        "by_form": {name: {"correct": stats.correct, "doc": FORMS_BY_NAME[name].doc, "cases": stats.cases,
                           "classes": {kind: {"count": count, "rate": rate(count, stats.cases)}
                                       for kind, count in sorted(stats.classes.items())},
                           "reference_disagrees": stats.reference_disagrees}
                    for name, stats in sorted(report.forms.items())},
        "examples": {kind: {form: finding.as_dict() for form, finding in sorted(found.items())}
                     for kind, found in sorted(report.examples.items())},
        "probes": {name: {"cases": sizes[0], "differ": sizes[1]} for name, sizes in report.probes.items()},
        "reference_disagreements": {form: finding.as_dict() for form, finding in
                                    sorted(report.reference_examples.items())},
        "notes": list(report.notes),
        "meta": meta or {},
    }


def dumps_json(report: RewardReport, meta: Optional[dict[str, Any]] = None) -> str:
    return json.dumps(as_json(report, meta), indent=2, ensure_ascii=False)


def example_line(finding: Finding) -> str:
    text = finding.case.completion
    shown = repr(text[-160:]) if len(text) <= 400 \
        else f"{text[-120:]!r} ({plural(len(text), 'character', grouped=True)})"
    probe = f" [{finding.probe}: {finding.probe_got.describe()}]" if finding.probe and finding.probe_got else ""
    return (f"  [{finding.kind.value}] {finding.case.id} {finding.case.form}: {shown}\n"
            f"      gold {finding.case.gold.get('answer')!r} ({finding.case.gold.get('dialect')}, "
            f"{finding.case.gold.get('policy')}); expected {finding.case.expected:g}, got "
            f"{finding.got.describe()}{probe}; progexec {finding.reference.score:g} ({finding.reference.status})")


def as_text(report: RewardReport) -> str:
    lines = [verdict_line(report)]
    for kind in ORDER:
        count = report.by_class[kind.value]
        if count:
            mark = " (fails the run)" if kind in report.fail_on else ""
            lines.append(f"  {count:>8,}  {kind.value}{mark}: {kind.explain}")
    found = [(name, stats) for name, stats in sorted(report.forms.items()) if stats.classes]
    if found:
        lines.append("by form (cases with a finding / cases):")
        for name, stats in found:
            worst = ", ".join(f"{kind} {count}" for kind, count in sorted(stats.classes.items()))
            lines.append(f"  {name:<20} {'right' if stats.correct else 'wrong'}  {stats.cases:>6,}  {worst}")
    if report.examples:
        lines.append("simplest examples:")
        for kind in ORDER:
            lines += [example_line(finding) for finding in report.simplest(kind.value)]
    if report.probes:
        lines.append("probes (cases called again, outcomes that differ): " + ", ".join(
            f"{name} {sizes[1]}/{sizes[0]}" for name, sizes in report.probes.items()))
    if report.reference_examples:
        lines.append("progexec's reference disagrees with the suite's construction (not the function's fault):")
        lines += [f"  {form}: {plural(report.forms[form].reference_disagrees, 'case')}, "
                  f"e.g. {finding.case.completion[-100:]!r}"
                  f" -> {finding.reference.status}" for form, finding in sorted(report.reference_examples.items())]
    if report.leaks:
        lines.append("left running by the function (fails the run):")
        lines += [f"  {leak}" for leak in report.leaks]
    if report.notes:
        lines.append("notes:")
        lines += [f"  {note}" for note in report.notes]
    return "\n".join(lines)


def as_junit(report: RewardReport) -> str:
    """One test case per class (a failure when it occurs and is in ``fail_on``, with its examples)."""
    suite = ElementTree.Element("testsuite", name=f"progexec.check-reward {report.function}")
    failures = 0
    for kind in ORDER:
        case = ElementTree.SubElement(suite, "testcase", classname="progexec.check_reward", name=kind.value)
        count = report.by_class[kind.value]
        ElementTree.SubElement(case, "system-out").text = f"{count} of {plural(report.cases, 'case')}"
        if count and kind in report.fail_on:
            failures += 1
            failure = ElementTree.SubElement(case, "failure", type=kind.value,
                                             message=f"{plural(count, 'case')}: {kind.explain}")
            failure.text = "\n".join(example_line(finding) for finding in report.simplest(kind.value, 10))
    tests = len(ORDER)
    if report.incomplete:
        tests += 1
        failures += 1
        case = ElementTree.SubElement(suite, "testcase", classname="progexec.check_reward", name="complete")
        ElementTree.SubElement(case, "failure", type="incomplete", message=report.incomplete)
    if report.leaks:
        tests += 1
        failures += 1
        case = ElementTree.SubElement(suite, "testcase", classname="progexec.check_reward", name="leaks")
        ElementTree.SubElement(case, "failure", type="leak", message=report.leaks[0]).text = "\n".join(report.leaks)
    if report.notes:
        ElementTree.SubElement(suite, "system-err").text = "\n".join(report.notes)
    suite.set("tests", str(tests))
    suite.set("failures", str(failures))
    suite.set("errors", "0")
    ElementTree.indent(suite)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(suite, encoding="unicode") + "\n"
