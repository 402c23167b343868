"""The official evaluator loop with one rule changed: the variants that name a port's divergence.

:func:`evaluate` models the official ``eval_program`` (SPEC §1-2) on a token list, Python's
dynamic operators on floats and the strings ``"yes"``/``"no"``, any exception meaning
"invalid". With a :class:`Variant` other than ``OFFICIAL`` exactly one rule is changed the way
real ports get it wrong (naive final rounding, rounding every step, ``parseFloat``, no stale-row
quirk, ...). A divergent answer is *classified* by re-running the case under every variant and
naming the first one that reproduces the port's answer bit for bit.

This model is not the reference (that is :mod:`progexec.interp.run`); it is cross-checked to
equal the reference under ``OFFICIAL`` on the whole suite, so a variant differs from the
official semantics in its one rule only.
"""

from __future__ import annotations

import decimal
import math
import re
import statistics
import struct
from collections.abc import Sequence
from enum import Enum
from typing import Any, Optional

from ...core.registry import get_dataset as get_dialect
from ...core.errors import ProgexecError
from ...grammar.tokens import ALL_OPS, official_tokenize
from ...core.verdict import INVALID, OfficialVerdict
from ...core.ops import FINQA_OPS
from ...oracle.rounding import round_half_up, round_naive

_OPS = frozenset(ALL_OPS)
_ARITH = frozenset(name for name, spec in FINQA_OPS.items() if not spec.row_op)


class Variant(str, Enum):
    """One rule changed; the value is the variant's name in reports."""

    OFFICIAL = "official"
    POW_ULP_UP = "pow_one_ulp_up"                # exp one ulp above CPython's ** (another libm pow)
    POW_ULP_DOWN = "pow_one_ulp_down"
    NAIVE_ROUNDING = "naive_rounding"            # Python round(x * 1e5) / 1e5 (round(inf) raises)
    NAIVE_MATH_ROUND = "naive_math_round"        # JS Math.round(x * 1e5) / 1e5: the product's ties toward +inf
    HALF_UP_ROUNDING = "half_up_rounding"        # floor(x * 1e5 + 0.5) / 1e5 (the product rounded too)
    TIES_AWAY = "ties_away_rounding"             # exact value, ties away from zero (JS toFixed)
    UNROUNDED = "no_final_rounding"              # the final value is not rounded at all
    REPR_HALF_EVEN = "repr_then_half_even"       # Decimal(str(x)).quantize(1e-5): the shortest repr rounded
    REPR_HALF_UP = "repr_then_half_up"           # Decimal(str(x)).quantize(1e-5, ROUND_HALF_UP)
    PER_STEP = "per_step_rounding"               # every intermediate rounded to 5 places
    DECIMAL = "decimal_arithmetic"               # Python Decimal, 28 digits, quantized at the end
    FLOAT32 = "float32_arithmetic"               # every literal, cell and result held as a float32
    LENIENT_TOKENIZER = "lenient_tokenizer"      # any spaces around ',', '(' and ')' accepted
    UNCLOSED_STEP = "unclosed_step_read"         # a last step without ')' evaluated ('add(1, 63010' is 63011)
    PARSE_FLOAT = "parse_float"                  # numeric prefix, commas kept: '1,000' -> 1, '5%' -> 5
    COMMA_KEPT = "comma_kept"                    # commas not removed: '1,000' is not a number
    PERCENT_IGNORED = "percent_ignored"          # '5%' -> 5
    PERCENT_TIMES = "percent_times_0.01"         # '5%' -> 5 * 0.01 (not 5 / 100.0)
    NO_CONST_M1 = "const_m1_unread"              # const_m1 is not -1
    JS_NUMBER = "js_number"                      # JS Number(): '' -> 0, no inf/nan/underscores
    DOLLAR_IN_LITERALS = "dollar_stripped_from_literals"  # '$5' as an argument read as 5
    FIRST_ROW_WINS = "first_duplicate_row_wins"
    DOLLAR_KEPT = "dollar_kept"                  # '$' not removed from cells
    PAREN_NEGATIVE = "parentheses_negative"      # '( 5 )' and '(5)' read as -5
    NO_PAREN_CUT = "text_after_paren_kept"       # '5 (a)' is not cut at '('
    NO_STALE_ROW = "no_stale_row_quirk"          # a table op on '#n' is refused
    FSUM_ROWS = "compensated_row_sum"            # math.fsum for table_sum / table_average
    EXACT_MEAN = "statistics_mean"               # statistics.mean (exact) for table_average
    EMPTY_ROW_IGNORED = "empty_row_ignored"      # an empty row elsewhere does not break table ops
    GREATER_NUMBER = "greater_as_number"         # greater gives 1.0 / 0.0
    GREATER_OR_EQUAL = "greater_or_equal"        # greater is a >= b
    EXP_NEGATIVE_REFUSED = "exp_negative_base_refused"
    COMPLEX_AS_NAN = "complex_as_nan"            # a negative base to a fractional power gives nan
    NONFINITE_REFUSED = "nonfinite_refused"      # an inf or nan literal or result is refused
    DIVIDE_BY_ZERO_IEEE = "divide_by_zero_ieee"  # x / 0 gives ±inf or nan
    NO_BARE_NUMBERS = "no_bare_numbers"          # ConvFinQA's one-token programs not supported (FinQA's loop)


