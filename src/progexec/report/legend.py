"""What each finding kind and severity means, in words: the legend both the Markdown and HTML reports print."""

from __future__ import annotations

from ..oracle.classify import FindingKind

SEVERITIES = {
    "divergence": "the answer changes: a port that does this gets a different number from the official one",
    "hazard": "the value sits where some port can go wrong, whether or not one of ours did",
    "info": "explains where a value comes from; no answer changes",
}

MEANINGS = {
    FindingKind.NAIVE_DIFFERS: "`round(x * 1e5) / 1e5` differs from the official `round(x, 5)`: the product x*1e5 "
                               "is rounded to a double before the halfway test.",
    FindingKind.HALF_UP_DIFFERS: "`floor(x * 1e5 + 0.5) / 1e5` differs: it rounds halves up where the official "
                                 "rounding goes half to even (and it rounds the product first).",
    FindingKind.NUMPY_DIFFERS: "`numpy.round(x, 5)` differs: numpy scales, rounds half to even and scales back, "
                               "so it double-rounds as `naive` does.",
    FindingKind.PER_STEP_DIFFERS: "rounding every intermediate result to 5 places (instead of only the final "
                                  "value) gives a different final answer.",
    FindingKind.EXACT_PORT_DIFFERS: "the exact single-rounding port of `round(x, 5)` differs: a bug in the port; "
                                    "never expected.",
    FindingKind.EXACT_BINARY_TIE: "x*10^5 is exactly halfway between two integers (x = m/64, m odd): half-even and "
                                  "half-up rounding disagree by definition.",
    FindingKind.PRODUCT_DOUBLE_ROUNDING: "the float product x*1e5 lands on or crosses a halfway point that the exact "
                                         "product does not: where `naive` and `numpy` go wrong.",
    FindingKind.FLOAT_VS_DECIMAL: "reading the literals as exact decimals gives a different 5-place answer than "
                                  "the official float evaluation.",
    FindingKind.SCALE_ARTEFACT: "|x| is at least 2^53 / 10^5: doubles there are spaced wider than 10^-5, so a "
                                "5-place answer cannot always be represented.",
    FindingKind.GOLD_MISMATCH: "the dataset's `exe_ans` differs from the official execution of its program.",
    FindingKind.IRRATIONAL_RESULT: "the exact result is not rational (a fractional power); it was decided with "
                                   "interval arithmetic.",
    FindingKind.UNDECIDED: "the exact answer could not be decided within the limits; the program is listed, "
                           "not dropped.",
}
"""One line per kind, Markdown-flavoured (backticks mark code)."""
