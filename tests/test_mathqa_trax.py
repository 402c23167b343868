"""``--semantics trax``: google/trax's MathQA numbers and failures (issue 11), and progexec's own.

Expected values are trax's (``trax/data/tf_inputs.py``: scipy ``comb``, numpy int64 ``gcd``/``lcm``,
its string reading of arguments), as the issue states them, or come from the independent
re-implementation of trax's executor at the bottom of this file, written from trax's code.
"""

from __future__ import annotations

import math
import re
from typing import Any

import pytest

np = pytest.importorskip("numpy")
scipy_special = pytest.importorskip("scipy.special")

from progexec.core.status import Status
from progexec.datasets.mathqa.binding import number_texts
from progexec.datasets.mathqa.corpus import MATHQA_SPLITS, mathqa_records
from progexec.datasets.mathqa.execute import Semantics, execute_all, run_formula
from progexec.core.errors import OptionError
from progexec.datasets.mathqa.ops import MATHQA_EXTENDED_OPS
from progexec.datasets.mathqa.trax import run_trax

TRAX, OURS = Semantics.TRAX, Semantics.PROGEXEC


def _run(formula: str, problem: str, semantics: Semantics) -> tuple[Status, float | None]:
    outcome = run_formula(formula, problem, semantics=semantics)
    return outcome.status, outcome.value if isinstance(outcome.value, float) else None


@pytest.mark.parametrize("formula,problem,trax,progexec", [
    ("choose(n0,n1)|", "10.5 and 3", 141.3125, 141.31250000000009),
    ("choose(n0,n1)|", "40 choose 19", 131282408399.99997, 131282408400.0),
    ("lcm(n0,n1)|multiply(#0,#0)|", "3037000500 and 3037000499", 8.360924389856111e18, 8.507059167689537e37),
])
def test_the_issue_examples(formula: str, problem: str, trax: float, progexec: float) -> None:
    assert _run(formula, problem, TRAX) == (Status.OK, trax)
    assert _run(formula, problem, OURS) == (Status.OK, progexec)


def test_gcd_past_int64_raises_in_trax_and_is_exact_in_progexec() -> None:
    assert _run("gcd(n0,n1)|", "1e20 and 6", TRAX)[0] is Status.OVERFLOW  # np.gcd(int(1e20), 6) raises
    assert _run("gcd(n0,n1)|", "1e20 and 6", OURS) == (Status.OK, 2.0)


@pytest.mark.parametrize("formula,problem,value", [
    ("add(n-1,n0)|", "1 2 30", 31.0),              # n-1 is list_num[-1]
    ("add(nn1,n0)|", "1 2 30", 3.0),               # the first number in 'nn1' is 1
    ("add(n0,n1)|multiply(#-1,const_2)|", "1 2", 6.0),  # #-1 is the previous result
    ("multiply(n0,const_m1)|", "7", 7.0),          # const_m1: the digits only, 1.0
    ("sqrt(n0, 5)|", "16", 4.0),                   # ' 5' is dropped; sqrt reads one argument
    ("foo(n0)|add(n0,n1)|", "1 2", 3.0),           # an undefined op gives None, unused here
    ("foo(n0)|divide(#0,const_0)|", "1 2", 0.0),   # divide(None, 0) never reads the None
    ("divide(n0,const_0)|inverse(const_0)|add(#0,#1)|", "5", 0.0),
    ("factorial(n0)|", "100", 1307674368000.0),    # capped at 15
])
def test_trax_argument_reading_and_values(formula: str, problem: str, value: float) -> None:
    assert _run(formula, problem, TRAX) == (Status.OK, value)


@pytest.mark.parametrize("formula,problem,status", [
    ("add(n0, n1)|", "1 2", Status.SYNTAX_ERROR),        # ' n1' starts with a space: dropped
    ("add(n0,5)|", "1 2", Status.SYNTAX_ERROR),          # a bare literal is dropped
    ("add(n0,n5)|", "1 2", Status.BAD_LITERAL),          # list_num[5]: IndexError
    ("add(#0,n1)|", "1 2", Status.FORWARD_REFERENCE),
    ("add(n0,n1.5)|", "1 2", Status.SYNTAX_ERROR),       # int('1.5') raises
    ("foo(n0)|add(#0,n1)|", "1 2", Status.UNKNOWN_OP),   # None + 2 raises
    ("foo(n0)|", "1", Status.UNKNOWN_OP),                # the answer is None
    ("reminder(n0,const_0)|", "5", Status.DIVIDE_BY_ZERO),
    ("cube_edge_by_volume(n0)|", "-8", Status.NON_REAL_RESULT),  # trax answers a complex number
    ("", "1", Status.NO_STEPS),                          # compute_result([])[-1]
    ("|", "1", Status.SYNTAX_ERROR),                     # ['', ''] keeps one empty op, which reads ''[0]
    ("add(n0,n1)||", "1 2", Status.SYNTAX_ERROR),        # the empty second op reads ''[0]
])
def test_trax_failures_are_typed_refusals(formula: str, problem: str, status: Status) -> None:
    assert _run(formula, problem, TRAX) == (status, None)