_JS_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|Infinity)")
_PREFIX = re.compile(r"\s*([+-]?(?:Infinity|\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?))")


def _float_step(text: str, variant: Variant) -> Any:
    """Rule 1 of the official ``str_to_num`` (commas removed, ``float``), as the variant reads it."""
    if variant is Variant.DECIMAL:
        return decimal.Decimal(text.replace(",", ""))
    if variant is Variant.PARSE_FLOAT:
        match = _PREFIX.match(text)
        if match is None:
            raise ValueError(text)
        return float(match.group(1).replace("Infinity", "inf"))
    if variant is Variant.COMMA_KEPT:
        return float(text)
    if variant is Variant.DOLLAR_IN_LITERALS:
        return float(text.replace(",", "").replace("$", ""))
    if variant is Variant.JS_NUMBER:
        stripped = text.replace(",", "").strip()
        if not stripped:
            return 0.0
        if not _JS_NUMBER.fullmatch(stripped):
            raise ValueError(text)
        return float(stripped.replace("Infinity", "inf"))
    return float(text.replace(",", ""))


def str_to_num(text: str, const_marker: str, variant: Variant) -> Any:
    """The official ``str_to_num`` under ``variant``; None where the official gives ``"n/a"``."""
    try:
        return _float_step(text, variant)
    except (ValueError, decimal.InvalidOperation):
        pass
    text = text.replace(",", "") if variant is not Variant.COMMA_KEPT else text
    if "%" in text:
        rest = text.replace("%", "")
        if variant is Variant.DECIMAL:
            return decimal.Decimal(rest) / 100
        if variant is Variant.PERCENT_IGNORED:
            return float(rest)
        if variant is Variant.PERCENT_TIMES:
            return float(rest) * 0.01
        return float(rest) / 100.0
    if const_marker in text:
        rest = text.replace("const_", "")
        if rest == "m1" and variant is not Variant.NO_CONST_M1:
            rest = "-1"
        return decimal.Decimal(rest) if variant is Variant.DECIMAL else float(rest)
    return None


def _clean_cell(cell: str, variant: Variant) -> str:
    if variant is not Variant.DOLLAR_KEPT:
        cell = cell.replace("$", "")
    cell = cell.strip()
    if variant is Variant.PAREN_NEGATIVE:
        match = re.fullmatch(r"\(\s*([^()]*?)\s*\)", cell)
        if match is not None:
            return "-" + match.group(1)
    if variant is Variant.NO_PAREN_CUT:
        return cell
    return cell.split("(")[0].strip()


def _tokens(text: str, variant: Variant) -> list[str]:
    if variant is Variant.LENIENT_TOKENIZER:
        text = re.sub(r"\s*\)", ")", re.sub(r"\s*\(\s*", "(", re.sub(r"\s*,\s*", ", ", text.strip())))
    if variant is Variant.UNCLOSED_STEP and text.count("(") > text.count(")"):
        text = text.rstrip() + ")"
    return official_tokenize(text)


def f32(value: Any) -> Any:
    """A float held as a float32 (a float32 port's numbers; ±inf past its range); anything else unchanged."""
    if not isinstance(value, float) or not math.isfinite(value):
        return value
    try:
        return float(struct.unpack("f", struct.pack("f", value))[0])
    except OverflowError:
        return math.copysign(math.inf, value)


def _held(value: Any, variant: Variant) -> Any:
    """A number as the variant holds it between steps (float32 under FLOAT32)."""
    return f32(value) if variant is Variant.FLOAT32 else value


def round_product(x: float) -> float:
    """``Math.round(x * 1e5) / 1e5`` as JavaScript computes it; inf and nan pass through."""
    product = x * 100000.0
    return product / 100000.0 if not math.isfinite(product) else _math_round(product) / 100000.0


def _math_round(p: float) -> float:
    """JS ``Math.round``: the nearest integer, ties toward +inf, -0 for -0.5 <= p < 0 (exact, unlike floor(p + 0.5))."""
    whole = math.floor(p)
    if p - whole >= 0.5:  # the difference is exact for a double
        whole += 1
    return math.copysign(float(whole), p) if whole == 0 else float(whole)


