"""Divergence classification: for one program, typed findings — never formatted text.

Compares the official float64 answer with every named rounder, the per-step
variant and the exact oracle in both readings, and locates the raw value with
respect to the nearest 5-place rounding boundary. Reporters format the findings
through :data:`FindingKind` message templates.
"""

from __future__ import annotations

import math
import sys
from ..core.dataset import Dataset
from ..core.registry import default_dataset
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Any

from ..core.nodes import Program
from ..core.arithmetic import RefusalCause
from ..interp.evaluate import evaluate
from ..core.execution import OptionDetail, Execution
from ..interp.run import execute_program
from ..core.item import Item
from ..core.status import Status
from ..core.table import Table
from .reference import ExactAnswer, exact_answer
from .rounding import ROUNDERS
from .variants import PerStepFloat64

NDIGITS = 5
SCALE = 100000  # 10**5 as an exact integer
SCALE_ARTEFACT_THRESHOLD = Fraction(2**53, SCALE)
"""At and above this magnitude (exactly 2**53 / 10**5) the float64 grid is coarser than 10**-5."""



class FindingKind(Enum):
    """What can be found about one program; each carries a message template and a severity."""

    NAIVE_DIFFERS = ("naive", "divergence", "naive rounding round(x*1e5)/1e5 gives {got}; the official answer is {official}")
    HALF_UP_DIFFERS = ("half_up", "divergence", "half-up rounding floor(x*1e5+0.5)/1e5 gives {got}; the official answer is {official}")
    NUMPY_DIFFERS = ("numpy", "divergence", "numpy.round(x, 5) gives {got}; the official answer is {official}")
    PER_STEP_DIFFERS = ("per_step", "divergence", "rounding every intermediate to 5 places gives {got}; the official answer is {official}")
    EXACT_PORT_DIFFERS = ("exact", "divergence", "the exact single-rounding port gives {got}; the official answer is {official} (a bug in the port)")
    EXACT_BINARY_TIE = ("exact_binary_tie", "hazard", "x*10^5 is exactly a half-integer ({scaled}): half-even and half-up disagree by definition")
    PRODUCT_DOUBLE_ROUNDING = ("product_double_rounding", "hazard", "the float product x*1e5 = {product} lands {how} a half-integer boundary that the exact product {exact} does not")
    FLOAT_VS_DECIMAL = ("float_vs_decimal", "info", "the exact-decimal answer is {decimal}; the official float answer is {official} ({cause})")
    SCALE_ARTEFACT = ("scale_artefact", "info", "|x| = {magnitude} is at least 2^53/10^5: the float grid is coarser than 10^-5")
    GOLD_MISMATCH = ("gold_mismatch", "divergence", "the dataset's exe_ans is {gold}; the official execution gives {official}")
    IRRATIONAL_RESULT = ("irrational_result", "info", "the result is not rational; decided with {bits}-bit interval arithmetic")
    UNDECIDED = ("undecided", "hazard", "the exact {reading} answer could not be decided: {message}")

    def __init__(self, label: str, severity: str, template: str) -> None:
        self.label = label
        self.severity = severity
        self.template = template

    def format(self, details: dict[str, Any]) -> str:
        return self.template.format(**details)


@dataclass(frozen=True, slots=True)
class Variant:
    """One way a port can compute the answer: its name, its title in reports, the finding it raises when
    it differs from the official answer, and whether it rounds the final value only (``per_step`` rounds
    every intermediate; its function is the interpreter run under ``PerStepFloat64``)."""

    name: str
    title: str
    finding: FindingKind
    final_value: bool = True


VARIANTS: tuple[Variant, ...] = tuple(variant for variant in (
    Variant("exact", "`exact` — the single-rounding port of `round(x, 5)`", FindingKind.EXACT_PORT_DIFFERS),
    Variant("naive", "`naive` — `round(x * 1e5) / 1e5`", FindingKind.NAIVE_DIFFERS),
    Variant("half_up", "`half_up` — `floor(x * 1e5 + 0.5) / 1e5`", FindingKind.HALF_UP_DIFFERS),
    Variant("numpy", "`numpy` — `numpy.round(x, 5)`", FindingKind.NUMPY_DIFFERS),
    Variant("per_step", "`per_step` — every intermediate rounded to 5 places", FindingKind.PER_STEP_DIFFERS,
            final_value=False),
) if not variant.final_value or variant.name in ROUNDERS)
"""The one table of rounders and variants: the classification, the report model, the plot and every
reporter read it (``numpy`` only when numpy is importable)."""

