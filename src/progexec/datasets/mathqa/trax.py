"""google/trax's MathQA executor, reproduced value for value (``--semantics trax``).

trax (``trax/data/tf_inputs.py``: ``compute_ops``, ``compute_result``,
``compute_single_result``, as run by ``process_single_mathqa_example``) reads a
``linear_formula`` by string splitting, not by a grammar, and computes on whatever Python or
numpy value each op returns. This module reads and computes the same way:

* steps are the ``|``-separated pieces (an empty last piece dropped); an op's name is the text
  before its first ``(``, its arguments the text between that ``(`` and the first ``)``, split
  on ``,`` and never stripped;
* an argument starting with ``#`` / ``n`` is an index into the step results / problem numbers
  taken from the first number in it (so ``#-1`` and ``n-1`` count from the end, ``nn1`` is
  ``n1``); one starting with ``c`` is a constant (``const_pi``, ``const_deg_to_rad``, else the
  first number, plus ``0.<second number>`` when there are two: ``const_m1`` is 1.0); any other
  argument (`` n1`` after a space, a bare ``5``) is dropped, so the op usually lacks an argument;
* values keep their types: ``factorial``/``floor`` give Python ints, safe ``divide``/``inverse``
  by zero give the int 0, ``gcd``/``lcm`` are numpy int64 (``np.gcd``/``np.lcm``; trax's
  ``scipy.lcm`` was numpy's re-export), ``choose`` is ``scipy.special.comb`` (np.float64), and
  the arithmetic between them is Python's and numpy's (int64 wraps, ints stay exact);
* an op trax does not define gives None, which fails only where a later op computes with it.

numpy and scipy are needed (the ``trax`` extra). Where trax raises, the result is a typed refusal. Where trax answers a value JSON cannot carry
(inf, NaN, a complex number, an int too large for a float), the status says so and names it.
Two bounds trax lacks refuse at once instead of running for minutes: ``permutation`` of an
argument over ``max_factorial_arg``, and an integer intermediate over
``max_trax_int_bits`` bits.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import scipy.special  # type: ignore[import-untyped]

from ...grammar.parse import MAX_PROGRAM_CHARS
from ...core.arithmetic import Refusal
from ...core.outcome import Outcome
from ...core.status import Status
from ...core.errors import ProgexecError
from .binding import NUMBER_PATTERN
from ...core.limits import DEFAULT_LIMITS, current
from .ops import MATHQA_PYTHON_OPS, arity, definition, TRAX_METHODS
from ...core.plural import plural

MAX_TRAX_INT_BITS = DEFAULT_LIMITS.max_trax_int_bits
"""Largest Python int (in bits) an op may produce under trax semantics; one op grows an int at most
fivefold (``power`` caps its exponent at 5), so the bound is checked after each op."""

TraxOp = Callable[[list[Any]], Any]


class _Args(list[Any]):
    """The collected arguments; reading past the end is trax's IndexError (a ProgexecError of kind
    ``missing_argument`` here)."""

    def __getitem__(self, index: Any) -> Any:
        try:
            return super().__getitem__(index)
        except IndexError:
            raise ProgexecError(index, kind="missing_argument") from None  # not an IndexError: no op catches it


def _bounded_factorial(value: Any) -> int:
    """``math.factorial(int(value))``, refused before it is built when over the work bound."""
    whole = int(value)
    if whole > (bound := current().max_factorial_arg):
        raise Refusal(Status.LIMIT_EXCEEDED, f"permutation: factorial of {value!r} is over the limit of {bound}")
    return math.factorial(whole)


class _Trax:
    """trax's own value for the ops where it differs in type or formula from progexec's float table: one method
    per entry of the MathQA op table's :data:`~progexec.mathqa.ops.TRAX_METHODS`, each on trax's argument list."""

    @staticmethod
    def safe_divide(a: list[Any]) -> Any:
        return a[0] / a[1] if a[1] != 0 else 0

    @staticmethod
    def inverse(a: list[Any]) -> Any:
        return 1 / a[0] if a[0] != 0 else 0

    @staticmethod
    def small_factorial(a: list[Any]) -> Any:
        return math.factorial(min(15, int(a[0])))

    @staticmethod
    def floor(a: list[Any]) -> Any:
        return math.floor(a[0])

    @staticmethod
    def gcd(a: list[Any]) -> Any:
        return np.gcd(int(a[0]), int(a[1]))

    @staticmethod
    def lcm(a: list[Any]) -> Any:
        return np.lcm(int(a[0]), int(a[1]))

    @staticmethod
    def choose(a: list[Any]) -> Any:
        return scipy.special.comb(a[0], a[1])

    @staticmethod
    def permutation(a: list[Any]) -> Any:
        n, m = min(a[0], a[1]), max(a[0], a[1])
        top = _bounded_factorial(m)  # in trax's order: the numerator's factorial, then the denominator's
        return top / _bounded_factorial(m - n)


def _from_table(name: str) -> TraxOp:
    """progexec's float formula for ``name`` (written in trax's evaluation order) on trax's argument list."""
    function, count = definition(name), arity(name)
    return lambda a: function(*(a[index] for index in range(count)))