def _rounded(value: Any, variant: Variant) -> Any:
    """The final ``round(x, 5)`` as the variant does it (a TypeError for a complex value, as official)."""
    if variant is Variant.DECIMAL and isinstance(value, decimal.Decimal):
        return float(value.quantize(decimal.Decimal("0.00001"), rounding=decimal.ROUND_HALF_EVEN))
    if isinstance(value, complex):
        raise TypeError("complex")
    if variant is Variant.UNROUNDED:
        return float(value)
    if variant is Variant.NAIVE_ROUNDING:
        if not math.isfinite(value):
            raise OverflowError("round(inf) and round(nan) raise in Python")
        return round_naive(float(value), 5)
    if variant is Variant.NAIVE_MATH_ROUND:
        return round_product(float(value))
    if variant is Variant.HALF_UP_ROUNDING:
        return round_half_up(float(value), 5)
    if variant is Variant.TIES_AWAY:
        return round_ties_away(float(value))
    if variant in (Variant.REPR_HALF_EVEN, Variant.REPR_HALF_UP) and math.isfinite(value):
        mode = decimal.ROUND_HALF_UP if variant is Variant.REPR_HALF_UP else decimal.ROUND_HALF_EVEN
        with decimal.localcontext(decimal.Context()) as context:  # Python's default context, as a port runs in
            context.traps[decimal.InvalidOperation] = True  # quantize past 28 digits raises: the port refuses
            return float(decimal.Decimal(repr(float(value))).quantize(decimal.Decimal("0.00001"), rounding=mode))
    return round(value, 5)


def round_ties_away(x: float) -> float:
    """Correct rounding of the exact binary value to 5 places, exact ties away from zero."""
    if not math.isfinite(x) or x == 0.0:
        return x
    from fractions import Fraction

    scaled = Fraction(x) * 100000
    whole = math.floor(abs(scaled) + Fraction(1, 2))
    return math.copysign(whole / 100000, x) if whole else math.copysign(0.0, x)


def _pow(a: Any, b: Any, variant: Variant) -> Any:
    if variant is Variant.EXP_NEGATIVE_REFUSED and a < 0:
        raise ProgexecError("negative base", kind="invalid")
    result = a ** b
    if isinstance(result, complex) and variant is Variant.COMPLEX_AS_NAN:
        return math.nan
    if isinstance(result, float) and math.isfinite(result) and result != 0.0:
        if variant is Variant.POW_ULP_UP:
            return math.nextafter(result, math.inf)
        if variant is Variant.POW_ULP_DOWN:
            return math.nextafter(result, -math.inf)
    return result


def _divide(a: Any, b: Any, variant: Variant) -> Any:
    if variant is Variant.DIVIDE_BY_ZERO_IEEE and isinstance(b, float) and b == 0.0 and isinstance(a, float):
        if a != a or a == 0.0:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def _finite(value: Any, variant: Variant) -> Any:
    if variant is Variant.NONFINITE_REFUSED and isinstance(value, float) and not math.isfinite(value):
        raise ProgexecError("non-finite", kind="invalid")
    return value