FINAL_VALUE_ROUNDERS = tuple(variant.name for variant in VARIANTS if variant.final_value)
"""Rounders applied to the final raw value (``spec`` is the official answer itself)."""
ALL_VARIANTS = tuple(variant.name for variant in VARIANTS)
ROUNDER_FINDING = {variant.name: variant.finding for variant in VARIANTS}
VARIANT_TITLES = {variant.name: variant.title for variant in VARIANTS}


@dataclass(frozen=True, slots=True)
class Finding:
    """One typed finding and the values its message template needs."""

    kind: FindingKind
    details: tuple[tuple[str, Any], ...] = ()

    def message(self) -> str:
        return self.kind.format(dict(self.details))


@dataclass(frozen=True, slots=True)
class Analysis:
    """Everything the report needs about one program."""

    id: str
    program: str
    status: Status
    official: float | bool | None
    raw: float | None
    gold: float | str | None
    has_gold: bool
    answers: dict[str, float | bool | None] = field(default_factory=dict)
    exact_decimal: ExactAnswer | None = None
    exact_float: ExactAnswer | None = None
    findings: tuple[Finding, ...] = ()
    ulps_to_boundary: float | None = None
    message: str = ""
    stopped_by_clock: bool = False

    @property
    def kinds(self) -> frozenset[FindingKind]:
        return frozenset(finding.kind for finding in self.findings)


def _details(**values: Any) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(values.items()))


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return repr(value)


def ulps_to_boundary(x: float, ndigits: int = NDIGITS) -> float:
    """Distance from ``x`` to the nearest ``ndigits``-place rounding boundary, in ulps of ``x``.

    Capped at the largest double (tiny ``x`` are astronomically many ulps from 0.000005).
    """
    scaled = Fraction(x) * 10**ndigits
    boundary = math.floor(scaled) + Fraction(1, 2)
    distance = abs(scaled - boundary) / 10**ndigits
    try:
        return float(distance / Fraction(math.ulp(x)))
    except OverflowError:
        return sys.float_info.max


def _product_double_rounding(x: float) -> tuple[str, Fraction, float] | None:
    """Whether fl(x*1e5) lands on, or crosses, a half-integer the exact product does not."""
    exact = Fraction(x) * SCALE
    if (exact * 2).denominator == 1 and (exact * 2).numerator % 2 == 1:
        return None  # an exact tie: EXACT_BINARY_TIE covers it
    product = x * 1e5
    if not math.isfinite(product):
        return None  # the product overflows: no half-integer is involved
    rounded = Fraction(product)
    if (rounded - Fraction(1, 2)).denominator == 1 and rounded != exact:
        return "onto", exact, product
    if math.floor(exact + Fraction(1, 2)) != math.floor(rounded + Fraction(1, 2)):
        return "across", exact, product
    return None


def _float_vs_decimal(official: float | bool, decimal: ExactAnswer, exact_float: ExactAnswer) -> Finding | None:
    if not decimal.decided or decimal.status is not Status.OK:
        return None
    decimal_answer = decimal.rounded_float()
    if decimal_answer == official and type(decimal_answer) is type(official):
        return None
    float_answer = exact_float.rounded_float() if exact_float.decided else None
    if float_answer == official:
        cause = "the decimal literals' binary representation moved it"
    elif float_answer == decimal_answer:
        cause = "float64 operation rounding moved it"
    else:
        cause = "representation and operation rounding both moved it"
    return Finding(FindingKind.FLOAT_VS_DECIMAL, _details(decimal=_show(decimal_answer), official=_show(official),
                                                          cause=cause))


def _apply_rounder(name: str, raw: float) -> float | None:
    """A rounder's answer; None when it raises (``round(inf)`` inside ``naive`` for huge values)."""
    try:
        return ROUNDERS[name](raw, NDIGITS)
    except (OverflowError, ValueError):
        return None


def analyze(item_id: str, program: Program, table: Table | None, gold: float | str | None = None,
            has_gold: bool = False, dialect: Dataset | None = None) -> Analysis:
    """Classify one parsed program: every rounder, the oracle in both readings, the findings."""
    from ..core.execution import gold_match

    dialect = dialect if dialect is not None else default_dataset()
    item = Item(item_id, program.to_text(), table, gold, has_gold, dialect=dialect)
    run = execute_program(program, table, dialect)
    match, reason = gold_match(run.official, item)
    return analyze_execution(Execution(program, run.outcome, run.official, None, item, match, reason))


