"""Number binding: ``n0``, ``n1``, ... are the numbers of the problem text, in order of appearance.

A number is an optional sign, an optional leading ``.``, digits with optional
thousands groups (``1,000``), an optional fraction and an optional exponent —
the reading MathQA-Python's generator applies to the ``Problem`` text. Commas are
removed from the bound text so every arithmetic can read it. Quirks kept on
purpose, because the gold ``nK`` indices were written against them: a hyphen glued
to a digit is a sign (``2-3`` gives 2 and -3); ``1,00`` gives 1 and 0;
``5.`` is 5; a lone ``.5`` is 0.5.
"""

from __future__ import annotations

import re

NUMBER_PATTERN = re.compile(r"[-+]?\.?\d+(?:,\d{3})*\.?\d*(?:[eE][-+]?\d+)?")
"""One number of the problem text, as the generator finds them (left to right, no overlap)."""


def number_texts(problem: str) -> list[str]:
    """The texts bound to ``n0, n1, ...``: each number of ``problem`` with its commas removed."""
    return [match.group(0).replace(",", "") for match in NUMBER_PATTERN.finditer(problem)]


def bind_numbers(problem: str) -> list[float]:
    """The values of ``n0, n1, ...`` as floats."""
    return [float(text) for text in number_texts(problem)]


def python_number_lines(problem: str) -> list[str]:
    """``n0 = 5.0`` lines as MathQA-Python writes them (``repr`` of each float)."""
    return [f"n{index} = {value!r}" for index, value in enumerate(bind_numbers(problem))]