@pytest.mark.parametrize("formula,problem,value", [
    ("add(n0, n1)|", "1 2", 3.0),
    ("add(n0,5)|", "1 2", 6.0),
])
def test_progexec_reads_spaces_and_literals(formula: str, problem: str, value: float) -> None:
    assert _run(formula, problem, OURS) == (Status.OK, value)


@pytest.mark.parametrize("formula", ["add(n-1,n0)|", "add(nn1,n0)|", "multiply(#-1,n0)|"])
def test_progexec_refuses_trax_index_spellings(formula: str) -> None:
    assert _run(formula, "1 2 30", OURS)[0] is Status.SYNTAX_ERROR


def test_work_bounds_refuse_before_computing() -> None:
    assert _run("choose(n0,n1)|", "1e308 and 10000", OURS)[0] is Status.OVERFLOW
    outcome = run_formula("choose(n0,n1)|", "1e308 and 10000")
    assert "over 2**" in outcome.message  # the size estimate, not math.comb, refused it
    assert _run("permutation(n0,n1)|", "1e308 and 2", TRAX)[0] is Status.LIMIT_EXCEEDED
    for semantics in Semantics:  # a negative argument makes m - n the large factorial
        assert _run("permutation(n0,n1)|", "-1e6 and 5", semantics)[0] is Status.LIMIT_EXCEEDED
    # floor(1e300) is a 997-bit int; power with an int exponent (min(120, 5)) multiplies its size by 5
    formula = "factorial(const_5)|floor(n0)|power(#1,#0)|power(#2,#0)|power(#3,#0)|"
    outcome = run_formula(formula, "1e300", semantics=TRAX)
    assert outcome.status is Status.LIMIT_EXCEEDED and outcome.step == 4


def test_trax_has_no_annotated_or_extended_reading() -> None:
    with pytest.raises(OptionError):
        list(execute_all([], annotated=True, semantics=TRAX))
    with pytest.raises(OptionError):
        list(execute_all([], ops=MATHQA_EXTENDED_OPS, semantics=TRAX))


# -- an independent re-implementation of trax's executor, written from tf_inputs.py ----------

_NUMBER = re.compile(r"[-+]?[.]?[\d]+(?:,\d\d\d)*[\.]?\d*(?:[eE][-+]?\d+)?")


def _safe(a: Any, b: Any) -> Any:
    return a / b if b != 0 else 0


def _work(a: Any) -> Any:
    return min(a, 1 / a)


def _factorial(value: Any) -> int:
    if int(value) > 10_000:
        raise _Bounded
    return math.factorial(int(value))


def _permutation(n: Any, m: Any) -> Any:
    n, m = min(n, m), max(n, m)
    top = _factorial(m)
    return top / _factorial(m - n)


class _Bounded(Exception):
    """progexec's documented work bound (trax would compute on for minutes)."""


