"""The three policies, each a pure function of (completion, gold) to a :class:`RewardResult`.

``official``: the predicted program runs with the official semantics of the gold's dialect and
its answer is compared with ``==`` to the gold (MathQA: the option the value selects, by MathQA's
1 % rule). ``numeric``: the final answer is read by the rule of :mod:`progexec.reward.numbers` and
compared at :data:`REL_TOL`. ``helm``: HELM's ``float_equiv`` over the whole completion.
"""

from __future__ import annotations

import math

from ..core.registry import get_dataset as get_dialect
from .answers import choose
from .extract import Found, find
from .gold import UNITS, GoldRecord
from .goldvalue import ResolvedGold, describe, official_form
from .helm import first_number, float_equiv, helm_gold_text
from .model import Policy, RewardResult, RewardStatus, make_result
from .numbers import Reading, ReadKind
from .programs import ProgramRun, run_official

REL_TOL = 1e-3
"""numeric: an answer within 0.1 % of the gold (relative to the gold) is correct; so is the gold
rounded to the answer's own written precision (at least three significant digits, see
:attr:`progexec.reward.numbers.Reading.half_unit`), a band of at most 0.5 %."""
ABS_TOL = 1e-9
"""numeric: the absolute floor of the tolerance, so a zero gold accepts only (about) zero."""
SCALE_GUESSES = (100.0, 1000.0, 1e6, 1e9)
"""numeric: factors checked (both ways) to report a scale mismatch instead of a plain wrong answer."""

_S = RewardStatus


_ROUNDING_SLACK = 1 + 1e-9
"""Lets an answer exactly half a unit from the gold count as its rounding despite float noise."""


def close(answer: float, gold: float, half_unit: float | None = None) -> bool:
    """The numeric equality: ``|answer - gold| <= max(REL_TOL * |gold|, ABS_TOL, half_unit)``."""
    tolerance = max(REL_TOL * abs(gold), ABS_TOL)
    if half_unit is not None:
        tolerance = max(tolerance, half_unit * _ROUNDING_SLACK)
    return abs(answer - gold) <= tolerance


def _value(value: float | str | None) -> float | bool | None:
    if isinstance(value, str):
        return value == "yes"
    return value


def _program_failure(run: ProgramRun, text: str, policy: Policy) -> RewardResult | None:
    if run.too_large is not None:
        what, size, limit = run.too_large
        return make_result(_S.TOO_LARGE, policy, extracted=text, what=what, size=size, limit=limit)
    if run.syntax_error:
        return make_result(_S.SYNTAX_ERROR, policy, extracted=text, detail=run.detail)
    if run.value is None:
        return make_result(_S.PROGRAM_INVALID, policy, extracted=text, detail=run.detail)
    return None


def _one_program(found: Found, policy: Policy) -> str | RewardResult | None:
    if len(found.programs) > 1:
        return make_result(_S.MULTIPLE_ANSWERS, policy, extracted=found.programs[-1], count=len(found.programs))
    return found.programs[0] if found.programs else None


def official(completion: str, gold: GoldRecord, resolved: ResolvedGold) -> RewardResult:
    """The official policy (see the module docstring)."""
    policy = Policy.OFFICIAL
    found = find(completion)
    program = _one_program(found, policy)
    if isinstance(program, RewardResult):
        return program
    if program is None and get_dialect(gold.dialect).bare_numbers:
        program = _bare_number_program(found)
        if isinstance(program, RewardResult):
            return program
    if program is None:
        return make_result(_S.NO_PROGRAM, policy, dialect=gold.dialect)
    run = run_official(program, gold.table, gold.dialect, gold.problem, strict=True)
    failure = _program_failure(run, program, policy)
    if failure is not None:
        return failure
    assert run.value is not None and resolved.value is not None
    value, want = run.value, resolved.value
    equal = get_dialect(gold.dialect).reward_equal
    correct = equal(value, want, resolved) if equal is not None else value == official_form(want)
    status = _S.OK if correct else _S.WRONG
    return make_result(status, policy, extracted=program, value=_value(value), gold=describe(want))


def _bare_number_program(found: Found) -> str | RewardResult | None:
    """ConvFinQA's evaluator runs a one-token program as a bare number: the final answer's text is that token."""
    choice = choose(found)
    if choice is None:
        return None
    if choice.reading is None:
        assert choice.status is not None
        return make_result(choice.status, Policy.OFFICIAL, extracted=choice.extracted, count=choice.count)
    if choice.reading.kind is not ReadKind.NUMBER:
        return None
    return choice.reading.text