TRAX_OPS: dict[str, TraxOp] = {name: getattr(_Trax, TRAX_METHODS[name]) if name in TRAX_METHODS else _from_table(name)
                               for name in MATHQA_PYTHON_OPS}
"""trax's ``compute_single_result`` by op name; any other name (the 12 of ``UNSUPPORTED_OPS``
included) gives None."""


def trax_constant(arg: str) -> float:
    """trax's reading of an argument starting with ``c``; IndexError/ValueError where trax raises."""
    if arg == "const_pi":
        return math.pi
    if arg == "const_deg_to_rad":
        return math.pi / 180
    numbers = NUMBER_PATTERN.findall(arg)
    if len(numbers) == 1:
        return float(numbers[0])
    return float(numbers[0]) + float("0." + numbers[1])


def _index(arg: str) -> int:
    return int(NUMBER_PATTERN.findall(arg)[0])


def _refuse(status: Status, message: str, step: int) -> Outcome[float]:
    return Outcome(status, message=message, step=step)


def _read_arg(arg: str, results: list[Any], numbers: Sequence[float], step: int) -> tuple[bool, Any]:
    """``(True, value)`` for an argument trax collects, ``(False, None)`` for one it drops; Refusal where it raises."""
    if not arg:
        raise Refusal(Status.SYNTAX_ERROR, f"step {step}: an empty argument (trax reads arg[0] of '')")
    head = arg[0]
    if head not in "#nc":
        return False, None
    try:
        if head == "c":
            return True, trax_constant(arg)
        index = _index(arg)
    except (IndexError, ValueError):
        kind = "constant" if head == "c" else "index"
        raise Refusal(Status.BAD_LITERAL if head == "c" else Status.SYNTAX_ERROR,
                      f"step {step}: trax cannot read {arg!r} as a {kind}") from None
    pool, what = (results, "step result") if head == "#" else (numbers, "problem number")
    if not -len(pool) <= index < len(pool):
        status = Status.FORWARD_REFERENCE if head == "#" else Status.BAD_LITERAL
        raise Refusal(status, f"step {step}: {arg!r} reads {what} {index}, but there are {len(pool)}")
    return True, pool[index]