_F: dict[str, Any] = {
    "add": lambda x: x[0] + x[1], "subtract": lambda x: x[0] - x[1], "multiply": lambda x: x[0] * x[1],
    "divide": lambda x: _safe(x[0], x[1]), "speed": lambda x: _safe(x[0], x[1]),
    "inverse": lambda x: 1 / x[0] if x[0] != 0 else 0, "negate": lambda x: -x[0],
    "circle_arc": lambda x: x[0] / 360 * math.pi * 2 * x[1], "circle_area": lambda x: math.pi * x[0] ** 2,
    "circle_sector_area": lambda x: x[1] / 360 * math.pi * (x[0] ** 2), "circumface": lambda x: 2 * math.pi * x[0],
    "choose": lambda x: scipy_special.comb(x[0], x[1]), "cosine": lambda x: math.cos(x[0]),
    "cube_edge_by_volume": lambda x: x[0] ** (1 / 3),
    "combined_work": lambda x: 1 / (_work(x[0]) + _work(x[1])), "count_interval": lambda x: x[0] - x[1] + 1,
    "diagonal": lambda x: math.sqrt(x[0] ** 2 + x[1] ** 2),
    "factorial": lambda x: math.factorial(min(15, int(x[0]))), "floor": lambda x: math.floor(x[0]),
    "find_work": lambda x: 1 / (max(_work(x[0]), _work(x[1])) - min(_work(x[0]), _work(x[1]))),
    "from_percent": lambda x: x[0] / 100, "gain_percent": lambda x: 100 + x[0],
    "gcd": lambda x: np.gcd(int(x[0]), int(x[1])), "lcm": lambda x: np.lcm(int(x[0]), int(x[1])),
    "log": lambda x: math.log(max(1e-5, x[0]), 2), "loss_percent": lambda x: 100 - x[0],
    "max": lambda x: max(x[0], x[1]), "negate_percent": lambda x: 100 - x[0],
    "original_price_before_loss": lambda x: x[1] * 100 / (100 + 1e-5 - x[0]),
    "original_price_before_gain": lambda x: x[1] * 100 / (100 + x[0]),
    "permutation": lambda x: _permutation(x[0], x[1]), "power": lambda x: x[0] ** min(x[1], 5),
    "percent": lambda x: x[0] / 100 * x[1], "price_after_gain": lambda x: (1 + x[0] / 100) * x[1],
    "p_after_gain": lambda x: (1 + x[0] / 100) * x[1], "price_after_loss": lambda x: (1 - x[0] / 100) * x[1],
    "quadrilateral_area": lambda x: x[0] * (x[1] + x[2]) / 2, "reminder": lambda x: x[0] % x[1],
    "rectangle_area": lambda x: x[0] * x[1], "rectangle_perimeter": lambda x: 2 * (x[0] + x[1]),
    "rhombus_area": lambda x: x[0] * x[1] / 2, "sine": lambda x: math.sin(x[0]),
    "sqrt": lambda x: math.sqrt(max(0, x[0])), "square_edge_by_perimeter": lambda x: x[0] / 4,
    "square_edge_by_area": lambda x: math.sqrt(x[0]), "square_area": lambda x: x[0] ** 2,
    "surface_cube": lambda x: 6 * x[0] ** 2,
    "surface_rectangular_prism": lambda x: 2 * (x[0] * x[1] + x[0] * x[2] + x[1] * x[2]),
    "semi_circle_perimiter": lambda x: math.pi * x[0] + 2 * x[0], "square_perimeter": lambda x: 4 * x[0],
    "rhombus_perimeter": lambda x: 4 * x[0], "surface_sphere": lambda x: 4 * math.pi * x[0] ** 2,
    "speed_ratio_steel_to_stream": lambda x: (x[0] + x[1]) / (x[0] - x[1]),
    "speed_in_still_water": lambda x: (x[0] + x[1]) / 2, "stream_speed": lambda x: (x[0] - x[1]) / 2,
    "trapezium_area": lambda x: x[0] * (x[1] + x[2]) / 2, "triangle_area": lambda x: x[0] * x[1] / 2,
    "triangle_perimeter": lambda x: x[0] + x[1] + x[2],
    "triangle_area_three_edges": lambda x: (lambda s: math.sqrt(max(0, s * (s - x[0]) * (s - x[1]) * (s - x[2]))))(
        (x[0] + x[1] + x[2]) / 2),
    "union_prob": lambda x: x[0] + x[1] - x[2], "negate_prob": lambda x: 1 - x[0],
    "volume_cube": lambda x: x[0] ** 3, "volume_cone": lambda x: math.pi * x[0] ** 2 * x[1] / 3,
    "volume_cylinder": lambda x: math.pi * x[0] ** 2 * x[1],
    "volume_rectangular_prism": lambda x: x[0] * x[1] * x[2], "volume_sphere": lambda x: 4 / 3 * math.pi * x[0] ** 3,
}


def _constant(arg: str) -> float:
    if arg == "const_pi":
        return math.pi
    if arg == "const_deg_to_rad":
        return math.pi / 180
    found = _NUMBER.findall(arg)
    return float(found[0]) if len(found) == 1 else float(found[0]) + float("0." + found[1])


def _reference(formula: str, numbers: list[float]) -> Any:
    """trax's last step result; raises where trax raises."""
    ops = formula.split("|")
    if not ops[-1]:
        ops = ops[:-1]
    results: list[Any] = []
    for op in ops:
        args: list[Any] = []
        for arg in op[op.find("(") + 1:op.find(")")].split(","):
            if arg[0] == "#":
                args.append(results[int(_NUMBER.findall(arg)[0])])
            elif arg[0] == "n":
                args.append(numbers[int(_NUMBER.findall(arg)[0])])
            elif arg[0] == "c":
                args.append(_constant(arg))
        name = op.split("(")[0]
        results.append(_F[name](args) if name in _F else None)
    return results[-1]


def _variants(formula: str) -> list[str]:
    steps = [step for step in formula.split("|") if step]
    relative = "|".join(re.sub(r"#(\d+)", lambda m, s=i: f"#{int(m.group(1)) - s}", step)
                        for i, step in enumerate(steps)) + "|"
    typed = formula.replace("add(", "gcd(").replace("multiply(", "lcm(").replace("subtract(", "choose(")
    return [formula, formula.replace(",", ", "), relative, re.sub(r"\bn(\d+)", r"nn\1", formula), typed]