def numeric(completion: str, gold: GoldRecord, resolved: ResolvedGold) -> RewardResult:
    """The numeric policy (see docs/reward.md for the rule and its examples)."""
    policy = Policy.NUMERIC
    found = find(completion)
    letters = get_dialect(gold.dialect).option_letters and bool(resolved.options)
    choice = choose(found, letters)
    assert resolved.value is not None
    if choice is None:
        program = _one_program(found, policy)
        if isinstance(program, RewardResult):
            return program
        if program is None:
            return make_result(_S.NO_ANSWER, policy)
        run = run_official(program, gold.table, gold.dialect, gold.problem)
        failure = _program_failure(run, program, policy)
        if failure is not None:
            return failure
        assert run.value is not None
        reading = Reading(ReadKind.BOOLEAN if isinstance(run.value, str) else ReadKind.NUMBER, program,
                          _value(run.value), _value(run.value) if isinstance(run.value, float) else None)
        return compare(reading, resolved, policy)
    if choice.reading is None:
        assert choice.status is not None
        return make_result(choice.status, policy, extracted=choice.extracted, count=choice.count)
    return compare(in_table_unit(choice.reading, gold.unit), resolved, policy)


def in_table_unit(reading: Reading, unit: str | None) -> Reading:
    """With the gold's opt-in ``unit``, a number written with a scale word read in the table's unit:
    ``$94 million`` is 94 in a table in millions, ``$0.094 billion`` is 94 too; others as read."""
    if unit is None or not isinstance(reading.value, float) or reading.factor not in UNITS.values():
        return reading
    divisor = UNITS[unit]
    half = None if reading.half_unit is None else reading.half_unit / divisor
    return Reading(reading.kind, reading.text, reading.value / divisor, reading.raw, reading.factor / divisor,
                   reading.count, half)


def compare(reading: Reading, resolved: ResolvedGold, policy: Policy) -> RewardResult:
    """Judge one reading against the gold: equal, a scale mismatch, the wrong type, or wrong."""
    want = resolved.value
    assert want is not None
    got = reading.value
    shown = describe(want)
    result_value = got if not isinstance(got, str) else None
    if isinstance(want, str) and isinstance(got, float):  # a MathQA number against the correct option's value
        option = resolved.options[want].value
        if option is None:
            return make_result(_S.WRONG, policy, extracted=reading.text, value=got, gold=shown)
        want = option
    if _kind(got) != _kind(want):
        return make_result(_S.TYPE_MISMATCH, policy, extracted=reading.text, value=result_value,
                           got=_kind(got), want=_kind(want))
    if isinstance(got, float) and isinstance(want, float):
        if close(got, want, reading.half_unit):
            return make_result(_S.OK, policy, extracted=reading.text, value=got, gold=shown)
        factor = _scale_factor(reading, got, want)
        if factor is not None:
            return make_result(_S.SCALE_MISMATCH, policy, extracted=reading.text, value=got, gold=shown,
                               factor=f"{factor:g}")
        return make_result(_S.WRONG, policy, extracted=reading.text, value=got, gold=shown)
    status = _S.OK if got == want else _S.WRONG
    return make_result(status, policy, extracted=reading.text, value=result_value, gold=shown)


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return "a yes/no"
    if isinstance(value, str):
        return "an option letter"
    return "a number"


def _scale_factor(reading: Reading, got: float, want: float) -> float | None:
    """The factor that would turn the answer into the gold, if it is a scale guess."""
    half = reading.half_unit
    if reading.factor != 1.0 and reading.raw is not None:
        if close(reading.raw, want, None if half is None else half / reading.factor):
            return 1.0 / reading.factor
    base = max(REL_TOL * abs(want), ABS_TOL)  # close(got * candidate, want, half * candidate), inlined: the same sums
    for factor in SCALE_GUESSES:
        for candidate in (factor, 1.0 / factor):
            tolerance = base if half is None else max(base, half * candidate * _ROUNDING_SLACK)
            if abs(got * candidate - want) <= tolerance:
                return candidate
    return None


def helm(completion: str, gold: GoldRecord, resolved: ResolvedGold) -> RewardResult:
    """HELM's ``float_equiv(completion, str(gold))``."""
    policy = Policy.HELM
    assert resolved.value is not None
    gold_text = helm_gold_text(gold.answer if gold.answer is not None else resolved.value)
    first = first_number(completion)
    if first.text is None:
        return make_result(_S.NO_ANSWER, policy)
    status = _S.OK if float_equiv(completion, gold_text) else _S.WRONG
    value = first.value if first.value is not None and math.isfinite(first.value) else None  # 1e999 reads inf
    return make_result(status, policy, extracted=first.text, value=value, gold=gold_text)
