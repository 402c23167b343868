"""The MathQA op table of progexec's semantics: google/trax's MathQA executor's formulas over floats.

Each op is written here as its own small function over Python floats, with the
operations in the order the generator evaluates them (float results depend on the
order). The table is run by the one interpreter, :func:`progexec.interp.evaluate.evaluate`,
under :class:`progexec.datasets.mathqa.arithmetic.MathQAFloat`.

Deliberate quirks of the generator that are kept: ``divide``/``speed``/``inverse``
by zero give 0; ``power`` caps its exponent at 5; ``factorial`` caps its argument
at 15 (after truncating it to an int); ``log`` is ``math.log(max(1e-5, a), 2)``;
``sqrt`` is of ``max(0, a)``; ``original_price_before_loss`` adds 1e-5 to its
denominator. Where the generator would raise or produce a non-number (a zero
divisor in ``reminder``, a negative base to a fractional power, an infinite value),
the op refuses with a typed status instead. The 12 ops of the MathQA vocabulary the
generator does not define are in the table as UNSUPPORTED_OP entries. ``choose``, ``gcd``,
``lcm`` and the int-valued ops compute differently from trax (exactly, in float64);
:mod:`progexec.datasets.mathqa.trax` reproduces trax's own values (``--semantics trax``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from ...core.arithmetic import Refusal
from ...core.ops import Apply, OpSpec
from ...core.status import Status
from ...core.limits import DEFAULT_LIMITS, current

FloatOp = Callable[..., Any]

MAX_FACTORIAL_ARG = DEFAULT_LIMITS.max_factorial_arg
"""``permutation`` has no cap in the generator; above this argument it is refused (LIMIT_EXCEEDED), checked
before any factorial is built (both semantics)."""

UNSUPPORTED_MESSAGE = "unsupported by MathQA-Python (google/trax defines no semantics for {op!r})"


def checked(value: Any, op: str) -> float:
    """A float result, or a Refusal for a complex, infinite or NaN one."""
    if isinstance(value, complex):
        raise Refusal(Status.NON_REAL_RESULT, f"{op}: the result is not real ({value!r})")
    try:
        result = float(value)
    except OverflowError:
        raise Refusal(Status.OVERFLOW, f"{op}: the result is too large for float64") from None
    if math.isnan(result):
        raise Refusal(Status.NOT_A_NUMBER, f"{op}: the result is NaN")
    if math.isinf(result):
        raise Refusal(Status.OVERFLOW, f"{op}: the result is infinite")
    return result


def _wrap(name: str, function: FloatOp) -> Apply:
    """Turn a float function into an op-table ``apply``: Python errors become typed refusals."""
    def apply(arith: Any, operands: Sequence[float]) -> float:
        try:
            return checked(function(*operands), name)
        except ZeroDivisionError:
            raise Refusal(Status.DIVIDE_BY_ZERO, f"{name}: division by zero") from None
        except OverflowError:
            raise Refusal(Status.OVERFLOW, f"{name}: the result is too large for float64") from None
        except ValueError as error:
            raise Refusal(Status.NON_REAL_RESULT, f"{name}: outside the op's domain ({error})") from None
    apply.__name__ = name
    return apply


# --- the ops, in the generator's evaluation order -------------------------------------------

def safe_divide(a: float, b: float) -> float:
    """``a / b``, and 0 when ``b == 0`` (the generator's safe divide; also ``speed``)."""
    return a / b if b != 0 else 0.0


def inverse(a: float) -> float:
    """``1 / a``, and 0 when ``a == 0``."""
    return 1 / a if a != 0 else 0.0


def power(a: float, b: float) -> float | complex:
    """``a ** min(b, 5)``: the exponent is capped at 5 (a negative base to a fraction gives a
    complex number, which the table refuses as NON_REAL_RESULT)."""
    result: float | complex = a ** min(b, 5)
    return result


def factorial(a: float) -> float:
    """``factorial(min(15, int(a)))``: truncated to an int, capped at 15; negative is refused."""
    return float(math.factorial(min(15, int(a))))


def log(a: float) -> float:
    """``math.log(max(1e-5, a), 2)`` (log(x)/log(2), not ``math.log2``)."""
    return math.log(max(1e-5, a), 2)


def sqrt(a: float) -> float:
    """Square root of ``max(0, a)``."""
    return math.sqrt(max(0, a))


def _work_rate(a: float) -> float:
    return min(a, 1 / a)


def combined_work(a: float, b: float) -> float:
    """``1 / (min(a, 1/a) + min(b, 1/b))``: a time or a rate, read as the smaller of the two."""
    return 1 / (_work_rate(a) + _work_rate(b))


def find_work(a: float, b: float) -> float:
    """``1 / (max(ra, rb) - min(ra, rb))`` with ``r = min(x, 1/x)``."""
    ra, rb = _work_rate(a), _work_rate(b)
    return 1 / (max(ra, rb) - min(ra, rb))


def permutation(a: float, b: float) -> float:
    """``m! / (m - n)!`` with ``n, m = min, max`` of the two, each truncated to an int."""
    n, m = min(a, b), max(a, b)
    for value in (m, m - n):  # m - n exceeds m when n is negative
        if value > (bound := current().max_factorial_arg):
            raise Refusal(Status.LIMIT_EXCEEDED, f"permutation: {value!r} is over the limit of {bound} (max_factorial_arg)")
    return math.factorial(int(m)) / math.factorial(int(m - n))


"""``choose`` of whole arguments is refused as OVERFLOW, before ``math.comb`` builds the integer, when
the lower bound ``(n - k + 1) ** k / k!`` of the result (``k`` the smaller side) exceeds
``2 ** current().max_choose_log2``; under it, the result has at most about 1,800 bits and is cheap to build."""


def choose(n: float, k: float) -> float:
    """The binomial coefficient, progexec's reading (0 outside ``0 <= k <= n``): whole arguments use the
    exact ``math.comb`` rounded once to float, others the log-gamma function.

    trax calls ``scipy.special.comb(n, k)``, a float product or beta function that can differ in the
    last bits (``choose(40, 19)``: 131282408400.0 here, 131282408399.99997 in trax); ``--semantics
    trax`` calls scipy itself.
    """
    if not (0 <= k <= n):
        return 0.0
    if n == int(n) and k == int(k):
        if min(k, n - k) > current().max_factorial_arg:
            raise Refusal(Status.LIMIT_EXCEEDED, f"choose: {n!r} is over the limit")
        low = min(k, n - k)
        log2 = low * math.log2(n - low + 1) - math.lgamma(low + 1) / math.log(2) if low > 0 else 0.0
        if log2 > current().max_choose_log2:  # a lower bound: (n - k + 1)**k / k! <= C(n, k)
            raise Refusal(Status.OVERFLOW, f"choose: the result (over 2**{log2:.0f}) is too large for float64")
        return float(math.comb(int(n), int(k)))
    return math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1))


