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
from .ops import PYTHON_TEMPLATES
from .options import kept_by_filter, parse_options

TEMPLATES = PYTHON_TEMPLATES
"""The Python expression of each of the 66 ops (the MathQA op table's :data:`~progexec.mathqa.ops.PYTHON_TEMPLATES`)."""


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
