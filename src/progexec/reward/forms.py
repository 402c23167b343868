"""Written forms of one number that are rewritten to plain digits before an answer is read.

Each form is a rule of docs/reward.md ("Forms read as one number"): a power (``10**5``, ``10^5``,
``10⁵``), a scientific product (``5 \\times 10^{3}``), a fraction (``\\frac{1}{2}``, ``1/2``) and
thousands separated by spaces (``1 234 567``, U+00A0). A form is replaced by its value written
with an exponent (so it buys no rounding tolerance); a power that cannot be read (a fractional or
over-large exponent, an overflow) or a fraction over zero makes the answer unreadable — it is
refused, never read as other digits. The minus signs and dashes are unified here too. Every pattern
is linear in the text's length.
"""

from __future__ import annotations

import math
import re

from ..core.limits import current

REFUSED = "\u0000"
"""Put in place of a form that cannot be read; a text holding it reads as nothing (unreadable)."""


MINUS_SIGNS = "\u2212\ufe63\uff0d"
"""Read as ``-`` wherever they stand: MINUS SIGN, SMALL HYPHEN-MINUS, FULLWIDTH HYPHEN-MINUS."""
DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015"
"""Hyphen, non-breaking hyphen, figure dash, en dash, em dash, horizontal bar: a minus only when
written right before the amount (``–5``, ``—$5``), else a space (``answer — 5`` is 5)."""

_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SUPERSCRIPT_RUN = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+")
_DASH_SIGN = re.compile(f"[{DASHES}](?=[$€£¥]?[0-9]|\\.[0-9])")
_DASH_OTHER = re.compile(f"[{DASHES}]")
_POWER_STARS = re.compile(r"(?<=[0-9)}])[ \t]?\*\*[ \t]?(?=[-+(]?[0-9{])")
_FRAC = re.compile(r"\\[dt]?frac[ \t]*\{([^{}]{1,40})\}[ \t]*\{([^{}]{1,40})\}")

_NUM = r"[0-9]+(?:\.[0-9]+)?"
_SPACED_THOUSANDS = re.compile(r"(?<![0-9.,])[0-9]{1,3}(?: [0-9]{3})+(?![0-9]|[.,][0-9])")
_SCIENTIFIC = re.compile(rf"(?<![0-9.])({_NUM}) ?(?:×|·|\*|x|X) ?10 ?\^ ?\(?([-+]?[0-9]+(?:\.[0-9]+)?)\)?(?![0-9.])")
_POWER = re.compile(rf"(?<![0-9.])({_NUM}) ?\^ ?\(?([-+]?[0-9]+(?:\.[0-9]+)?)\)?(?![0-9.])")
_FRACTION = re.compile(rf"(?<![\w./])({_NUM}) ?/ ?({_NUM})(?![\w/]|\.[0-9])")
_LEFTOVER_POWER = re.compile(r"[0-9)] ?\^")


def unify_signs(text: str) -> str:
    """Minus signs as ``-``; dashes as ``-`` before an amount, else a space; superscripts as ``^digits``;
    ``**`` between digits as ``^`` (a power, never deleted)."""
    for sign in MINUS_SIGNS:
        text = text.replace(sign, "-")
    text = _DASH_OTHER.sub(" ", _DASH_SIGN.sub("-", text))
    text = _SUPERSCRIPT_RUN.sub(lambda run: "^" + run.group(0).translate(_SUPERSCRIPTS), text)
    return _POWER_STARS.sub("^", text)


def latex_fractions(text: str) -> str:
    """``\\frac{a}{b}`` (``\\dfrac``, ``\\tfrac``) as ``a/b``, before the braces are dropped."""
    return _FRAC.sub(lambda match: f"{match.group(1).strip()}/{match.group(2).strip()}", text)


def rewrite(text: str) -> str:
    """The text with every form of one number written as plain digits (see the module docstring)."""
    if " " in text:
        text = _SPACED_THOUSANDS.sub(lambda match: match.group(0).replace(" ", ""), text)
    if "^" in text:  # the forms below it write digits and exponents only, never a ^ or a /
        text = _SCIENTIFIC.sub(lambda match: _power(float(match.group(1)), match.group(2), 10.0), text)
        text = _POWER.sub(lambda match: _power(1.0, match.group(2), float(match.group(1))), text)
    if "/" in text:
        text = _FRACTION.sub(_fraction, text)
    if "^" in text and _LEFTOVER_POWER.search(text):
        return REFUSED
    return text


def _written(value: float) -> str:
    return REFUSED if not math.isfinite(value) else f"{value:.17e}"


def _power(mantissa: float, exponent_text: str, base: float) -> str:
    exponent = float(exponent_text)
    if not exponent.is_integer() or abs(exponent) > current().max_answer_exponent:
        return REFUSED
    try:
        value = mantissa * base ** int(exponent)
    except (OverflowError, ZeroDivisionError):
        return REFUSED
    return _written(value)


def _fraction(match: re.Match[str]) -> str:
    denominator = float(match.group(2))
    if denominator == 0.0:
        return REFUSED
    return _written(float(match.group(1)) / denominator)
