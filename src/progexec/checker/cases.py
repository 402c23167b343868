"""The case suite of ``progexec check-rounder``: every family of inputs where real rounders fail.

A suite is a pure function of ``(cases, seed, digits)``: it is produced block by block (so a
10**7-case run never holds every case in memory), each block from its own ``random.Random``
seeded with ``"<seed>:<block>"``, and every case carries its family and the oracle's answer,
CPython ``round(x, ndigits)``. Block 0 starts with the fixed cases (the seed's named cases and
the special values); the rest of every block is shared among the random families by weight.
"""

from __future__ import annotations

import gzip
import math
import random
import struct
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from importlib import resources
from ..core.limits import DEFAULT_LIMITS, current


class Family(str, Enum):
    """A family of cases; the value is its name in reports."""

    SEED = "seed"                    # the seed's named cases (ties, 2.675, the six double-rounding values)
    BINARY_TIE = "binary_tie"        # x = m / 2**(n+1), m odd: x * 10**n is exactly a half-integer
    DECIMAL_TIE = "decimal_tie"      # the float nearest (k + 1/2) * 10**-n, and a few ulps either side
    DECIMAL_EXACT = "decimal_exact"  # the float nearest k * 10**-n, and a few ulps either side
    LARGE = "large"                  # |x| around 2**53 / 10**n and above, up to 2**60
    ZERO_TINY = "zero_tiny"          # ±0 and values that round to a signed zero, or just do not
    SUBNORMAL = "subnormal"          # subnormal floats and the smallest normals
    EXTREME = "extreme"              # the largest finite floats, and near DBL_MAX / 10**n
    CORPUS = "corpus"                # the unrounded final value of every FinQA gold program
    RANDOM_BITS = "random_bits"      # uniformly random 64-bit patterns
    RANDOM_RANGE = "random_range"    # log-uniform magnitudes 1e-8 .. 1e17
    NONFINITE = "nonfinite"          # inf, -inf, nan (only with nonfinite=True)
    SEARCH = "search"                # found by the hypothesis search, not part of the suite
    OTHER_NDIGITS = "other_ndigits"  # the boundary families again at every ndigits 0..15


WEIGHTS: dict[Family, int] = {
    Family.BINARY_TIE: 12, Family.DECIMAL_TIE: 24, Family.DECIMAL_EXACT: 8, Family.LARGE: 12,
    Family.ZERO_TINY: 3, Family.SUBNORMAL: 2, Family.EXTREME: 3, Family.CORPUS: 9,
    Family.RANDOM_BITS: 5, Family.RANDOM_RANGE: 8, Family.OTHER_NDIGITS: 15,
}
"""Share of each random family in every block (out of the sum of the weights present).

The corpus share is large enough that the default 100,000 cases hold every corpus value as is."""

DEFAULT_CASES = DEFAULT_LIMITS.rounder_cases
MAX_DIGITS = DEFAULT_LIMITS.rounder_max_digits
"""Largest ndigits the suite generates (10**22 is the largest power of ten that is a double);
negative ndigits are not checked (``float(f"{x:.{n}f}")``-style rounders cannot take them)."""
BLOCK_SIZE = DEFAULT_LIMITS.rounder_block_cases

SEED_CASES: tuple[tuple[float, int], ...] = (
    (0.125, 2), (-0.125, 2), (1.5, 0), (2.5, 0), (-1.5, 0), (-2.5, 0), (2.675, 2), (-2.675, 2),
    (3.268485, 5), (1.276875, 5), (-0.771875, 5), (0.115625, 5), (0.128525, 5), (0.178125, 5),
    (0.015625, 5), (-0.015625, 5), (96.55172413793103, 5), (3.8, 5), (15963.5, 5), (0.5, 0), (-0.5, 0),
)
"""The seed's named cases with their own ndigits (SPEC §5), plus the m/64 tie it names."""

_MAX = sys.float_info.max
SPECIAL_VALUES: tuple[tuple[float, Family], ...] = tuple(
    (sign * value, family) for sign in (1.0, -1.0) for value, family in (
        (0.0, Family.ZERO_TINY), (5e-324, Family.SUBNORMAL), (2.225073858507201e-308, Family.SUBNORMAL),
        (2.2250738585072014e-308, Family.SUBNORMAL), (_MAX, Family.EXTREME),
        (2.0 ** 52, Family.LARGE), (2.0 ** 52 - 0.5, Family.LARGE), (2.0 ** 53, Family.LARGE),
        (2.0 ** 53 - 1.0, Family.LARGE), (2.0 ** 53 + 2.0, Family.LARGE), (1e22, Family.EXTREME),
        (1e300, Family.EXTREME),
    ))
