"""An Execution whose program is built on first read (``Execution.lazy``, the compiled fast path) is the same value as
one built with the program: equal, hashed, printed and pickled alike, and as immutable as the frozen dataclass it was."""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError

import pytest

from progexec.core.execution import Execution, MatchReason
from progexec.core.item import Item
from progexec.datasets import get_dataset
from progexec.grammar.parse import parse_program
from progexec.interp.compiled import CACHE, fast_outcome, fast_verdict
from progexec.runner import execute

TEXT = "subtract(5829, 5735), divide(#0, 5735)"


def pair() -> tuple[Execution, Execution]:
    """The runner's (lazy) Execution of TEXT, and one built eagerly from the parsed program."""
    CACHE.clear()
    item = Item("i", TEXT, None, 0.01639, True, dialect=get_dataset("finqa"))
    lazy = execute(item)
    assert lazy._source is not None  # the fast path made it lazily: not a vacuous comparison
    found = fast_outcome(TEXT, None, item.dialect)
    assert found is not None
    verdict = fast_verdict(*found)
    assert verdict is not None
    eager = Execution(parse_program(TEXT), found[1], verdict, None, item, True, MatchReason.MATCH)
    return lazy, eager


def test_a_lazy_execution_equals_the_eager_one() -> None:
    lazy, eager = pair()
    assert lazy.program == parse_program(TEXT)
    assert lazy == eager and hash(lazy) == hash(eager) and repr(lazy) == repr(eager)
    assert repr(lazy).startswith("Execution(program=Program(steps=(Step(op='subtract'")


def test_a_lazy_execution_pickles_and_copies_with_its_program() -> None:
    lazy, eager = pair()
    for made in (pickle.loads(pickle.dumps(lazy)), copy.copy(lazy), copy.deepcopy(lazy)):
        assert made == eager and made.program == eager.program


def test_an_execution_is_immutable() -> None:
    lazy, eager = pair()
    for execution in (lazy, eager):
        with pytest.raises(FrozenInstanceError):
            execution.match = False  # type: ignore[misc]
        with pytest.raises(FrozenInstanceError):
            del execution.outcome  # type: ignore[misc]
    assert eager != object() and lazy != (lazy.program, lazy.outcome)