class _Model:
    """The official evaluator's arithmetic (Python's operators on its floats or Decimals) with one rule changed
    by ``variant``: one method per op method of the op table."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant

    def add(self, a: Any, b: Any) -> Any:
        return a + b

    def subtract(self, a: Any, b: Any) -> Any:
        return a - b

    def multiply(self, a: Any, b: Any) -> Any:
        return a * b

    def divide(self, a: Any, b: Any) -> Any:
        return _divide(a, b, self.variant)

    def power(self, a: Any, b: Any) -> Any:
        return _pow(a, b, self.variant)

    def greater(self, a: Any, b: Any) -> Any:
        if self.variant is Variant.GREATER_NUMBER:
            return 1.0 if a > b else 0.0
        if self.variant is Variant.GREATER_OR_EQUAL:
            return "yes" if a >= b else "no"
        return "yes" if a > b else "no"

    def row_max(self, row: list[Any]) -> Any:
        return max(row)

    def row_min(self, row: list[Any]) -> Any:
        return min(row)

    def row_sum(self, row: list[Any]) -> Any:
        if self.variant is Variant.FLOAT32:  # a float32 port adds in float32, rounding after every addition
            total = 0.0
            for value in row:
                total = f32(total + value)
            return total
        return math.fsum(row) if self.variant is Variant.FSUM_ROWS else sum(row)

    def row_average(self, row: list[Any]) -> Any:
        if self.variant is Variant.EXACT_MEAN:
            return statistics.mean(row)
        return self.row_sum(row) / len(row)


_MODELS = {variant: _Model(variant) for variant in Variant}


def evaluate_text(text: str, table: Optional[Sequence[Sequence[str]]], dialect: str,
                  variant: Variant = Variant.OFFICIAL) -> OfficialVerdict:
    """The verdict of program text (tokenized as the variant tokenizes it)."""
    return evaluate(_tokens(text, variant), table, dialect, variant)


def evaluate(tokens: Sequence[str], table: Optional[Sequence[Sequence[str]]], dialect: str,
             variant: Variant = Variant.OFFICIAL) -> OfficialVerdict:
    """The verdict of an official token list (``EOF`` last) under ``variant``."""
    try:
        if variant is Variant.DECIMAL:
            with decimal.localcontext() as context:
                context.prec = 28
                context.traps[decimal.InvalidOperation] = True
                context.traps[decimal.DivisionByZero] = True
                context.traps[decimal.Overflow] = True
                return _evaluate(list(tokens), table, dialect, variant)
        return _evaluate(list(tokens), table, dialect, variant)
    except Exception:  # the official bare except: any failure is "invalid"
        return INVALID


def _evaluate(tokens: list[str], table: Optional[Sequence[Sequence[str]]], dialect: str, variant: Variant) -> OfficialVerdict:
    spec = get_dialect(dialect)
    marker = spec.literals.const_marker
    body = tokens[:-1]
    if spec.bare_numbers and len(body) == 1 and variant is not Variant.NO_BARE_NUMBERS:
        number = str_to_num(body[0], marker, variant)
        if number is None:
            return INVALID
        return OfficialVerdict(True, _rounded(_finite(_held(float(number), variant) if variant is not Variant.DECIMAL
                                                      else number, variant), variant))
    for index, token in enumerate(body):
        if index % 4 == 0 and token.strip("(") not in _OPS:
            return INVALID
        if (index + 1) % 4 == 0 and token != ")":
            return INVALID
    result: Any = "n/a"
    results: dict[int, Any] = {}
    row: Any = None
    have_row = False
    for index, raw_step in enumerate("|".join(body).split(")")[:-1]):
        step = raw_step.strip()
        if len(step.split("(")) > 2:
            return INVALID
        op = step.split("(")[0].strip("|").strip()
        args = step.split("(")[1].strip("|").strip()
        arg1 = args.split("|")[0].strip()
        arg2 = args.split("|")[1].strip()
        if op in _ARITH:
            operands = []
            for arg in (arg1, arg2):
                value = results[int(arg.replace("#", ""))] if "#" in arg else str_to_num(arg, marker, variant)
                if value is None:
                    return INVALID
                operands.append(_finite(_held(value, variant), variant))
            result = _finite(_held(FINQA_OPS[op].apply(_MODELS[variant], operands), variant), variant)
            if variant is Variant.PER_STEP and isinstance(result, float):
                result = round(result, 5)
            results[index] = result
        elif "table" in op:
            rows = _rows(table, variant)
            if "#" in arg1:
                results[int(arg1.replace("#", ""))]
                if variant is Variant.NO_STALE_ROW or not have_row:
                    return INVALID
            else:
                if arg1 not in rows:
                    return INVALID
                row = _row_numbers(rows[arg1], marker, variant)
                have_row = True
            if row is None:
                return INVALID
            result = _finite(_held(FINQA_OPS[op].apply(_MODELS[variant], [row]), variant), variant)
            if variant is Variant.PER_STEP and isinstance(result, float):
                result = round(result, 5)
            results[index] = result
    if isinstance(result, str) and result in ("yes", "no", "n/a"):
        return OfficialVerdict(True, None if result == "n/a" else result)
    return OfficialVerdict(True, _rounded(result, variant))


def _rows(table: Optional[Sequence[Sequence[str]]], variant: Variant) -> dict[Any, Sequence[str]]:
    if table is None:
        raise ProgexecError("no table", kind="invalid")  # the official iterates None: a TypeError, so invalid
    if variant is Variant.EMPTY_ROW_IGNORED:
        table = [line for line in table if len(line) > 0]
    if variant is Variant.FIRST_ROW_WINS:
        rows: dict[Any, Sequence[str]] = {}
        for line in table:
            rows.setdefault(line[0], line[1:])
        return rows
    return {line[0]: line[1:] for line in table}


def _row_numbers(cells: Sequence[str], marker: str, variant: Variant) -> list[Any] | None:
    numbers = []
    for cell in cells:
        value = str_to_num(_clean_cell(cell, variant), marker, variant)
        if value is None:
            return None
        numbers.append(_held(value, variant))
    return numbers
