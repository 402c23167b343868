"""Run the suite through an evaluator port, chunk by chunk, into one :class:`EvalReport`.

An *answerer* maps a chunk of prepared cases to one answer each (a verdict or a Failure):
``answer(chunk) -> list``, a pure function of the chunk, so chunks could be shared among
several ports later (``--jobs``). External programs and ``--python`` functions both answer
through :class:`ChildEvaluator` (the leashed :mod:`..engine`); trusted in-process callables
through :func:`callable_answerer`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Optional

from .. import pychild
from ..report import PortFault, port_fault
from ..engine import DEFAULT_TIMEOUT, READY_LINE, ChildExchange, Fault, PortSandbox, python_port
from .cases import EvalCase, chunks, default_size, families_of, suite
from .classes import EvalDivergence, Failure
from .diagnosis import Explanation, explanations
from .protocol import Answer, Prepared, Protocol, Verdict, matches, parse_answer, prepare_all, reference
from .semantics import Variant
from ...core.plural import plural, plural_of
from ...core.limits import DEFAULT_LIMITS, current

Answerer = Callable[[Sequence[Prepared]], list[Answer]]
ProgressHook = Callable[[int, int], None]
DEFAULT_CHUNK = DEFAULT_LIMITS.evaluator_chunk_cases
ANSWER_LINE_MAX = DEFAULT_LIMITS.evaluator_answer_line_chars
"""An answer line longer than this is a flood (an answer is well under 200 bytes)."""
EXAMPLES_PER_CLASS = DEFAULT_LIMITS.evaluator_examples_per_class


@dataclass(frozen=True, slots=True)
class EvalCounterexample:
    """One divergent case with what was expected, what came back, and what explains it."""

    case: EvalCase
    expected: Verdict
    got: Answer
    divergence: EvalDivergence
    variant: Optional[Variant]
    explained: tuple[Explanation, ...] = ()
    """Every class that explains the answer (the report picks one: :meth:`EvalReport.finish`)."""

    def as_class(self, kind: EvalDivergence) -> EvalCounterexample:
        """This counterexample shown under ``kind``, with the variant of that class that reproduces it."""
        return replace(self, divergence=kind, variant=dict(self.explained).get(kind, self.variant))

    @property
    def size(self) -> tuple[int, int, str]:
        """Simplest first: shortest program, smallest table, then id."""
        cells = sum(len(row) for row in self.case.table) if self.case.table else 0
        return len(self.case.program), cells, self.case.id

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.case.id, "family": self.case.family.value, "dialect": self.case.dialect,
                "program": self.case.program, "table": self.case.table, "expected": describe(self.expected),
                "got": describe(self.got), "class": self.divergence.value,
                "variant": self.variant.value if self.variant else None}


def describe(answer: Answer) -> str:
    """An answer in one short line (``valid 3.26849``, ``invalid``, ``status 1407 absent``)."""
    if isinstance(answer, Failure):
        return answer.detail
    if hasattr(answer, "valid"):
        if not answer.valid:
            return "invalid"
        return "valid n/a" if answer.value is None else f"valid {answer.value!r}"
    if not answer.present:
        return f"status {int(answer.status)} absent"
    shown = ("yes" if answer.bool_value else "no") if answer.is_bool else repr(answer.value)
    return f"status {int(answer.status)} {'bool ' if answer.is_bool else ''}{shown}"


@dataclass
class _Explained:
    """Divergent cases that the same classes explain: their count by family and their simplest distinct programs."""

    count: int = 0
    by_family: Counter[str] = field(default_factory=Counter)
    examples: list[EvalCounterexample] = field(default_factory=list)


@dataclass
class EvalReport:
    """Counts by family and by class, the simplest counterexamples, and the port's protocol failures."""

    evaluator: str
    protocol: Protocol
    suite: str
    seed: int
    cases: int = 0
    skipped: int = 0
    divergent: int = 0
    by_family: dict[str, list[int]] = field(default_factory=dict)
    by_class: Counter[str] = field(default_factory=Counter)
    family_classes: dict[str, Counter[str]] = field(default_factory=dict)
    examples: dict[str, list[EvalCounterexample]] = field(default_factory=dict)
    faults: list[PortFault] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    pending: dict[tuple[tuple[EvalDivergence, bool], ...], _Explained] = field(default_factory=dict)
    """Divergences not yet given their one class, by the classes that explain them (and whether a variant
    reproduces the answer, or only its shape), until :meth:`finish`."""

    def finish(self) -> None:
        """Give every divergent case one class, so that one bug is one class over the whole run.

        A case that several classes explain (a ``Math.round(x * 1e5) / 1e5`` port's answer off a tie is
        also a half-up answer; a refusal of every table op is also a stale-row refusal) goes to the class
        that explains the most cases of the run (then the one a variant reproduces most often, then the
        table's order): a greedy cover, so a port with one bug gets one class wherever it is wrong.
        """
        order = list(EvalDivergence)
        left = self.pending
        self.pending = {}
        while left:
            weight: Counter[EvalDivergence] = Counter()
            reproduced: Counter[EvalDivergence] = Counter()
            for kinds, group in left.items():
                for kind, by_variant in kinds:
                    weight[kind] += group.count
                    reproduced[kind] += group.count if by_variant else 0
            best = min(weight, key=lambda kind: (-weight[kind], -reproduced[kind], order.index(kind)))
            for kinds in [kinds for kinds in left if best in dict(kinds)]:
                group = left.pop(kinds)
                self.by_class[best.value] += group.count
                for family, count in group.by_family.items():
                    self.family_classes.setdefault(family, Counter())[best.value] += count
                kept = self.examples.setdefault(best.value, [])
                kept += [example.as_class(best) for example in group.examples]
                kept[:] = _simplest_distinct(kept)
        for name in [name for name, kept in self.examples.items() if not kept]:
            del self.examples[name]

    @property
    def unanswered(self) -> int:
        """Divergent cases the port did not answer (it died, hung or flooded): not counterexamples."""
        return sum(count for kind, count in self.by_class.items() if EvalDivergence(kind).unanswered)

    def failing_classes(self, strict: bool = False) -> list[str]:
        kinds = set(self.by_class) | {fault.kind for fault in self.faults}
        return sorted(kind for kind in kinds if strict or not EvalDivergence(kind).minor)

    def passed(self, strict: bool = False) -> bool:
        return not self.failing_classes(strict)