"""Special values checked at every ndigits of the plan."""

NONFINITE_VALUES: tuple[float, ...] = (math.inf, -math.inf, math.nan)
"""Checked only when asked (``nonfinite=True``): CPython returns them as is, but correct
rounders built on ``Decimal.quantize`` or ``Fraction`` raise on them, and FinQA never rounds one."""


@dataclass(frozen=True)
class DigitsPlan:
    """Which ``ndigits`` the suite uses.

    ``primary``: every family draws from these. ``extra``: the ``other_ndigits`` family draws
    from these (empty: no such family). The default is FinQA's 5 for the main families plus
    every ndigits 0..15 in ``other_ndigits``, so a rounder wrong only at other ndigits is caught.
    """

    primary: tuple[int, ...] = (5,)
    extra: tuple[int, ...] = tuple(range(16))

    @classmethod
    def parse(cls, text: str | None) -> DigitsPlan:
        """``None`` → the default; ``"2"``, ``"0-15"``, ``"2,5,8"`` → exactly those ndigits."""
        if text is None:
            return cls()
        values: set[int] = set()
        for part in text.split(","):
            part = part.strip()
            low, sep, high = part.partition("-") if not part.startswith("-") else (part, "", "")
            try:
                values.update(range(int(low), int(high) + 1) if sep else (int(low),))
            except ValueError:
                raise ValueError(f"bad --digits {text!r}: expected N, A-B or a comma list") from None
        if not values:
            raise ValueError(f"bad --digits {text!r}: no ndigits")
        if any(not 0 <= value <= current().rounder_max_digits for value in values):
            raise ValueError(f"bad --digits {text!r}: ndigits must be in 0..{current().rounder_max_digits}")
        return cls(tuple(sorted(values)), ())

    @property
    def all(self) -> tuple[int, ...]:
        return tuple(sorted(set(self.primary) | set(self.extra)))

    def describe(self) -> str:
        text = ",".join(map(str, self.primary))
        return text + (f" (+ {min(self.extra)}-{max(self.extra)} in other_ndigits)" if self.extra else "")


@dataclass
class CaseBlock:
    """Parallel lists: input, ndigits, family and the oracle's answer of each case."""

    xs: list[float]
    ndigits: list[int]
    families: list[Family]
    expected: list[float]

    def __len__(self) -> int:
        return len(self.xs)


# Bit-level helpers ---------------------------------------------------------------------------

_PACK = struct.Struct("<d")
_UNPACK_Q = struct.Struct("<q")


def to_bits(x: float) -> int:
    return int(_UNPACK_Q.unpack(_PACK.pack(x))[0])


def from_bits(bits: int) -> float:
    return float(_PACK.unpack(_UNPACK_Q.pack(bits))[0])


def ulps_away(x: float, steps: int) -> float:
    """``x`` moved ``steps`` ulps away from zero (negative: toward zero); stays finite."""
    if steps == 0 or x == 0.0 or not math.isfinite(x):
        return x
    sign = -1.0 if x < 0 else 1.0
    moved = from_bits(max(0, to_bits(abs(x)) + steps))
    return sign * (moved if math.isfinite(moved) else abs(x))


_ULP_STEPS = (0, 0, 0, 1, -1, 1, -1, 2, -2, 3, -3, 4, -4)


def _signed(rng: random.Random, x: float) -> float:
    return -x if rng.random() < 0.5 else x


# The random families: each draws one x for a given ndigits -----------------------------------

def _decimal(rng: random.Random, n: int, tie: bool, low: float = 1e-6, high: float = 1e15) -> float:
    """The float nearest (k + 1/2) * 10**-n (tie) or k * 10**-n, |x| in [low, high], moved a few ulps."""
    top = max(1, int(math.log10(high)) + n + 1)
    bottom = max(0, min(top, int(math.floor(math.log10(low))) + n + 1))
    width = rng.randint(bottom, top)
    k = rng.randrange(10 ** (width - 1), 10 ** width) if width > 0 else 0
    x = float(f"{10 * k + 5}e-{n + 1}") if tie else float(f"{k}e-{n}")
    return _signed(rng, ulps_away(x, rng.choice(_ULP_STEPS)))