def gcd(a: float, b: float) -> float:
    """Greatest common divisor of ``int(a)`` and ``int(b)``, exact (trax: numpy int64, which raises past 2**63)."""
    return float(math.gcd(int(a), int(b)))


def lcm(a: float, b: float) -> float:
    """Least common multiple of ``int(a)`` and ``int(b)``, exact (trax: numpy int64, which wraps)."""
    return float(math.lcm(int(a), int(b)))


def heron(a: float, b: float, c: float) -> float:
    """Triangle area from three edges (Heron), the radicand clamped at 0."""
    s = (a + b + c) / 2
    return math.sqrt(max(0, s * (s - a) * (s - b) * (s - c)))


_DEFINITIONS: dict[str, tuple[int, FloatOp]] = {
    "add": (2, lambda a, b: a + b),
    "subtract": (2, lambda a, b: a - b),
    "multiply": (2, lambda a, b: a * b),
    "divide": (2, safe_divide),
    "speed": (2, safe_divide),
    "inverse": (1, inverse),
    "negate": (1, lambda a: -a),
    "power": (2, power),
    "factorial": (1, factorial),
    "log": (1, log),
    "sqrt": (1, sqrt),
    "floor": (1, lambda a: float(math.floor(a))),
    "reminder": (2, lambda a, b: a % b),
    "max": (2, lambda a, b: max(a, b)),
    "gcd": (2, gcd),
    "lcm": (2, lcm),
    "choose": (2, choose),
    "permutation": (2, permutation),
    "sine": (1, math.sin),
    "cosine": (1, math.cos),
    "circle_arc": (2, lambda a, b: a / 360 * math.pi * 2 * b),
    "circle_area": (1, lambda a: math.pi * a ** 2),
    "circle_sector_area": (2, lambda a, b: b / 360 * math.pi * (a ** 2)),
    "circumface": (1, lambda a: 2 * math.pi * a),
    "semi_circle_perimiter": (1, lambda a: math.pi * a + 2 * a),
    "cube_edge_by_volume": (1, lambda a: a ** (1 / 3)),
    "diagonal": (2, lambda a, b: math.sqrt(a ** 2 + b ** 2)),
    "count_interval": (2, lambda a, b: a - b + 1),
    "combined_work": (2, combined_work),
    "find_work": (2, find_work),
    "from_percent": (1, lambda a: a / 100),
    "gain_percent": (1, lambda a: 100 + a),
    "loss_percent": (1, lambda a: 100 - a),
    "negate_percent": (1, lambda a: 100 - a),
    "percent": (2, lambda a, b: a / 100 * b),
    "price_after_gain": (2, lambda a, b: (1 + a / 100) * b),
    "p_after_gain": (2, lambda a, b: (1 + a / 100) * b),
    "price_after_loss": (2, lambda a, b: (1 - a / 100) * b),
    "original_price_before_gain": (2, lambda a, b: b * 100 / (100 + a)),
    "original_price_before_loss": (2, lambda a, b: b * 100 / (100 + 1e-5 - a)),
    "quadrilateral_area": (3, lambda a, b, c: a * (b + c) / 2),
    "trapezium_area": (3, lambda a, b, c: a * (b + c) / 2),
    "rectangle_area": (2, lambda a, b: a * b),
    "rectangle_perimeter": (2, lambda a, b: 2 * (a + b)),
    "rhombus_area": (2, lambda a, b: a * b / 2),
    "rhombus_perimeter": (1, lambda a: 4 * a),
    "square_perimeter": (1, lambda a: 4 * a),
    "square_area": (1, lambda a: a ** 2),
    "square_edge_by_perimeter": (1, lambda a: a / 4),
    "square_edge_by_area": (1, lambda a: math.sqrt(a)),
    "surface_cube": (1, lambda a: 6 * a ** 2),
    "surface_rectangular_prism": (3, lambda a, b, c: 2 * (a * b + a * c + b * c)),
    "surface_sphere": (1, lambda a: 4 * math.pi * a ** 2),
    "speed_ratio_steel_to_stream": (2, lambda a, b: (a + b) / (a - b)),
    "speed_in_still_water": (2, lambda a, b: (a + b) / 2),  # the generated Python text reads a + b / 2
    "stream_speed": (2, lambda a, b: (a - b) / 2),
    "triangle_area": (2, lambda a, b: a * b / 2),
    "triangle_perimeter": (3, lambda a, b, c: a + b + c),
    "triangle_area_three_edges": (3, heron),
    "union_prob": (3, lambda a, b, c: a + b - c),
    "negate_prob": (1, lambda a: 1 - a),
    "volume_cube": (1, lambda a: a ** 3),
    "volume_cone": (2, lambda a, b: math.pi * a ** 2 * b / 3),
    "volume_cylinder": (2, lambda a, b: math.pi * a ** 2 * b),
    "volume_rectangular_prism": (3, lambda a, b, c: a * b * c),
    "volume_sphere": (1, lambda a: 4 / 3 * math.pi * a ** 3),
}