def _simplest_distinct(examples: list[EvalCounterexample]) -> list[EvalCounterexample]:
    """The simplest examples, one per program text (a program seen with several tables is shown once)."""
    kept: list[EvalCounterexample] = []
    for example in sorted(examples, key=lambda item: item.size):
        if all(example.case.program != other.case.program for other in kept):
            kept.append(example)
        if len(kept) == current().evaluator_examples_per_class:
            break
    return kept


def check_chunk(prepared: Sequence[Prepared], answers: Sequence[Answer], protocol: Protocol,
                report: EvalReport) -> None:
    """Compare one chunk's answers with the reference; classify and count every divergence."""
    if len(answers) != len(prepared):
        raise ValueError(f"{plural(len(answers), 'answer')} for {plural(len(prepared), 'case')}")
    for item, got in zip(prepared, answers):
        family = report.by_family.setdefault(item.case.family.value, [0, 0])
        family[0] += 1
        expected = reference(item, protocol)
        if matches(expected, got):
            continue
        explained = explanations(item, protocol, expected, got)
        family[1] += 1
        report.divergent += 1
        group = report.pending.setdefault(tuple((kind, variant is not None) for kind, variant in explained),
                                          _Explained())
        group.count += 1
        group.by_family[item.case.family.value] += 1
        kind, variant = explained[0]
        if not kind.unanswered:  # a case never answered is shown once, as the port's protocol failure
            group.examples.append(EvalCounterexample(item.case, expected, got, kind, variant, explained))
            if len(group.examples) > 4 * EXAMPLES_PER_CLASS:
                group.examples[:] = _simplest_distinct(group.examples)
    report.cases += len(prepared)