def _gold_finding(execution: Execution, gold: Any) -> list[Finding]:
    """GOLD_MISMATCH exactly when the runner's one gold match says False (refused programs included)."""
    if execution.match is not False:
        return []
    official = execution.official.value if execution.official.valid else None
    shown = "invalid" if not execution.official.valid else _show(_as_answer(official))
    return [Finding(FindingKind.GOLD_MISMATCH, _details(gold=_show(gold), official=shown))]


def _as_answer(value: Any) -> Any:
    return value == "yes" if value in ("yes", "no") else value


def analyze_execution(execution: Execution) -> Analysis:
    """Classify one executed item (the runner's Execution): every rounder, the oracle in both readings,
    the findings. The float64 outcome and the gold match are read from the Execution, not recomputed."""
    item = execution.item
    assert item is not None
    item_id, gold, has_gold, table = item.id, item.gold, item.has_gold, item.table
    program = execution.program
    outcome = execution.outcome
    text = program.to_text() if program is not None else item.program_text
    chosen = execution.detail if isinstance(execution.detail, OptionDetail) else None
    if chosen is not None:  # a problem answered by an option (MathQA): the gold is the correct option's value
        gold, has_gold = chosen.gold_value(), execution.match is not None
    if not outcome.present or program is None or chosen is not None:
        official_value = outcome.value if outcome.present else None
        return Analysis(item_id, text, outcome.status, official_value, None, gold, has_gold,
                        findings=tuple(_gold_finding(execution, gold)), message=outcome.message,
                        stopped_by_clock=outcome.cause is RefusalCause.CLOCK)
    dialect = item.dialect
    official = outcome.value
    assert official is not None
    raw = outcome.raw if not isinstance(outcome.raw, bool) else None
    answers: dict[str, float | bool | None] = {"spec": official}
    findings: list[Finding] = []
    for rounder in FINAL_VALUE_ROUNDERS:
        answers[rounder] = official if raw is None else _apply_rounder(rounder, raw)
    per_step = evaluate(program, PerStepFloat64(NDIGITS, dialect.literals), table, ops=dialect.ops)
    answers["per_step"] = per_step.value if per_step.present else None
    for name in ALL_VARIANTS:
        got = answers[name]
        if got != official or type(got) is not type(official):
            findings.append(Finding(ROUNDER_FINDING[name], _details(got=_show(got), official=_show(official))))
    ulps: float | None = None
    if raw is not None and math.isfinite(raw):
        scaled = Fraction(raw) * SCALE
        if (scaled * 2).denominator == 1 and (scaled * 2).numerator % 2 == 1:
            findings.append(Finding(FindingKind.EXACT_BINARY_TIE, _details(scaled=str(scaled))))
        crossing = _product_double_rounding(raw)
        if crossing is not None:
            how, exact_product, product = crossing
            findings.append(Finding(FindingKind.PRODUCT_DOUBLE_ROUNDING, _details(
                how=how, product=repr(product), exact=str(exact_product))))
        if abs(Fraction(raw)) >= SCALE_ARTEFACT_THRESHOLD:
            findings.append(Finding(FindingKind.SCALE_ARTEFACT, _details(magnitude=repr(abs(raw)))))
        ulps = ulps_to_boundary(raw) if raw != 0 else None
    decimal = exact_answer(program, table, "decimal", NDIGITS, dialect.literals, dialect.ops)
    exact_float = exact_answer(program, table, "float", NDIGITS, dialect.literals, dialect.ops)
    for reading in (decimal, exact_float):
        if not reading.decided:
            findings.append(Finding(FindingKind.UNDECIDED, _details(reading=reading.reading, message=reading.message)))
    if decimal.precision_bits is not None and decimal.decided and decimal.status is Status.OK \
            and not decimal.too_large:
        findings.append(Finding(FindingKind.IRRATIONAL_RESULT, _details(bits=decimal.precision_bits)))
    difference = _float_vs_decimal(official, decimal, exact_float)
    if difference is not None:
        findings.append(difference)
    findings.extend(_gold_finding(execution, gold))
    findings.sort(key=lambda finding: list(FindingKind).index(finding.kind))
    return Analysis(item_id, text, outcome.status, official, raw, gold, has_gold, answers, decimal, exact_float,
                    tuple(findings), ulps)
