"""The official FinanceMath rule, the strict rule and the code extraction, against FinanceMath's own code.

Every expected value below is what yale-nlp/FinanceMath's ``utils/evaluation_utils.py``
(``get_acc``, ``compare_two_numbers``, ``process_single_pot_output``) gives, worked out from
that code by hand (scripts/crosscheck_financemath.py runs the original on every case).
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest

from progexec.datasets.pysolution.extract import extract_code
from progexec.datasets.pysolution.official import Gold, accepting_test, official_mean, official_verdict
from progexec.datasets.pysolution.strict import gold_unit, strict_match, verdicts
from progexec.core.errors import SetupError

NAN, INF = float("nan"), float("inf")


def official(prediction: float | None, gold: object) -> bool:
    value = gold if isinstance(gold, (int, float)) else None
    return official_verdict(prediction, Gold(type(gold).__name__, value))[0]


@pytest.mark.parametrize(("prediction", "gold", "expected"), [
    (-8184.000000000004, -8184.000000000004, True),
    (8184.0, -8184.000000000004, False),      # the plain 0.15 % test keeps the sign
    (-5.0, 5, True),                          # |ratio| exactly 1: sign ignored
    (1000.0, 1, True),                        # any exact power of ten
    (0.001, 1.0, True),
    (17.51, 0.175, True),                     # x100 within 0.15 %
    (0.0175, 175.0, True),                    # a ratio of exactly 10**4
    (1.0015, 1.0, True),                      # the relative test is inclusive
    (1.002, 1.0, False),
    (NAN, 3.5, True),                         # a NaN prediction is always correct
    (NAN, 0, True),
    (INF, 3.5, False),
    (INF, 0, False),
    (1.0001e306, 1e306, False),               # the ceiling step overflows inside the try
    (0.0, 0, True),
    (1e-12, 0, False),
    (1.0009, 1.0001, True),                   # equal after ceil(x * 1000) / 1000
    (1.0, True, True),                        # a bool gold is compared with ==
    (2.0, True, False),
    (1.0, 10 ** 400, False),                  # an int gold too large for a float is wrong against everything
])
def test_official_rule(prediction: float, gold: object, expected: bool) -> None:
    assert official(prediction, gold) is expected


def test_official_gold_types() -> None:
    # get_acc asserts type(gt).__name__ in int/float/float64/bool; any other type makes every answer wrong
    assert official_verdict(2.5, Gold("float64", 2.5))[0]
    for name in ("int64", "float32", "Fraction", "Rational", "str", "NoneType"):
        assert not official_verdict(2.5, Gold(name, None))[0]
    assert not official_verdict(None, Gold("float", 2.5))[0]   # float() of the prediction failed


def test_accepting_test_order() -> None:
    assert accepting_test(-5.0, 5) == "power_of_ten"
    assert accepting_test(17.51, 0.175) == "times_100"
    assert accepting_test(175.2, 0.1751) == "times_1000"
    assert accepting_test(100.0, 0.001) == "power_of_ten"
    assert accepting_test(1.0009, 1.0001) == "ceil_3_places"
    assert accepting_test(1.0012, 1.0) == "within_0.15_percent"
    with pytest.raises(OverflowError):
        accepting_test(1.0001e306, 1e306)


def test_official_mean_rounds_like_the_script() -> None:
    assert official_mean([1, 0, 0]) == 33.33
    assert official_mean([1] * 134 + [0] * 66) == 67.0
    assert official_mean([]) == 0.0


@pytest.mark.parametrize(("gold", "unit"), [
    (-8184.000000000004, Fraction(1)), (0.30000000000000004, Fraction(1, 10)), (2.275013194817921, Fraction(1, 10**9)),
    (1388.0, Fraction(1)), (0.0575, Fraction(1, 10**4)), (1200, Fraction(100)),
])
def test_gold_unit(gold: float, unit: Fraction) -> None:
    assert gold_unit(gold) == unit


@pytest.mark.parametrize(("prediction", "gold", "official_ok", "strict_ok", "divergence"), [
    (-8184.4, -8184.000000000004, True, True, None),
    (-8184.6, -8184.000000000004, True, False, "within_0.15_percent"),
    (-5.0, 5, True, False, "sign_ignored"),
    (5.0, 0.05, True, False, "power_of_ten"),
    (0.3333, 1 / 3, True, False, "ceil_3_places"),
    (2.275, 2.275013194817921, True, False, "within_0.15_percent"),
    (NAN, 12.0, True, False, "nan_accepted"),
    (1.0009, 1.0001, True, False, "ceil_3_places"),
    (0.3, 0.1 + 0.2, True, True, None),
    (5.4, 5, False, False, None),            # rounds to 5, but strict also needs the official verdict
    (1.0, True, True, True, None),
])
def test_strict_and_divergence(prediction: float, gold: object, official_ok: bool, strict_ok: bool,
                               divergence: str | None) -> None:
    value = gold if isinstance(gold, (int, float)) else None
    assert verdicts(prediction, Gold(type(gold).__name__, value)) == (official_ok, strict_ok, divergence)


def test_strict_match_zero_and_infinity() -> None:
    assert strict_match(0.0, 0) and strict_match(-0.0, 0.0)
    assert not strict_match(1e-300, 0)
    assert not strict_match(INF, 1.0) and not strict_match(NAN, 1.0)
    assert math.isclose(float(gold_unit(-0.5)), 0.1)


FENCED = "Here:\n```python\ndef solution():\n    return 1\n```\nand\n```python\ndef solution():\n    return 2\n```"


@pytest.mark.parametrize(("output", "code"), [
    (FENCED, "def solution():\n    return 1"),                                   # the first python block
    ("```\ndef solution():\n    return 3\n```", "def solution():\n    return 3"),  # a bare fence
    ("x = 1\n    return x\n```\ntrailing", "def solution():\n    x = 1\n    return x"),  # one fence, no header
    ("    x = 1\n    return x", "def solution():\n    x = 1\n    return x"),     # indented body
    ("x = 1\nreturn x", "def solution():\n    x = 1\nreturn x"),                 # only the first line indented
    ("def solution():\n    return 4\n```", "def solution():\n    return 4"),    # header and one fence: whole text
    ("import argparse\n```python\ndef solution(): return 1\n```", ""),           # 'argparse' anywhere: no code
    ("", ""),
    ("```python\n\n  def solution():\n    return 5\n\n```", "def solution():\n    return 5"),
    ("```python def solution(): return 6```", "def solution(): return 6"),
])
def test_extract_code(output: str, code: str) -> None:
    assert extract_code(output) == code


def test_no_isolation_is_refused_unless_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from progexec.cli import main
    from progexec.isolation import bwrap as bubblewrap
    from progexec.isolation.bwrap import IsolationUnavailable
    from progexec.datasets.pysolution.pool import Pool
    monkeypatch.setattr(bubblewrap, "status", lambda: bubblewrap.Isolation(False, "no bwrap here"))
    with pytest.raises(SetupError):
        Pool(1)
    gold = [{"question_id": "q", "python_solution": "def solution():\n    return 1", "topic": "t"}]
    (tmp_path / "gold.json").write_text(json.dumps(gold))
    (tmp_path / "m.json").write_text(json.dumps([{"question_id": "q", "output": ["```python\nx\n```"]}]))
    assert main(["score-python", "--gold", str(tmp_path / "gold.json"), "--pred", str(tmp_path / "m.json"),
                 "--no-progress"]) == 2
