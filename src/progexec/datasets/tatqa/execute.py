"""Executing a TAT-QA arithmetic derivation and judging it against its gold answer.

The derivation is lowered (:mod:`progexec.datasets.tatqa.derivation`) and run by the one interpreter under
float64 (Python floats, no final rounding: the scorer rounds) and under the exact oracle (exact
decimals). A value matches the gold answer when the official normalisation gives the same string:
``'%.4f' % (round(x, 2) * scale)`` for both, with the gold's scale, read back by ``normalize_answer``
(the exact value is rounded half up at 2 places, as a person rounds it). The rules searched, in order: as written; bracketed lone numbers as groups instead of
accounting negatives; and, for a percent answer, x100 (the ``* 100`` the derivation leaves out).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...core.nodes import Program
from ...core.errors import ProgramSyntaxError, OfficialAbort
from ...core.arithmetic import Float64
from ...core.outcome import Outcome
from ...interp.evaluate import evaluate
from ...core.status import Status
from ...oracle.exact import Exact
from .derivation import accounting_literals, lower, parse_derivation
from .metric import gold_answers
from .normalize import answer_string, normalize_answer, scale_to_num


class Float64Unrounded(Float64):
    """The official float64 operations without FinQA's final ``round(x, 5)``: TAT-QA's scorer rounds."""

    name = "float64-unrounded"

    def finish(self, value: float) -> float:
        return value


FLOAT64 = Float64Unrounded()


class Finding(enum.Enum):
    """Why a derivation's float64 value, its exact value and the gold answer disagree (the report's classes)."""

    PERCENT_SCALE = ("percent_scale", "the answer is a percentage and matches only after a x100 the derivation "
                     "leaves out")
    ACCOUNTING_NEGATIVE = ("accounting_negative", "reading a bracketed number such as (71) as -71 (accounting) "
                           "or as 71 (a group) decides the match")
    ROUNDING = ("rounding", "the 2-place rounding of the normalisation decides the match: the float64 value and "
                "the exact value (rounded half up) give different strings, or the exact value is a tie")
    DERIVATION_ERROR = ("derivation_error", "the formula gives another number under every rule")
    UNPARSEABLE = ("unparseable", "the derivation does not parse (or is empty)")

    def __init__(self, label: str, text: str) -> None:
        self.label = label
        self.text = text


RULES = (("accounting", 1), ("grouping", 1), ("accounting", 100), ("grouping", 100))
"""(reading of bracketed numbers, factor), in the order they are tried."""


@dataclass(frozen=True, slots=True)
class DerivationResult:
    """One arithmetic question's derivation: its values, its match and its findings."""

    uid: str
    derivation: str
    status: Status
    value: float | None = None
    exact: Fraction | None = None
    gold: Any = None
    scale: Any = ""
    gold_string: str = ""
    value_string: str = ""
    match: bool = False
    """The float64 value, as written, matches the gold answer under the official normalisation."""
    rule: str | None = None
    """The first rule under which the float64 value matches (``as_written``, ``grouping``, ``times_100``,
    ``grouping_times_100``), None when none does."""
    findings: tuple[Finding, ...] = ()
    message: str = ""
    program: str = ""

    @property
    def executes(self) -> bool:
        """The float64 value matches the gold answer under one of the rules."""
        return self.rule is not None

    def record_fields(self) -> dict[str, Any]:
        """The TAT-QA fields of the per-item JSON record."""
        record: dict[str, Any] = {"derivation": self.derivation, "scale": self.scale,
                                  "gold_normalized": self.gold_string, "value_normalized": self.value_string,
                                  "rule": self.rule, "findings": [finding.label for finding in self.findings]}
        if self.exact is not None:
            record["exact"] = _fraction_text(self.exact)
        if self.program:
            record["program"] = self.program
        return record


def _fraction_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _four_places(value: Fraction) -> str:
    """``'%.4f'`` of an exact value that has at most 4 decimal places."""
    scaled = value * 10000
    whole = round(scaled)
    sign = "-" if whole < 0 else ""
    digits = str(abs(whole)).rjust(5, "0")
    return f"{sign}{digits[:-4]}.{digits[-4:]}"


def round_half_up(value: Fraction, places: int = 2) -> Fraction:
    """An exact value rounded half away from zero at ``places`` decimals."""
    scale = 10 ** places
    magnitude = (abs(value) * scale * 2 + 1) // 2
    return Fraction(int(magnitude) if value >= 0 else -int(magnitude), scale)


def is_tie(value: Fraction, places: int = 2) -> bool:
    """True when the exact value lies exactly halfway between two ``places``-decimal numbers."""
    return bool((value * 10 ** places).denominator == 2)