def _binary_tie(rng: random.Random, n: int) -> float:
    m = 2 * rng.getrandbits(rng.randint(0, 52)) + 1
    return _signed(rng, math.ldexp(float(m), -(n + 1)))


def _large(rng: random.Random, n: int) -> float:
    threshold = math.log2(2.0 ** 53 / 10.0 ** n)
    kind = rng.random()
    if kind < 0.6:
        exponent = rng.randint(int(math.floor(threshold)) - 4, 60)
        return _signed(rng, math.ldexp(1.0 + rng.getrandbits(52) / 2.0 ** 52, exponent))
    if kind < 0.9:
        return _decimal(rng, n, True, 2.0 ** (threshold - 4), 2.0 ** 53)
    base = rng.choice((2.0 ** 52, 2.0 ** 53, 2.0 ** threshold, 2.0 ** 52 + 0.5))
    return _signed(rng, ulps_away(base, rng.randint(-6, 6)))


def _zero_tiny(rng: random.Random, n: int) -> float:
    kind = rng.random()
    if kind < 0.1:
        return _signed(rng, 0.0)
    if kind < 0.5:
        return _signed(rng, 10.0 ** rng.uniform(-30 - n, -n - 0.302))
    half = float(f"5e-{n + 1}")
    return _signed(rng, ulps_away(half, rng.randint(-3, 3) if kind < 0.8 else rng.randint(-10 ** 6, 10 ** 6)))


def _subnormal(rng: random.Random, n: int) -> float:
    if rng.random() < 0.8:
        return _signed(rng, math.ldexp(float(rng.getrandbits(52) or 1), -1074))
    return _signed(rng, ulps_away(2.2250738585072014e-308, rng.randint(-5, 5)))


def _extreme(rng: random.Random, n: int) -> float:
    kind = rng.random()
    if kind < 0.45:
        return _signed(rng, math.ldexp(1.0 + rng.getrandbits(52) / 2.0 ** 52, rng.randint(990, 1023)))
    if kind < 0.9:  # where x * 10**n overflows: DBL_MAX / 10**n
        exponent = 1023 - int(math.ceil(n * math.log2(10.0))) + rng.randint(-2, 2)
        return _signed(rng, math.ldexp(1.0 + rng.getrandbits(52) / 2.0 ** 52, min(exponent, 1023)))
    return _signed(rng, ulps_away(_MAX, -rng.randint(0, 100)))


def _random_bits(rng: random.Random, n: int) -> float:
    while True:
        x = from_bits(rng.getrandbits(64) - 2 ** 63)
        if math.isfinite(x):
            return x


def _random_range(rng: random.Random, n: int) -> float:
    return _signed(rng, 10.0 ** rng.uniform(-8.0, 17.0))


_OTHER_LIMIT = 1e27
"""``other_ndigits`` keeps |x| * 10**n below this: every correct rounder must handle the cases, and a
``Decimal.quantize`` at the default 28 digits that returns ``x`` for |x| >= 2**52 still can; the
huge magnitudes are covered at the primary ndigits by ``large``, ``extreme`` and ``random_bits``."""


def _within_other_limit(x: float, n: int) -> bool:
    return abs(x) >= 2.0 ** 52 or abs(x) * 10.0 ** n < _OTHER_LIMIT


def _other(rng: random.Random, n: int) -> float:
    draw = rng.choice((_decimal_tie, _decimal_tie, _binary_tie, _large, _decimal_exact, _random_range, _zero_tiny))
    for _ in range(8):
        x = draw(rng, n)
        if _within_other_limit(x, n):
            return x
    return _decimal(rng, n, True, 1e-6, _OTHER_LIMIT / 10.0 ** n)


def _decimal_tie(rng: random.Random, n: int) -> float:
    return _decimal(rng, n, True)


def _decimal_exact(rng: random.Random, n: int) -> float:
    return _decimal(rng, n, False)


