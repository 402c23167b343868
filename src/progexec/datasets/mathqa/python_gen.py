"""MathQA -> MathQA-Python: translate a linear formula into straight-line Python, as the release did.

The shape follows google/trax's generator (Austin et al. 2021): ``import math`` when
needed, one ``nK = <float>`` line per problem number, one ``tK = <expression>`` line
per step but the last, and ``answer = <last expression>``; constants are written as
Python floats (``100.0``, ``3.141592653589793``); ``text`` is ``# <problem> n0 = 5.0
n1 = 31.1``. An item is kept only when the formula's value (our interpreter) *and*
the code's ``answer`` are both within 1 % of the correct option
(:func:`progexec.datasets.mathqa.options.kept_by_filter`), as the release kept them.

Differences from the original text, on purpose and documented in ``docs/mathqa.md``:
``gcd``/``lcm``/``choose`` are written with ``math.gcd``/``math.lcm``/``math.comb``
(the original's ``scipy.gcd`` no longer exists in scipy, and the standard library
needs no third-party import); no trailing comments. Kept as the original wrote
them: ``divide``/``inverse`` are plain ``/`` (so a zero divisor raises and the item
is dropped), and ``speed_in_still_water``/``stream_speed`` read ``a + b / 2`` /
``a - b / 2`` (the original's missing parentheses; such items are dropped when the
two values disagree).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ...grammar.mathqa_parse import parse_linear
from ...core.errors import InputError
from ...core.nodes import Arg, Input, Num, Program, Ref
from ...core.arithmetic import Refusal
from .arithmetic import MATHQA_FLOAT
from .binding import bind_numbers, number_texts
from .execute import Semantics, run_formula, run_program
from .options import kept_by_filter, parse_options

TEMPLATES: dict[str, str] = {
    "add": "{0} + {1}", "subtract": "{0} - {1}", "multiply": "{0} * {1}",
    "divide": "{0} / {1}", "speed": "{0} / {1}", "inverse": "1 / {0}", "negate": "-{0}",
    "power": "{0}**min({1}, 5)", "factorial": "math.factorial(min(15, int({0})))",
    "log": "math.log(max(1e-5, {0}), 2)", "sqrt": "math.sqrt(max(0, {0}))", "floor": "math.floor({0})",
    "reminder": "{0} % {1}", "max": "max({0}, {1})",
    "gcd": "math.gcd(int({0}), int({1}))", "lcm": "math.lcm(int({0}), int({1}))",
    "choose": "math.comb(int({0}), int({1}))",
    "permutation": "math.factorial(int(max({0}, {1}))) / math.factorial(int(max({0}, {1}) - min({0}, {1})))",
    "sine": "math.sin({0})", "cosine": "math.cos({0})",
    "circle_arc": "{0} / 360 * math.pi * 2 * {1}", "circle_area": "math.pi * {0}**2",
    "circle_sector_area": "{1} / 360 * math.pi * ({0}**2)", "circumface": "2 * math.pi * {0}",
    "semi_circle_perimiter": "math.pi * {0} + 2 * {0}", "cube_edge_by_volume": "{0}**(1 / 3)",
    "diagonal": "math.sqrt({0}**2 + {1}**2)", "count_interval": "{0} - {1} + 1",
    "combined_work": "1 / (min({0}, 1 / {0}) + min({1}, 1 / {1}))",
    "find_work": "1 / (max(min({0}, 1 / {0}), min({1}, 1 / {1})) - min(min({0}, 1 / {0}), min({1}, 1 / {1})))",
    "from_percent": "{0} / 100", "gain_percent": "100 + {0}", "loss_percent": "100 - {0}",
    "negate_percent": "100 - {0}", "percent": "{0} / 100 * {1}",
    "price_after_gain": "(1 + {0} / 100) * {1}", "p_after_gain": "(1 + {0} / 100) * {1}",
    "price_after_loss": "(1 - {0} / 100) * {1}",
    "original_price_before_gain": "{1} * 100 / (100 + {0})",
    "original_price_before_loss": "{1} * 100 / (100 + 1e-5 - {0})",
    "quadrilateral_area": "{0} * ({1} + {2}) / 2", "trapezium_area": "{0} * ({1} + {2}) / 2",
    "rectangle_area": "{0} * {1}", "rectangle_perimeter": "2 * ({0} + {1})", "rhombus_area": "{0} * {1} / 2",
    "rhombus_perimeter": "4 * {0}", "square_perimeter": "4 * {0}", "square_area": "{0}**2",
    "square_edge_by_perimeter": "{0} / 4.", "square_edge_by_area": "math.sqrt({0})",
    "surface_cube": "6 * {0}**2", "surface_rectangular_prism": "2 * ({0} * {1} + {0} * {2} + {1} * {2})",
    "surface_sphere": "4 * math.pi * {0}**2",
    "speed_ratio_steel_to_stream": "({0} + {1}) / ({0} - {1})",
    "speed_in_still_water": "{0} + {1} / 2", "stream_speed": "{0} - {1} / 2",
    "triangle_area": "{0} * {1} / 2", "triangle_perimeter": "{0} + {1} + {2}",
    "triangle_area_three_edges":
        "(lambda s, a, b, c: math.sqrt(max(0, s * (s - a) * (s - b) * (s - c))))(({0} + {1} + {2}) / 2, {0}, {1}, {2})",
    "union_prob": "{0} + {1} - {2}", "negate_prob": "1 - {0}",
    "volume_cube": "{0}**3", "volume_cone": "math.pi * {0}**2 * {1} / 3", "volume_cylinder": "math.pi * {0}**2 * {1}",
    "volume_rectangular_prism": "{0} * {1} * {2}", "volume_sphere": "4 / 3 * math.pi * {0}**3",
}
"""The Python expression of each of the 66 ops, ``{k}`` standing for argument k."""


@dataclass(frozen=True, slots=True)
class PythonItem:
    """One MathQA-Python item."""

    id: str
    text: str
    code: str
    dsl_code: str
    answer: float

    def record(self) -> dict[str, Any]:
        return {"id": self.id, "text": self.text, "code": self.code, "dsl_code": self.dsl_code, "answer": self.answer}


def _operand(arg: Arg) -> str:
    if isinstance(arg, Input):
        return f"n{arg.index}"
    if isinstance(arg, Ref):
        return f"t{arg.index}"
    if isinstance(arg, Num):
        try:
            return repr(MATHQA_FLOAT.literal(arg.text))
        except Refusal as refusal:
            raise InputError(refusal.message) from None
    raise InputError(f"argument {arg} has no Python form")


def program_to_python(program: Program, numbers: Iterable[float]) -> str:
    """The MathQA-Python code of a parsed program, with ``nK`` bound to ``numbers``."""
    lines: list[str] = []
    for index, step in enumerate(program.steps):
        template = TEMPLATES.get(step.op)
        if template is None:
            raise InputError(f"{step.op!r} has no MathQA-Python translation")
        expression = template.format(*(_operand(arg) for arg in step.args))
        target = "answer" if index == len(program.steps) - 1 else f"t{index}"
        lines.append(f"{target} = {expression}")
    header = ["import math"] if any("math." in line for line in lines) else []
    bindings = [f"n{index} = {value!r}" for index, value in enumerate(numbers)]
    return "\n".join(header + bindings + lines)


def _trax_math() -> Any:
    """``math`` as the release's code met it under trax: ``gcd``/``lcm`` are numpy's (``scipy.gcd`` and
    ``scipy.lcm`` were numpy's re-exports) and give ``numpy.int64``, ``comb`` is ``scipy.special.comb``
    (a ``numpy.float64``). The type matters: ``numpy.int64 ** float`` is numpy's ``power`` ufunc, which
    can differ from Python's ``float ** float`` in the last place (``lcm(27, 1) ** (1 / 3)`` is
    2.9999999999999996 there and 3.0 here)."""
    import types

    import numpy
    import scipy.special  # type: ignore[import-untyped]

    shim = types.SimpleNamespace(**{name: getattr(math, name) for name in dir(math) if not name.startswith("_")})
    shim.gcd, shim.lcm, shim.comb = numpy.gcd, numpy.lcm, scipy.special.comb
    return shim


def run_trusted(code: str, semantics: Semantics = Semantics.PROGEXEC) -> float | None:
    """The ``answer`` of code *this module generated* (numeric literals and names only), or None.

    Under ``Semantics.TRAX`` the code runs as the release ran it, with numpy's typed ``gcd``/``lcm``/``comb``
    (:func:`_trax_math`), so its answer is trax's to the last bit."""
    namespace: dict[str, Any] = {"math": math}
    if semantics is Semantics.TRAX:
        namespace["math"] = _trax_math()
        code = code.replace("import math\n", "", 1)  # the header would rebind the name to the real module
    try:
        with _quiet_numpy(semantics):
            exec(code, namespace)  # trusted: built from the grammar-checked AST above, never user text
        return float(namespace["answer"])
    except (ArithmeticError, ValueError, TypeError, KeyError):
        return None