def normalized_value(value: float | Fraction, scale: Any) -> str:
    """The official normalised string of a number under ``scale``: float64 as the scorer computes it,
    an exact value rounded half up."""
    if isinstance(value, Fraction):
        factor = scale_to_num(scale)
        exact_factor = Fraction(1, 100) if factor == 0.01 else Fraction(int(factor))
        return normalize_answer(_four_places(round_half_up(value) * exact_factor))
    return normalize_answer("%.4f" % (round(value, 2) * scale_to_num(scale)))


def _run(program: Program) -> tuple[Outcome[float], Fraction | None]:
    outcome = evaluate(program, FLOAT64)
    exact_outcome = evaluate(program, Exact("decimal"))
    exact = exact_outcome.raw if exact_outcome.status is Status.OK else None
    return outcome, exact if isinstance(exact, Fraction) else None


def run_derivation(uid: str, question: dict[str, Any]) -> DerivationResult:
    """Execute one arithmetic question's derivation and classify it against its gold answer."""
    derivation = question.get("derivation")
    text = derivation if isinstance(derivation, str) else ""
    scale = question.get("scale", "")
    try:
        _, gold, gold_scale = gold_answers(question)
        gold_string = normalize_answer(answer_string(gold, gold_scale))
    except OfficialAbort as error:
        return DerivationResult(uid, text, Status.BAD_INPUT, gold=question.get("answer"), scale=scale,
                                message=f"the gold answer cannot be read: {error}")
    base: dict[str, Any] = dict(uid=uid, derivation=text, gold=question.get("answer"), scale=scale,
                                gold_string=gold_string)
    try:
        tree = parse_derivation(text)
    except ProgramSyntaxError as error:
        status = Status.LIMIT_EXCEEDED if error.bound is not None else Status.SYNTAX_ERROR
        return DerivationResult(**base, status=status, findings=(Finding.UNPARSEABLE,), message=str(error))
    programs = {"accounting": lower(tree, "accounting")}
    if accounting_literals(tree):
        programs["grouping"] = lower(tree, "grouping")
    runs = {reading: _run(program) for reading, program in programs.items()}
    outcome, exact = runs["accounting"]
    if not outcome.present or not isinstance(outcome.value, float):
        return DerivationResult(**base, status=outcome.status, exact=exact, findings=(Finding.DERIVATION_ERROR,),
                                message=outcome.message, program=programs["accounting"].to_text())
    float_match: dict[tuple[str, int], bool] = {}
    exact_match: dict[tuple[str, int], bool] = {}
    ties: set[tuple[str, int]] = set()
    for reading, factor in RULES:
        if reading not in runs or (factor == 100 and scale != "percent"):
            continue
        value_outcome, value_exact = runs[reading]
        if isinstance(value_outcome.value, float):
            float_match[(reading, factor)] = normalized_value(value_outcome.value * factor, scale) == gold_string
        if value_exact is not None:
            exact_match[(reading, factor)] = normalized_value(value_exact * factor, scale) == gold_string
            if is_tie(value_exact * factor):
                ties.add((reading, factor))
    value = outcome.value
    chosen = next((rule for rule in RULES if float_match.get(rule)), None)
    chosen = chosen or next((rule for rule in RULES if exact_match.get(rule)), None)
    findings = _findings(chosen, float_match, exact_match, "grouping" in runs, ties)
    matched = next((rule for rule in RULES if float_match.get(rule)), None)
    return DerivationResult(**base, status=Status.OK, value=value, exact=exact,
                            value_string=normalized_value(value, scale), match=float_match[("accounting", 1)],
                            rule=_rule_name(matched), findings=findings, program=programs["accounting"].to_text())


def _rule_name(rule: tuple[str, int] | None) -> str | None:
    if rule is None:
        return None
    reading, factor = rule
    names = {("accounting", 1): "as_written", ("grouping", 1): "grouping", ("accounting", 100): "times_100",
             ("grouping", 100): "grouping_times_100"}
    return names[(reading, factor)]


def _findings(chosen: tuple[str, int] | None, float_match: dict[tuple[str, int], bool],
              exact_match: dict[tuple[str, int], bool], has_brackets: bool,
              ties: set[tuple[str, int]]) -> tuple[Finding, ...]:
    if chosen is None:
        return (Finding.DERIVATION_ERROR,)
    reading, factor = chosen
    found = []
    if factor == 100:
        found.append(Finding.PERCENT_SCALE)
    if has_brackets:
        accounting = float_match.get(("accounting", factor), False) or exact_match.get(("accounting", factor), False)
        grouping = float_match.get(("grouping", factor), False) or exact_match.get(("grouping", factor), False)
        if accounting != grouping:
            found.append(Finding.ACCOUNTING_NEGATIVE)
    if float_match.get(chosen, False) != exact_match.get(chosen, False) or chosen in ties:
        found.append(Finding.ROUNDING)
    return tuple(found)


__all__ = ["Float64Unrounded", "FLOAT64", "Finding", "RULES", "DerivationResult", "round_half_up", "is_tie", "normalized_value",
           "run_derivation"]