PYTHON_TEMPLATES: dict[str, str] = {
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
"""The Python expression of each of the 66 ops, ``{k}`` standing for argument k (MathQA-Python's translation,
:mod:`progexec.mathqa.python_gen`): a new op is one entry here beside its definition."""

TRAX_METHODS: dict[str, str] = {
    "divide": "safe_divide", "speed": "safe_divide", "inverse": "inverse", "factorial": "small_factorial",
    "floor": "floor", "gcd": "gcd", "lcm": "lcm", "choose": "choose", "permutation": "permutation",
}
"""The ops whose value under google/trax differs in type or formula from the float definition above: op -> the
method of trax's arithmetic (:mod:`progexec.mathqa.trax`) that computes it; every other op is its definition."""

UNSUPPORTED_OPS: dict[str, int] = {
    "min": 2, "round": 1, "tangent": 1, "radians_to_degree": 1, "degree_to_radians": 1,
    "sum_consecutive_number": 2, "surface_cone": 2, "surface_cylinder": 2, "side_by_diagonal": 1,
    "combination": 2, "p_after_loss": 2, "to_percent": 1,
}
"""Ops of MathQA's published vocabulary (``operation_list.txt``) that the generator does not define."""

MATHQA_PYTHON_OPS: tuple[str, ...] = tuple(sorted(_DEFINITIONS))
"""The 66 ops MathQA-Python's generator defines."""

MATHQA_OPS: dict[str, OpSpec] = {
    **{name: OpSpec(name, arity, _wrap(name, function)) for name, (arity, function) in _DEFINITIONS.items()},
    **{name: OpSpec(name, arity, _wrap(name, lambda *args: 0.0), unsupported=UNSUPPORTED_MESSAGE.format(op=name))
       for name, arity in UNSUPPORTED_OPS.items()},
}
"""The MathQA op table for :func:`progexec.interp.evaluate.evaluate` (``ops=MATHQA_OPS``)."""


_EXTENDED: dict[str, tuple[int, FloatOp]] = {
    "min": (2, lambda a, b: min(a, b)),
    "round": (1, lambda a: float(round(a))),
    "tangent": (1, math.tan),
    "radians_to_degree": (1, lambda a: a * 180 / math.pi),
    "degree_to_radians": (1, lambda a: a * math.pi / 180),
    "sum_consecutive_number": (2, lambda a, b: (a + b) * (b - a + 1) / 2),
    "surface_cylinder": (2, lambda a, b: 2 * math.pi * a * (a + b)),
    "side_by_diagonal": (1, lambda a: a / math.sqrt(2)),
    "combination": (2, choose),
    "p_after_loss": (2, lambda a, b: (1 - a / 100) * b),
    "to_percent": (1, lambda a: a * 100),
}
"""progexec's own reading of 11 of the 12 ops MathQA-Python leaves undefined (``surface_cone``
stays unsupported: its second argument, height or slant, is not documented). Not MathQA-Python."""

MATHQA_EXTENDED_OPS: dict[str, OpSpec] = {
    **MATHQA_OPS,
    **{name: OpSpec(name, arity, _wrap(name, function)) for name, (arity, function) in _EXTENDED.items()},
}
"""A second, documented table: MathQA-Python's 66 ops plus :data:`_EXTENDED` (see docs/mathqa.md).

``min`` is ``min(a, b)``; ``round`` is Python's ``round`` (ties to even); ``surface_cylinder(r, h)``
is ``2·pi·r·(r + h)``; ``sum_consecutive_number(a, b)`` is the sum of the integers a..b,
``(a + b)(b - a + 1) / 2``; ``combination`` is ``choose``; ``p_after_loss`` mirrors
``p_after_gain``; ``to_percent`` is ``100·a``; ``side_by_diagonal`` is ``d / sqrt 2`` (square).
"""


def definition(name: str) -> FloatOp:
    """The plain float function of a supported op (for tests, the docs and the trax semantics)."""
    return _DEFINITIONS[name][1]


def arity(name: str) -> int:
    """How many arguments a supported op's formula reads."""
    return _DEFINITIONS[name][0]