@contextmanager
def _quiet_numpy(semantics: Semantics) -> Iterator[None]:
    """numpy's warnings off for the trax run (numpy only warns; the values are the same)."""
    if semantics is not Semantics.TRAX:
        yield
        return
    import numpy

    with numpy.errstate(all="ignore"):
        yield


def translate(item: Any, index: int = 0, semantics: Semantics = Semantics.PROGEXEC) -> PythonItem | None:
    """The MathQA-Python item of one MathQA record, or None when the release would not keep it.

    ``semantics`` computes the formula's value the filter checks (trax: trax's own value, as the release did).
    """
    if not isinstance(item, dict):
        return None
    problem, formula = item.get("Problem"), item.get("linear_formula")
    if not isinstance(problem, str) or not isinstance(formula, str):
        return None
    try:
        program = parse_linear(formula)
        numbers = bind_numbers(problem)
        code = program_to_python(program, numbers)
    except InputError:
        return None
    options = parse_options(item["options"]) if isinstance(item.get("options"), str) else {}
    correct = options.get(str(item.get("correct", "")).strip())
    if correct is None or correct.value is None:
        return None
    if semantics is Semantics.TRAX:
        outcome = run_formula(formula, problem, semantics=semantics)
    else:
        outcome = run_program(program, number_texts(problem))
    answer = run_trusted(code, semantics)
    if not isinstance(outcome.value, float) or answer is None or not math.isfinite(answer):
        return None
    if not (kept_by_filter(outcome.value, correct.value) and kept_by_filter(answer, correct.value)):
        return None
    raw_id = item.get("id")
    item_id = str(raw_id) if isinstance(raw_id, (str, int)) and not isinstance(raw_id, bool) else str(index)
    text = "# " + problem + "".join(f" n{k} = {value!r}" for k, value in enumerate(numbers))
    return PythonItem(item_id, text, code, formula, answer)


def translate_all(items: Iterable[Any], semantics: Semantics = Semantics.PROGEXEC) -> Iterator[PythonItem]:
    """The kept MathQA-Python items of a MathQA file, in input order."""
    for index, item in enumerate(items):
        translated = translate(item, index, semantics)
        if translated is not None:
            yield translated