def run_evaluator_check(answer: Answerer, name: str, protocol: Protocol = Protocol.JSONL, suite_name: str = "all",
                        cases: Optional[int] = None, seed: int = 0, chunk: int = DEFAULT_CHUNK,
                        progress: Optional[ProgressHook] = None) -> EvalReport:
    """Run the suite through ``answer`` (``chunk`` cases at a time)."""
    report = EvalReport(name, protocol, suite_name, seed)
    flat = protocol is Protocol.FLAT
    total = cases if cases is not None else sum(default_size(family) for family in families_of(suite_name, flat))
    for part in chunks(suite(suite_name, cases, seed, flat), chunk):
        prepared = prepare_all(part, protocol)
        report.skipped += len(part) - len(prepared)
        if prepared:
            check_chunk(prepared, answer(prepared), protocol, report)
        if progress is not None:
            progress(report.cases + report.skipped, total)
    report.finish()
    if report.skipped:
        report.notes.append(f"{plural(report.skipped, 'case')} {plural_of('has', report.skipped)} no "
                            f"{protocol.value} form (they do not parse or compile) "
                            "and were not sent")
    return report


class ChildEvaluator:
    """An evaluator port in a child process on the leash: ``--cmd`` or ``--python`` (see :mod:`..pychild`)."""

    def __init__(self, argv: Sequence[str], protocol: Protocol, timeout: float = DEFAULT_TIMEOUT,
                 chunk: int = DEFAULT_CHUNK, python: bool = False, sandbox: Optional[PortSandbox] = None) -> None:
        self.protocol = protocol
        self.engine = ChildExchange(argv, timeout=timeout, chunk=chunk, max_line=current().evaluator_answer_line_chars,
                                    ready=READY_LINE if python else None, sandbox=sandbox)

    @classmethod
    def python(cls, spec: str, protocol: Protocol, timeout: float = DEFAULT_TIMEOUT,
               chunk: int = DEFAULT_CHUNK, isolate: bool = False) -> ChildEvaluator:
        """``MODULE:FUNC`` run in a child process (see :mod:`..pychild`), in the sandbox with ``isolate``."""
        child = "flat" if protocol is Protocol.FLAT else "evaluator"
        argv, sandbox = python_port(child, spec, isolate)
        return cls(argv, protocol, timeout, chunk, python=True, sandbox=sandbox)

    def start(self) -> None:
        self.engine.start()

    def close(self) -> None:
        self.engine.close()

    def faults(self) -> list[PortFault]:
        """The run's protocol failures as a report shows them (class, case, exit status, stderr)."""
        return [port_fault(fault, fault.kind.value, EvalDivergence(fault.kind.value).minor, case_label)
                for fault in self.engine.faults]

    def __call__(self, prepared: Sequence[Prepared]) -> list[Answer]:
        answers = self.engine.exchange([item.line for item in prepared])
        return [Failure(EvalDivergence(answer.kind.value), answer.detail) if isinstance(answer, Fault)
                else parse_answer(answer, item, self.protocol) for answer, item in zip(answers, prepared)]


def case_label(request: bytes) -> str:
    """A request line as the case it sends: its id, and its program when the protocol carries one."""
    case = json.loads(request)
    program = case.get("program") if isinstance(case, dict) else None
    ident = case.get("id") if isinstance(case, dict) else None
    return f"{ident} {program!r}"[:300] if isinstance(program, str) else str(ident)[:300]


def callable_answerer(func: Callable[..., Any], protocol: Protocol) -> Answerer:
    """A trusted in-process function, called exactly as ``--python`` calls it (same encoding)."""
    encode = pychild.flat(func) if protocol is Protocol.FLAT else pychild.evaluator(func)

    def answer(prepared: Sequence[Prepared]) -> list[Answer]:
        return [parse_answer(encode(item.line.rstrip(b"\n")), item, protocol) for item in prepared]

    return answer
