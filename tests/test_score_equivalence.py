"""Program accuracy: one test per rule of the official ``equal_program`` (SPEC §1-2), and the
sympy-free decision path checked against the official sympy comparison on real and mutated programs."""

from __future__ import annotations

import random

import pytest

from progexec.corpus import finqa_records
from progexec.grammar.tokens import official_tokenize
from progexec.score.equivalence import Decider, Why, equal_program


def eq(gold: str, pred: str, dialect: str = "finqa") -> tuple[bool, Why]:
    match = equal_program(official_tokenize(gold), official_tokenize(pred), dialect)
    return match.equal, match.why


def test_identical_programs_are_equal() -> None:
    assert eq("subtract(5829, 5735)", "subtract(5829, 5735)") == (True, Why.EQUAL)


def test_commutation_is_equal() -> None:
    assert eq("add(5, 3)", "add(3, 5)") == (True, Why.EQUAL)
    assert eq("multiply(2, 7), divide(#0, 3)", "multiply(7, 2), divide(#0, 3)") == (True, Why.EQUAL)


def test_subtraction_order_matters() -> None:
    assert eq("subtract(5, 3)", "subtract(3, 5)") == (False, Why.DIFFERENT)


def test_const_100_and_100_are_different_symbols() -> None:
    assert eq("multiply(#0, const_100)".replace("#0", "5"), "multiply(5, 100)") == (False, Why.UNKNOWN_SYMBOL)


def test_5_and_5_point_0_are_different_symbols() -> None:
    assert eq("add(5, 3)", "add(5.0, 3)") == (False, Why.UNKNOWN_SYMBOL)


def test_forward_reference_is_unequal() -> None:
    assert eq("add(1, 2), add(#0, 3)", "add(1, #1), add(2, 3)") == (False, Why.FORWARD_REFERENCE)


def test_self_reference_is_unequal() -> None:
    assert eq("add(1, 2), add(#0, 3)", "add(1, 2), add(#1, 3)") == (False, Why.FORWARD_REFERENCE)


def test_unknown_symbol_is_unequal() -> None:
    assert eq("subtract(5829, 5735)", "subtract(5829, 5734)") == (False, Why.UNKNOWN_SYMBOL)


def test_structure_errors_are_unequal() -> None:
    # no space after the comma: one malformed token, so token 1 is not an argument slot followed by ')'
    assert eq("subtract(5829, 5735)", "subtract(5829,5735)")[0] is False
    bad_op = equal_program(official_tokenize("add(1, 2)"), ["plus(", "1", "2", ")", "EOF"])
    assert (bad_op.equal, bad_op.why) == (False, Why.STRUCTURE)
    bad_close = equal_program(official_tokenize("add(1, 2)"), ["add(", "1", "2", "3", "EOF"])
    assert (bad_close.equal, bad_close.why) == (False, Why.STRUCTURE)


def test_missing_eof_drops_the_last_token() -> None:
    # the official code removes the last token unconditionally: without EOF, ')' goes and no step is complete
    match = equal_program(official_tokenize("add(1, 2)"), ["add(", "1", "2", ")"])
    assert match.equal is False
    two_steps = ["add(", "1", "2", ")", "add(", "#0", "3", ")"]
    assert equal_program(official_tokenize("add(1, 2)"), two_steps).equal is True  # only step 0 is seen


def test_table_step_must_match_gold_step_string() -> None:
    gold = "table_average(net revenue, none)"
    assert eq(gold, "table_average(net revenue, none)") == (True, Why.EQUAL)
    assert eq(gold, "table_max(net revenue, none)") == (False, Why.UNKNOWN_TABLE_STEP)
    # a table step's key includes the '|' left by the official split unless it is the first step
    gold2 = "add(1, 2), table_sum(cash, none), add(#0, #1)"
    assert eq(gold2, "table_sum(cash, none), add(1, 2), add(#1, #0)") == (False, Why.UNKNOWN_TABLE_STEP)


def test_reassociated_sum_is_program_equal() -> None:
    """SPEC §1: the pair the official script asserts on (equal programs, different execution)."""
    gold = "add(0.123647, 0.519502), add(#0, 1.832786)"
    pred = "add(0.519502, 1.832786), add(0.123647, #0)"
    assert eq(gold, pred) == (True, Why.EQUAL)


def test_greater_against_arithmetic_is_unequal() -> None:
    assert eq("greater(5, 3)", "subtract(5, 3)")[0] is False
    assert eq("greater(5, 3)", "greater(3, 5)")[0] is False
    assert eq("greater(5, 3)", "greater(5, 3)")[0] is True


def test_convfinqa_bare_number_rules() -> None:
    assert eq("206588", "206588", "convfinqa") == (True, Why.EQUAL)
    assert eq("206588", "206588.0", "convfinqa")[0] is False
    assert eq("206588", "add(206588, 0)", "convfinqa")[0] is False
    assert equal_program(["206588", "EOF"], ["206588", "junk"], "convfinqa").equal is True  # only len and [0] checked