_DRAW: dict[Family, Callable[[random.Random, int], float]] = {
    Family.BINARY_TIE: _binary_tie, Family.DECIMAL_TIE: _decimal_tie, Family.DECIMAL_EXACT: _decimal_exact,
    Family.LARGE: _large, Family.ZERO_TINY: _zero_tiny, Family.SUBNORMAL: _subnormal,
    Family.EXTREME: _extreme, Family.RANDOM_BITS: _random_bits, Family.RANDOM_RANGE: _random_range,
    Family.OTHER_NDIGITS: _other,
}


@lru_cache(maxsize=1)
def corpus_values() -> tuple[float, ...]:
    """The unrounded final value of every FinQA gold program (package data; empty if missing)."""
    try:
        raw = resources.files("progexec.data").joinpath("finqa_final_values.txt.gz").read_bytes()
    except FileNotFoundError:
        return ()
    lines = gzip.decompress(raw).decode("utf-8").splitlines()
    return tuple(float.fromhex(line.split()[0]) for line in lines if line and not line.startswith("#"))


def _corpus_value(index: int) -> float:
    """Pass 0: the values as they are; pass 1: negated; pass p >= 2: moved ±(p - 1) ulps."""
    values = corpus_values()
    value = values[index % len(values)]
    turn = index // len(values)
    if turn == 0:
        return value
    if turn == 1:
        return -value
    return ulps_away(value, (turn - 1) * (1 if turn % 2 else -1))


def _allocate(count: int, weights: dict[Family, int]) -> list[tuple[Family, int]]:
    """Split ``count`` among the families by weight (largest remainder, deterministic)."""
    total = sum(weights.values())
    shares = [(family, count * weight / total) for family, weight in weights.items()]
    counts = {family: int(share) for family, share in shares}
    left = count - sum(counts.values())
    for family, share in sorted(shares, key=lambda item: (int(item[1]) - item[1], item[0].value))[:left]:
        counts[family] += 1
    return [(family, counts[family]) for family in weights]


def fixed_cases(plan: DigitsPlan, nonfinite: bool = False) -> list[tuple[float, int, Family]]:
    """The seed's cases (at their own ndigits when the plan has them) and the special values."""
    cases = [(x, n if n in plan.all else plan.primary[0], Family.SEED) for x, n in SEED_CASES]
    cases += [(x, n, family) for n in plan.all for x, family in SPECIAL_VALUES
              if n in plan.primary or _within_other_limit(x, n)]
    if nonfinite:
        cases += [(x, n, Family.NONFINITE) for n in plan.all for x in NONFINITE_VALUES]
    return cases


def iter_blocks(cases: int = DEFAULT_CASES, seed: int = 0, plan: DigitsPlan | None = None,
                block_size: int = BLOCK_SIZE, nonfinite: bool = False) -> Iterator[CaseBlock]:
    """The suite, block by block: ``cases`` cases in all, the same ones for the same arguments.

    Every case is finite unless ``nonfinite``: then inf, -inf and nan are added at every ndigits.
    """
    plan = plan or DigitsPlan()
    weights = {family: weight for family, weight in WEIGHTS.items()
               if (family is not Family.OTHER_NDIGITS or plan.extra)
               and (family is not Family.CORPUS or corpus_values())}
    fixed = fixed_cases(plan, nonfinite)[:cases]
    remaining, block, corpus_index = cases - len(fixed), 0, 0
    while True:
        chosen = fixed if block == 0 else []
        xs = [x for x, _, _ in chosen]
        ns = [n for _, n, _ in chosen]
        fams = [family for _, _, family in chosen]
        size = min(remaining, block_size - len(xs))
        rng = random.Random(f"{seed}:{block}")
        primary, extra = plan.primary, plan.extra
        for family, count in _allocate(size, weights) if size > 0 else ():
            choices = extra if family is Family.OTHER_NDIGITS else primary
            draw = _DRAW.get(family)
            for _ in range(count):
                n = choices[0] if len(choices) == 1 else rng.choice(choices)
                if draw is None:  # the corpus family
                    x, corpus_index = _corpus_value(corpus_index), corpus_index + 1
                else:
                    x = draw(rng, n)
                xs.append(x)
                ns.append(n)
                fams.append(family)
        remaining -= max(size, 0)
        if xs:
            yield CaseBlock(xs, ns, fams, [round(x, n) for x, n in zip(xs, ns)])
        block += 1
        if remaining <= 0:
            return