def _agrees(formula: str, numbers: list[float]) -> bool:
    outcome = run_trax(formula, numbers)
    with np.errstate(all="ignore"):
        try:
            value = _reference(formula, numbers)
        except _Bounded:
            return outcome.status is Status.LIMIT_EXCEEDED
        except Exception:
            return outcome.status is not Status.OK
    if value is None or isinstance(value, complex):
        return outcome.status in (Status.UNKNOWN_OP, Status.NON_REAL_RESULT)
    try:
        number = float(value)
    except OverflowError:
        return outcome.status is Status.OVERFLOW
    if not math.isfinite(number):
        return outcome.status in (Status.OVERFLOW, Status.NOT_A_NUMBER)
    return outcome.status is Status.OK and repr(outcome.value) == repr(number)


@pytest.mark.parametrize("split", MATHQA_SPLITS)
def test_trax_semantics_equals_trax_on_the_corpus(split: str) -> None:
    disagree: list[str] = []
    count = 0
    for record in mathqa_records(split):
        numbers = [float(text) for text in number_texts(record["Problem"])]
        for formula in _variants(record["linear_formula"]):
            count += 1
            if not _agrees(formula, numbers):
                disagree.append(formula)
    assert count >= 5 * 600 and disagree == []


def test_mathqa_python_command_takes_the_semantics(tmp_path: Any) -> None:
    from progexec.cli import main

    # choose(40, 19) is within 1 % of option e in both semantics; 'add(n0, n1)' executes only in progexec's
    records = [{"Problem": "choose 19 of 40", "options": "a ) 1 , b ) 2 , c ) 3 , d ) 4 , e ) 131282408400",
                "correct": "e", "linear_formula": "choose(n1,n0)|"},
               {"Problem": "1 and 2", "options": "a ) 3 , b ) 4", "correct": "a",
                "linear_formula": "add(n0, n1)|"}]
    source = tmp_path / "mathqa.json"
    source.write_text(__import__("json").dumps(records), encoding="utf-8")
    kept = {}
    for semantics in ("progexec", "trax"):
        out = tmp_path / f"{semantics}.jsonl"
        assert main(["mathqa-python", str(source), "--semantics", semantics, "--out", str(out), "--quiet"]) == 0
        kept[semantics] = [line for line in out.read_text(encoding="utf-8").splitlines() if line]
    assert len(kept["progexec"]) == 2  # progexec reads 'add(n0, n1)'
    assert len(kept["trax"]) == 1      # trax drops ' n1' and fails


def test_exec_mathqa_writes_trax_values(tmp_path: Path) -> None:
    import json

    from progexec.cli import main

    records = [{"Problem": "10.5 and 3", "options": "a ) 141.3125 , b ) 2", "correct": "a",
                "linear_formula": "choose(n0,n1)|"},
               {"Problem": "1e20 and 6", "options": "a ) 2 , b ) 3", "correct": "a", "linear_formula": "gcd(n0,n1)|"}]
    source, out = tmp_path / "mathqa.json", tmp_path / "out.jsonl"
    source.write_text(json.dumps(records), encoding="utf-8")
    assert main(["exec", str(source), "--semantics", TRAX.value, "--out", str(out), "--quiet"]) == 0
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 2
    assert [(line["status"], line["value"], line["option"]) for line in lines] == [
        ("ok", 141.3125, "a"), ("overflow", None, None)]


def test_mathqa_python_answers_under_trax_are_trax_values_to_the_last_bit() -> None:
    """trax's generator ran the code with ``scipy.lcm`` (numpy's ``lcm``: a ``numpy.int64``), and
    ``numpy.int64 ** float`` is numpy's ``power`` ufunc, which can differ from Python's ``**`` in the last
    place: under ``--semantics trax`` the code's answer must be numpy's, as trax's own value is."""
    numpy = pytest.importorskip("numpy")
    from progexec.datasets.mathqa.python_gen import translate

    item = {"Problem": "the numbers 27 and 1", "options": "a ) 3 , b ) 4 , c ) 5 , d ) 6 , e ) 7", "correct": "a",
            "linear_formula": "divide(const_1,const_3)|lcm(n0,n1)|power(#1,#0)|"}
    trax_value = float(numpy.lcm(27, 1) ** min(1.0 / 3.0, 5))  # trax's compute_single_result, op by op
    python_value = float(27 ** (1.0 / 3.0))
    translated = translate(item, 0, Semantics.TRAX)
    assert translated is not None and translated.answer == trax_value
    assert run_formula(item["linear_formula"], item["Problem"], semantics=Semantics.TRAX).value == trax_value
    progexec_item = translate(item, 0, Semantics.PROGEXEC)
    assert progexec_item is not None and progexec_item.answer == python_value