def test_gold_the_official_script_crashes_on_is_reported() -> None:
    gold = ["add(", "1", "2(", ")", "EOF"]  # a gold step with two '(' fails the official assert
    match = equal_program(gold, ["add(", "1", "2", ")", "EOF"])
    assert match.equal is False and match.gold_error


def _mutations(program: str, rng: random.Random) -> list[list[str]]:
    """Predictions built from a gold program: argument swaps, step reorderings, constant swaps, forward refs."""
    tokens = official_tokenize(program)
    body = tokens[:-1]
    out: list[list[str]] = []
    if len(body) % 4 == 0 and body:
        steps = [body[i:i + 4] for i in range(0, len(body), 4)]
        swapped = [list(step) for step in steps]
        k = rng.randrange(len(swapped))
        swapped[k][1], swapped[k][2] = swapped[k][2], swapped[k][1]
        out.append([t for s in swapped for t in s] + ["EOF"])
        changed = [list(step) for step in steps]
        k = rng.randrange(len(changed))
        changed[k][0] = rng.choice(["add(", "subtract(", "multiply(", "divide(", "exp(", "greater("])
        out.append([t for s in changed for t in s] + ["EOF"])
        if len(steps) >= 2:
            last = [list(step) for step in steps]
            last[-1][1], last[0][1] = last[0][1], last[-1][1]
            out.append([t for s in last for t in s] + ["EOF"])
    return out


def test_fast_path_matches_sympy_on_mutated_gold_programs() -> None:
    """Every shortcut decision equals the official sympy comparison (the held-out style check)."""
    rng = random.Random(7)
    records = [r for r in finqa_records() if r["split"] == "dev"]
    rng.shuffle(records)
    checked = 0
    for record in records[:200]:
        gold = official_tokenize(record["program"])
        for pred in _mutations(record["program"], rng):
            fast = equal_program(gold, pred)
            if fast.decided_by is Decider.RULE and fast.why is not Why.DIFFERENT:
                continue  # decided by the same string checks in both paths
            reference = equal_program(gold, pred, fast=False)
            assert fast.equal == reference.equal, (record["id"], pred, fast, reference)
            checked += 1
    assert checked > 150


@pytest.mark.parametrize("gold_text,pred_text", [
    ("add(1, 2), add(#0, 1)", "add(1, 1), add(#0, 2)"),          # like terms: 2*a0 + a1
    ("subtract(1, 2), divide(3, #0)", "subtract(2, 2), divide(3, #0)"),  # division by a zero sum
    ("exp(1.05, 3), subtract(#0, 1)", "exp(1.05, 3)"),
    ("greater(5, 3), add(1, 2)", "add(2, 1)"),
    ("multiply(2, 3), divide(#0, 4)", "divide(2, 4), multiply(#0, 3)"),
])
def test_fast_path_matches_sympy_on_edge_pairs(gold_text: str, pred_text: str) -> None:
    gold, pred = official_tokenize(gold_text), official_tokenize(pred_text)
    assert equal_program(gold, pred).equal == equal_program(gold, pred, fast=False).equal


def test_equal_canonical_keys_mean_equal_sympify_results() -> None:
    """Soundness of the shortcut: whenever two trees share a canonical key, sympy builds the same expression."""
    from sympy import sympify

    from progexec.score.equivalence import render
    from progexec.score.shortcuts import canonical_key

    rng = random.Random(11)
    ops = ["add", "subtract", "multiply", "divide"] * 4 + ["exp", "greater"]

    def tree(depth: int) -> object:
        if depth == 0 or rng.random() < 0.3:
            return f"a{rng.randint(0, 3)}"
        return (rng.choice(ops), tree(depth - 1), tree(depth - 1))

    def shuffle(node: object) -> object:
        if isinstance(node, str):
            return node
        op, left, right = node  # type: ignore[misc]
        left, right = shuffle(left), shuffle(right)
        if op in ("add", "multiply") and rng.random() < 0.5:
            left, right = right, left
        if op in ("add", "multiply") and not isinstance(right, str) and right[0] == op and rng.random() < 0.5:
            return (op, (op, left, right[1]), right[2])
        return (op, left, right)

    groups: dict[str, list[object]] = {}
    for _ in range(700):
        original = tree(4)
        for candidate in (original, shuffle(original), shuffle(original)):
            key = canonical_key(candidate)  # type: ignore[arg-type]
            if key is not None:
                groups.setdefault(repr(key), []).append(candidate)
    compared = 0
    for members in groups.values():
        built = {repr(sympify(render(member))) for member in members}  # type: ignore[arg-type]
        assert len(built) == 1, [render(m) for m in members]  # type: ignore[arg-type]
        compared += len(members) - 1
    assert compared > 300
