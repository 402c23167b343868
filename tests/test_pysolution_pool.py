"""The warm sandbox pool: typed statuses, returned values with their types, a fresh state per solution."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from progexec.isolation import bwrap as bubblewrap
from progexec.datasets.pysolution.pool import Budget, Pool, Request
from progexec.datasets.pysolution.results import SolutionResult, Status, decode_report

pytestmark = pytest.mark.skipif(not bubblewrap.status().available, reason="no bubblewrap isolation on this machine")

BUDGET = Budget(cpu_seconds=1, wall_seconds=5)


@pytest.fixture(scope="module")
def pool() -> Iterator[Pool]:
    with Pool(jobs=2, budget=BUDGET) as running:
        yield running


def run(pool: Pool, *codes: str) -> list[SolutionResult]:
    return pool.run([Request(code) for code in codes])


@pytest.mark.parametrize(("code", "status"), [
    ("def solution():\n    return 2.5", Status.OK),
    ("def solution():\n    return None", Status.NOT_A_NUMBER),
    ("def solution():\n    return [1, 2]", Status.NOT_A_NUMBER),
    ("def solution(:\n    return 1", Status.SYNTAX_ERROR),
    ("x = 1", Status.NO_SOLUTION_FUNCTION),
    ("def solution():\n    return 1 / 0", Status.RUNTIME_ERROR),
    ("import sklearn\ndef solution():\n    return 1", Status.RUNTIME_ERROR),
    ("def solution():\n    while True:\n        pass", Status.TIME_LIMIT),
    ("def solution():\n    raise SystemExit(3)", Status.EXIT),
    ("def solution():\n    return bytearray(8 * 1024 ** 3)", Status.MEMORY_LIMIT),
    ("def solution():\n    return input('rate? ')", Status.RUNTIME_ERROR),
])
def test_statuses(pool: Pool, code: str, status: Status) -> None:
    assert run(pool, code)[0].status is status


def test_returned_values_keep_their_type(pool: Pool) -> None:
    results = run(pool, "def solution():\n    return 7", "def solution():\n    return True",
                  "import numpy as np\ndef solution():\n    return np.float64(0.5)",
                  "def solution():\n    return '12.5'",
                  "from fractions import Fraction\ndef solution():\n    return Fraction(1, 4)",
                  "import sympy\ndef solution():\n    return sympy.Rational(1, 8)",
                  "def solution():\n    return 10 ** 30", "def solution():\n    return float('nan')")
    assert [(r.type_name, r.number) for r in results[:6]] == [
        ("int", 7.0), ("bool", 1.0), ("float64", 0.5), ("str", 12.5), ("Fraction", 0.25), ("Rational", 0.125)]
    assert results[0].exact_int == 7 and results[1].boolean is True
    assert results[6].exact_int == 10 ** 30
    assert results[7].number is not None and results[7].number != results[7].number


def test_a_lone_surrogate_cannot_end_the_run(pool: Pool) -> None:
    results = run(pool, "def solution():\n    raise ValueError('\\ud800')", "def solution():\n    return '\\udcff'")
    assert results[0].status is Status.RUNTIME_ERROR and "\\ud800" in results[0].message
    assert results[1].status is Status.NOT_A_NUMBER
    for result in results:
        (result.message + result.shown).encode("utf-8")


def test_every_solution_starts_from_a_fresh_state(pool: Pool) -> None:
    # in the official loop all solutions share one interpreter, so a patched module stays patched
    patch = "import math\nimport builtins\nmath.sqrt = lambda x: 42.0\nbuiltins.round = None\n" \
            "def solution():\n    return 1.0"
    use = "import math\ndef solution():\n    return round(math.sqrt(16.0), 1)"
    results = pool.run([Request(patch)] * 3 + [Request(use)] * 3)
    assert [r.number for r in results] == [1.0, 1.0, 1.0, 4.0, 4.0, 4.0]


def test_print_is_silent_and_harmless(pool: Pool) -> None:
    code = "import sys\ndef solution():\n    print('x' * 10**6)\n    sys.stdout.write('y' * 10**6)\n    return 3"
    assert run(pool, code)[0].number == 3.0


def test_forged_reports_are_bad_results() -> None:
    assert decode_report(b'{"seq": 1, "result": "{\\"kind\\": \\"ok\\"}"}', 1).status is Status.BAD_RESULT
    assert decode_report(b'{"seq": 1, "result": "{\\"kind\\": \\"time_limit\\"}"}', 1).status is Status.BAD_RESULT
    assert decode_report(b'{"seq": 2, "result": ""}', 1).status is Status.BAD_RESULT
    forged_int = b'{"seq": 1, "result": "{\\"kind\\": \\"ok\\", \\"type\\": \\"int\\", \\"int\\": \\"5\\", \\"number\\": 6}"}'
    assert decode_report(forged_int, 1).status is Status.BAD_RESULT
    huge = ('{"seq": 1, "result": "{\\"kind\\": \\"ok\\", \\"type\\": \\"int\\", \\"number\\": 1, \\"int\\": \\"'
            + "9" * 5000 + '\\"}"}').encode()
    assert decode_report(huge, 1).status is Status.BAD_RESULT
    assert decode_report(b"not json", 1).status is Status.BAD_RESULT


def test_values_that_differ_between_runs_are_made_stable(pool: Pool) -> None:
    results = run(pool, "import random\ndef solution():\n    return random.random()",
                  "import random\ndef solution():\n    return random.random()",
                  "def solution():\n    return lambda: 1",
                  "import numpy as np\ndef solution():\n    return np.random.rand()",
                  "import numpy as np\ndef solution():\n    return np.random.rand()")
    assert results[0].number == results[1].number  # seeded: the same value in every child and every run
    assert results[3].number == results[4].number
    assert results[2].status is Status.NOT_A_NUMBER and "0x?" in results[2].shown
