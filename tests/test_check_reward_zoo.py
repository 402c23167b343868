"""``check-reward`` judges a zoo of reward functions right: correct ones have no finding, each one
wrong in one rule is caught in the class (and on the answer forms) that rule predicts, and
progexec's own reward in every framework's shape passes clean.

The expectations come from the rule each zoo function breaks (tests/reward_zoo.py) and from the
forms' construction (docs/check-reward.md), never from a run of the checker.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import pytest

from progexec.checker.reward.caller import RewardCaller
from progexec.checker.reward.check import RewardReport, run_reward_check
from progexec.checker.reward.classes import RewardClass
from progexec.checker.reward.forms import FORMS
from progexec.checker.reward.suite import build_suite

ANSWER_FORMS = [form.name for form in FORMS if form.policy == "numeric"]
"""The zoo's strict reader judges answers, not programs (it executes nothing)."""


def check(spec: str, *, signature: str = "plain", cases: int = 300, forms: Sequence[str] | None = None,
          probes: Sequence[str] = ("reorder", "fresh", "thread", "pool"), timeout: float = 30.0,
          value_range: tuple[float, float] | None = None) -> RewardReport:
    return _check(spec, signature, cases, None if forms is None else tuple(forms), tuple(probes), timeout, value_range)


@functools.lru_cache(maxsize=None)
def _check(spec: str, signature: str, cases: int, forms: tuple[str, ...] | None, probes: tuple[str, ...],
           timeout: float, value_range: tuple[float, float] | None) -> RewardReport:
    """One run per distinct call (several tests read the same report)."""
    suite = build_suite(cases, 3, forms)
    report = RewardReport(spec, signature, 3, 0.5, value_range, "record")
    return run_reward_check(lambda mode: RewardCaller.python(spec, signature, mode, batch=16, timeout=timeout),
                            suite, report, probe_cases=120, probes=probes)


def forms_with(report: RewardReport, kind: RewardClass) -> set[str]:
    return {name for name, stats in report.forms.items() if stats.classes[kind.value]}


def test_the_strict_reader_has_no_finding() -> None:
    report = check("tests.reward_zoo:correct_reward", forms=ANSWER_FORMS)
    assert report.cases == 300 and not report.by_class, report.examples
    assert report.passed()
    assert set(report.probes) == {"reorder", "fresh", "thread", "pool"}


@pytest.mark.parametrize(("spec", "signature"), [
    ("tests.reward_zoo:progexec_plain", "plain"),
    ("progexec.integrations.verl:compute_score", "verl"),
    ("progexec.integrations.verl:compute_score_batch", "verl-batch"),
    ("tests.reward_zoo:progexec_trl", "trl"),
    ("progexec.integrations.openrlhf:reward_func", "openrlhf"),
])
def test_progexec_own_reward_and_adapters_pass_clean(spec: str, signature: str) -> None:
    report = check(spec, signature=signature, cases=400, value_range=(0.0, 1.0))
    assert report.cases == 400
    assert not report.by_class, {kind: list(found) for kind, found in report.examples.items()}
    assert not report.reference_examples  # progexec agrees with the suite's construction on every form


# each zoo function breaks one rule; the forms that rule must trip on, and the class
RULES = [
    ("scale_guess_reward", RewardClass.FALSE_POSITIVE, {"scale_x100", "scale_x1000", "scale_div100"}),
    ("percent_ignored_reward", RewardClass.FALSE_NEGATIVE, {"percent", "percent_word"}),
    ("percent_ignored_reward", RewardClass.FALSE_POSITIVE, {"stray_percent"}),
    ("sign_ignored_reward", RewardClass.FALSE_POSITIVE, {"sign_flip"}),
    ("first_number_reward", RewardClass.FALSE_POSITIVE, {"quoted_prose"}),
    ("first_number_reward", RewardClass.FALSE_NEGATIVE, {"decimal", "boxed"}),
    ("substring_reward", RewardClass.FALSE_POSITIVE, {"table_numbers", "several_candidates", "two_boxed"}),
]