def _failure(error: Exception, name: str, args: list[Any], dropped: list[str], step: int) -> Refusal:
    """The typed refusal for an exception trax's op would raise."""
    if isinstance(error, ProgexecError) and error.kind == "missing_argument":
        note = f"; trax dropped {', '.join(repr(text) for text in dropped)} (neither #k, nK nor c...)" if dropped else ""
        status = Status.SYNTAX_ERROR if dropped else Status.BAD_ARG_KIND
        return Refusal(status, f"step {step}: {name} reads argument {error.args[0]}, trax collected {len(args)}{note}")
    if any(value is None for value in args):
        return Refusal(Status.UNKNOWN_OP, f"step {step}: {name} computes with the None of an op trax does not define")
    if any(isinstance(value, complex) for value in args):
        return Refusal(Status.NON_REAL_RESULT, f"step {step}: {name} of a complex value raises ({error})")
    if isinstance(error, ZeroDivisionError):
        return Refusal(Status.DIVIDE_BY_ZERO, f"step {step}: {name}: division by zero")
    if isinstance(error, OverflowError):
        return Refusal(Status.OVERFLOW, f"step {step}: {name}: {error}")
    if isinstance(error, ValueError):
        status = Status.NOT_A_NUMBER if "NaN" in str(error) else Status.NON_REAL_RESULT
        return Refusal(status, f"step {step}: {name}: {error}")
    return Refusal(Status.BAD_ARG_KIND, f"step {step}: {name}: {type(error).__name__}: {error}")


def _compute(name: str, args: list[Any], dropped: list[str], step: int) -> Any:
    op = TRAX_OPS.get(name)
    if op is None:
        return None
    try:
        value = op(_Args(args))
    except Refusal:
        raise
    except Exception as error:  # trax's caller catches every exception: each one is a failure
        raise _failure(error, name, args, dropped, step) from None
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > current().max_trax_int_bits:
        raise Refusal(Status.LIMIT_EXCEEDED,
                      f"step {step}: {name} gives an integer of {plural(value.bit_length(), 'bit')}, "
                      f"over {current().max_trax_int_bits}")
    return value


def _final(value: Any, steps: int) -> Outcome[float]:
    """The outcome for trax's last step result."""
    last = steps - 1
    if value is None:
        return _refuse(Status.UNKNOWN_OP, "the last op is not one trax defines (trax answers None)", last)
    if isinstance(value, complex):
        return _refuse(Status.NON_REAL_RESULT, f"trax answers the complex number {value!r}", last)
    try:
        number = float(value)
    except OverflowError:
        return _refuse(Status.OVERFLOW, f"trax answers an integer of {plural(int(value).bit_length(), 'bit')}, "
                       "too large for float64", last)
    if math.isnan(number):
        return _refuse(Status.NOT_A_NUMBER, "trax answers nan", last)
    if math.isinf(number):
        return _refuse(Status.OVERFLOW, f"trax answers {number!r}", last)
    return Outcome(Status.OK, value=number, raw=number)


def trax_steps(formula: str) -> list[str]:
    """trax's ``compute_ops``: the ``|``-separated op texts, an empty last one dropped."""
    ops = formula.split("|")
    return ops[:-1] if not ops[-1] else ops


def run_trax(formula: str, numbers: Sequence[float]) -> Outcome[float]:
    """Run a ``linear_formula`` as trax does, with ``nK`` = ``numbers[K]``; never raises."""
    if len(formula) > MAX_PROGRAM_CHARS:
        return Outcome(Status.LIMIT_EXCEEDED, message=f"program is {plural(len(formula), 'character')} long, "
                       f"over the limit of {MAX_PROGRAM_CHARS}")
    steps = trax_steps(formula)
    if not steps:
        return Outcome(Status.NO_STEPS, message="the formula has no op (trax reads [][-1])")
    results: list[Any] = []
    with np.errstate(all="ignore"):  # numpy's default only warns; the values are the same
        for step, text in enumerate(steps):
            name = text.split("(")[0]
            body = text[text.find("(") + 1:text.find(")")]
            collected: list[Any] = []
            dropped: list[str] = []
            try:
                for arg in body.split(","):
                    kept, value = _read_arg(arg, results, numbers, step)
                    if kept:
                        collected.append(value)
                    else:
                        dropped.append(arg)
                results.append(_compute(name, collected, dropped, step))
            except Refusal as refusal:
                return _refuse(refusal.status, refusal.message, step)
    return _final(results[-1], len(steps))
