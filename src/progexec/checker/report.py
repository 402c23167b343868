"""What the check-rounder and check-evaluator reporters share: the port's faults, class and family tables, JUnit and JSON writing.

Both checkers render their report as text, JSON and JUnit XML through these functions, so a
protocol failure (with its exit status, the case the port was answering and the head and tail
of its stderr) looks the same in both, in all three formats; output is deterministic (no
timestamps, sorted keys where order is not meaning).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional
from xml.etree import ElementTree

from ..isolation.leash import Fault


@dataclass(frozen=True, slots=True)
class PortFault:
    """A protocol failure of the port, as every report shows it.

    ``kind``: its class name; ``lesser``: it fails the run only when strict; ``case``: the case
    the port was answering (None when it failed between cases); ``exit_status``: how it ended,
    when it ended; ``stderr``: the head and the tail of what it wrote on stderr.
    """

    kind: str
    lesser: bool
    detail: str
    case: Optional[str] = None
    exit_status: Optional[str] = None
    stderr: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"class": self.kind, "detail": self.detail, "lesser": self.lesser, "case": self.case,
                "exit_status": self.exit_status, "stderr": self.stderr}

    def lines(self, indent: str = "  ") -> list[str]:
        """The fault in text: one line, then the case, the exit status and the stderr, indented."""
        out = [f"{indent}[{self.kind}]{' (lesser)' if self.lesser else ''} {self.detail}"]
        if self.case:
            out.append(f"{indent}    while answering: {self.case}")
        if self.exit_status:
            out.append(f"{indent}    exit status: {self.exit_status}")
        if self.stderr:
            out.append(f"{indent}    stderr (head and tail):")
            out += [f"{indent}      {line}" for line in self.stderr.splitlines()]
        return out


def port_fault(fault: Fault, kind: str, lesser: bool, label: Callable[[bytes], str]) -> PortFault:
    """A leash fault as a report shows it; ``label`` names the case from its request line."""
    case: Optional[str] = None
    if fault.request is not None:
        try:
            case = label(fault.request)
        except Exception:  # a request we wrote but cannot read back: quote it as it is
            case = fault.request.decode("utf-8", errors="replace")
    return PortFault(kind, lesser, fault.detail, case, fault.exit_status, fault.stderr)


def unanswered_note(count: int) -> str:
    """`` (N not answered: see the protocol failures)`` after the divergent count, when the port left cases unanswered."""
    return f" ({count:,} not answered: see the protocol failures)" if count else ""


def fault_lines(title: str, faults: Sequence[PortFault]) -> list[str]:
    return [title, *(line for fault in faults for line in fault.lines())] if faults else []


def class_lines(counts: Mapping[str, int], explain: Callable[[str], str], lesser: Callable[[str], bool],
                width: int) -> list[str]:
    """One line per class, most frequent first: count, name, ``(lesser)``, explanation."""
    return [f"  {counts[kind]:>{width},}  {kind}{' (lesser)' if lesser(kind) else ''}: {explain(kind)}"
            for kind in sorted(counts, key=lambda k: (-counts[k], k))]


def family_lines(by_family: Mapping[str, Sequence[int]], width: int) -> list[str]:
    """The families with divergences: ``divergent / cases``."""
    failing = [(family, counts) for family, counts in sorted(by_family.items()) if counts[1]]
    if not failing:
        return []
    return ["by family (divergent / cases):",
            *(f"  {family:<{width}} {counts[1]:>9,} / {counts[0]:,}" for family, counts in failing)]


def families_json(by_family: Mapping[str, Sequence[int]]) -> dict[str, dict[str, int]]:
    return {family: {"cases": counts[0], "divergent": counts[1]} for family, counts in sorted(by_family.items())}


def dumps(document: Mapping[str, Any]) -> str:
    """The ``--json`` text (indented, UTF-8 as is, keys in the document's order)."""
    return json.dumps(document, indent=2, ensure_ascii=False)


class JUnit:
    """A JUnit XML test suite built case by case; :meth:`text` is deterministic."""

    def __init__(self, name: str, classname: str) -> None:
        self.suite = ElementTree.Element("testsuite", name=name)
        self.classname = classname
        self.tests = self.failures = 0

    def case(self, name: str, out: Optional[str] = None,
             failure: Optional[tuple[str, str, str]] = None) -> None:
        """One test case; ``failure``: (type, message, text) when it fails."""
        self.tests += 1
        case = ElementTree.SubElement(self.suite, "testcase", classname=self.classname, name=name)
        if out is not None:
            ElementTree.SubElement(case, "system-out").text = out
        if failure is not None:
            self.failures += 1
            kind, message, text = failure
            ElementTree.SubElement(case, "failure", type=kind, message=message).text = text

    def faults(self, faults: Sequence[PortFault], message: str) -> None:
        """The port's failing protocol faults as one failing ``protocol`` case (none: no case)."""
        if faults:
            self.case("protocol", failure=("protocol", message,
                                           "\n".join(line for fault in faults for line in fault.lines(""))))

    def text(self, system_err: Sequence[str] = ()) -> str:
        if system_err:
            ElementTree.SubElement(self.suite, "system-err").text = "\n".join(system_err)
        self.suite.set("tests", str(self.tests))
        self.suite.set("failures", str(self.failures))
        self.suite.set("errors", "0")
        ElementTree.indent(self.suite)
        return '<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(self.suite, encoding="unicode") + "\n"
