"""FinanceReasoning's answer rule without the sandbox: the plain-numeral reader against Python's own ``eval`` of
those literals, the official comparison (``get_acc`` with ``within_eps``) on described values, the strict rule's
precision band, the CoT validity test and the ``get_statistics`` rounding, each against the official code's
behaviour as read from ``utils/evaluation_utils.py`` and ``evaluation.py`` (BUPT-Reasoning-Lab/FinanceReasoning
b0fe645) or the strict rule's wording in docs/financereasoning.md."""

from __future__ import annotations

from fractions import Fraction

import pytest

from progexec.datasets.financereasoning.rule import (cot_valid, gold_unit, official_acc, official_average,
                                                       plain_value, strict_acc)
from progexec.core.errors import InputError
from progexec.datasets.financereasoning.values import Value, decode_payload, from_mapping


@pytest.mark.parametrize("text", ["0", "-0", "5", "-5", "27", "1152", "40.264", "-12.345", "0.1", "0.5",
                                  "123456789012345678901234567890", "3.141592653589793238462643383279",
                                  "-0.0", "9007199254740993", "1.0000"])
def test_plain_numerals_read_as_eval_reads_them(text: str) -> None:
    # the literals are this test's own constants, not model text: eval is Python's reference for them
    expected = eval(text)  # noqa: S307
    value = plain_value(text)
    assert value is not None and value.exact is not None
    assert type(expected).__name__ == value.category
    assert value.exact == Fraction(expected)


@pytest.mark.parametrize("text", ["007", "07.5", "1_000", "1e3", " 5", "5 ", "+5", ".5", "5.", "0x10",
                                  "1,152", "2**3", "", "-", "1." + "0" * 41])
def test_other_texts_are_left_to_the_sandbox(text: str) -> None:
    assert plain_value(text) is None


def num(value: int | float | Fraction, category: str = "float", first: str | None = None) -> Value:
    return Value("num", category, category, exact=Fraction(value), first=first)


@pytest.mark.parametrize(("value", "gt", "acc"), [
    (num(27.054), 27, 1),            # 27 * 0.002 = 0.054: the band's edge is in
    (num(27.055), 27, 0),
    (num(26.923), 27, 0),            # an unrounded answer against a rounded gold
    (num(-40.264), 40.264, 0),       # signed
    (num(40264), 40.264, 0),         # no scale leniency
    (num(0), 0, 1),                  # eps 0: exactly 0 only
    (num(Fraction(1, 10 ** 500)), 0, 0),
    (Value("bool", "bool", "bool", boolean=True), 1, 1),     # True == 1
    (Value("bool", "bool", "bool", boolean=False), 0, 1),
    (Value("bool", "bool", "bool", boolean=True), 1.5, 0),
    (num(1, "int"), True, 1),                               # 1 == True
    (num(2, "int"), True, 0),
    (Value("num", "float", "float", special="nan"), 5, 0),
    (Value("num", "float", "float", special="inf"), 5, 0),
    (Value("num", "Decimal", "Decimal", special="dnan"), 5, 0),
    (Value("none", "none", "NoneType"), 0, 0),
    (Value("empty", "list", "list"), 0, 0),
    (Value("other", "str", "str"), 5, 0),
    (Value("complex", "complex", "complex", complex_parts=(1.0, 0.0)), True, 1),
    (Value("complex", "complex", "complex", complex_parts=(1.0, 0.0)), 1, 0),
    (num(5), "5", 0),                                       # the gold must be int, float or bool
])
def test_official_comparison(value: Value, gt: object, acc: int) -> None:
    assert official_acc(value, gt) == acc


def test_gold_unit_is_the_last_decimal_place_of_the_shortest_repr() -> None:
    assert gold_unit(27) == 1
    assert gold_unit(40.264) == Fraction(1, 1000)
    assert gold_unit(0.1) == Fraction(1, 10)
    assert gold_unit(1e-7) == Fraction(1, 10 ** 7)


@pytest.mark.parametrize(("prediction", "gt", "strict"), [
    (num(27.4), 27, 1), (num(27.6), 27, 0), (num(26.5), 27, 1),
    (num(40.2644), 40.264, 1), (num(40.2646), 40.264, 0),
    (num(27.0, "float", first="list"), 27, 0),
    (Value("num", "array", "ndarray", exact=Fraction(27)), 27, 0),
    (Value("num", "numpy_number", "float64", exact=Fraction(27)), 27, 1),
    (Value("num", "numpy_bool", "bool_", exact=Fraction(1), boolean=True), 1, 0),
    (Value("num", "numpy_bool", "bool_", exact=Fraction(1), boolean=True), True, 1),
    (Value("bool", "bool", "bool", boolean=True), 1, 0),
    (Value("bool", "bool", "bool", boolean=False), False, 1),
    (num(0, "int"), False, 0),
    (Value("num", "float", "float", special="nan"), 5, 0),
    (Value("text", "str", "str", text=" -12.345 "), -12.345, 1),
    (Value("text", "str", "str", text="1,152"), 1152, 0),
    (Value("text", "str", "str", text="$5"), 5, 0),
    (Value("text", "str", "str", text="5%"), 5, 0),
    (Value("text", "str", "str", text="5e0"), 5, 0),
    (Value("text", "str", "str", text="five"), 5, 0),
    (Value("none", "none", "NoneType"), 0, 0),
])
def test_strict_rule(prediction: Value, gt: object, strict: int) -> None:
    assert strict_acc(prediction, gt) == strict


@pytest.mark.parametrize(("answer", "valid"), [("12", True), ("", False), ("None", False), ("nonetheless 5", False),
                                               (None, False), (5, False), ("NONE", False), ("0", True)])
def test_cot_validity(answer: object, valid: bool) -> None:
    assert cot_valid(answer) is valid


def test_statistics_round_as_get_statistics() -> None:
    assert official_average([1, 0, 0]) == 33.33
    assert official_average([1] * 199 + [0] * 39) == round(199 / 238 * 100, 2) == 83.61
    assert official_average([]) == 0.0


@pytest.mark.parametrize("raw", [None, 5, [], {"k": "num"}, {"k": "num", "p": "1", "q": "0"},
                                 {"k": "num", "p": "1e5", "q": "1"}, {"k": "bool"}, {"k": "what"},
                                 {"k": "num", "x": "huge?"}, {"k": "complex", "re": "x", "im": "0"},
                                 {"k": "text"}, {"k": "num", "p": "9" * 600, "q": "1"}])
def test_bad_descriptions_are_refused(raw: object) -> None:
    with pytest.raises(InputError):
        from_mapping(raw)


def test_payload_needs_its_marker() -> None:
    with pytest.raises(InputError):
        decode_payload(int.from_bytes(b'{"k": "none"}', "big"))
    assert decode_payload(int.from_bytes(b'\x01{"k": "none"}', "big")).kind == "none"