@pytest.mark.parametrize(("name", "kind", "forms"), RULES)
def test_a_rule_broken_is_caught_on_its_forms(name: str, kind: RewardClass, forms: set[str]) -> None:
    report = check(f"tests.reward_zoo:{name}", forms=ANSWER_FORMS, probes=())
    assert forms <= forms_with(report, kind)
    assert not report.passed() or kind is RewardClass.FALSE_NEGATIVE
    for form in forms:  # every example carries the completion, the gold record, the reward and progexec's verdict
        example = report.examples[kind.value][form].as_dict()
        assert example["completion"] and example["gold"]["answer"] is not None
        assert example["expected_reward"] == (1.0 if kind is RewardClass.FALSE_NEGATIVE else 0.0)
        assert example["reference"]["score"] == example["expected_reward"]


def test_scale_guesses_break_only_scale_forms() -> None:
    report = check("tests.reward_zoo:scale_guess_reward", forms=ANSWER_FORMS, probes=())
    wrongly = forms_with(report, RewardClass.FALSE_POSITIVE)
    assert wrongly <= {"scale_x100", "scale_x1000", "scale_div100", "stray_percent"}
    assert not forms_with(report, RewardClass.FALSE_NEGATIVE)


def test_signal_alarm_timeout_is_thread_dependent() -> None:
    report = check("tests.reward_zoo:alarm_reward", forms=ANSWER_FORMS)
    assert report.by_class[RewardClass.THREAD_DEPENDENT.value] > 0
    assert not report.by_class[RewardClass.NONDETERMINISTIC.value]
    assert not report.by_class[RewardClass.FALSE_NEGATIVE.value]  # right in the main thread
    example = report.simplest(RewardClass.THREAD_DEPENDENT.value, 1)[0]
    assert example.probe == "thread" and example.got.value == 1.0 and example.probe_got is not None \
        and example.probe_got.value == 0.0
    assert not report.passed()


def test_a_cache_keyed_by_the_gold_is_nondeterministic() -> None:
    report = check("tests.reward_zoo:cached_reward", forms=ANSWER_FORMS)
    assert report.by_class[RewardClass.NONDETERMINISTIC.value] > 0
    assert report.probes["fresh"][1] > 0


def test_a_hang_on_long_input_is_caught_and_does_not_stall_the_run() -> None:
    report = check("tests.reward_zoo:long_input_hang_reward", cases=40, forms=["huge", "decimal"], probes=(),
                   timeout=3.0)
    assert forms_with(report, RewardClass.HANG) == {"huge"}
    assert report.forms["decimal"].cases == report.forms["decimal"].cases and not report.forms["decimal"].classes
    assert report.cases == 40 and not report.not_run
    assert not report.passed()


def test_a_string_reward_is_a_bad_return() -> None:
    report = check("tests.reward_zoo:string_reward", cases=60, forms=ANSWER_FORMS, probes=())
    assert report.by_class[RewardClass.BAD_RETURN.value] == 60
    assert "str: '1'" in {finding.got.detail for found in report.examples["bad_return"].values() for finding in [found]}
    assert report.passed()  # bad_return is not in the default --fail-on


def test_an_exception_is_a_crash_on_the_forms_that_raise_it() -> None:
    report = check("tests.reward_zoo:table_reward", cases=80, forms=["option_letter", "decimal"], probes=())
    assert report.forms["option_letter"].classes["crash"] == report.forms["option_letter"].cases > 0
    for finding in report.examples["crash"].values():  # only records without a table (every MathQA one)
        assert "table" not in finding.case.gold and "KeyError" in finding.got.detail
    assert not report.passed()


def test_a_process_that_dies_is_a_crash_and_the_run_goes_on() -> None:
    report = check("tests.reward_zoo:exit_reward", cases=60, forms=["empty", "decimal"], probes=())
    assert forms_with(report, RewardClass.CRASH) == {"empty"}
    assert report.forms["decimal"].cases == report.cases - report.forms["empty"].cases
    assert not report.not_run
