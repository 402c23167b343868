"""The dialect registry: one record per program dialect, so no code compares a dialect's name.

A :class:`Dialect` says everything that differs between the FinQA family's program languages: the
reader of its program text (grammar and official tokenization), its number reading (``str_to_num``),
its constant spelling, whether a bare number is a program, its op table (each op's semantics under
every arithmetic and under the official model), its official evaluator, its default scorer and
reward policy. Code asks ``get_dialect(item.dialect).bare_numbers``, never ``dialect == "convfinqa"``.

Built-in entries are imported on first use (``import progexec`` stays cheap); a new dialect is one
module with one ``Dialect`` and one line in :data:`BUILTIN`.
"""

from __future__ import annotations

import difflib
import importlib
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import OptionError

if TYPE_CHECKING:
    from ..grammar.nodes import Program
    from ..interp.arithmetic import Float64, LiteralRule
    from ..interp.ops import OpTable
    from ..interp.official import OfficialVerdict
    from ..interp.run import Execution
    from ..interp.table import Table
    from ..items import Item


class UnknownDialectError(OptionError):
    """A dialect name no registry entry has."""


class DatasetScore(Protocol):
    """What a dialect's own scorer returns for a run: per-question records, the run's JSON and text."""

    @property
    def n(self) -> int: ...
    @property
    def ok(self) -> bool: ...
    @property
    def questions(self) -> Sequence[Any]: ...
    def record(self) -> dict[str, Any]: ...
    def table(self) -> list[str]: ...
    def headline(self) -> str: ...


@dataclass(frozen=True, eq=False)
class Dialect:
    """Everything that makes one program dialect what it is, as data.

    ``tokenize`` is the official tokenization of program text (what the official evaluator reads);
    ``parse`` reads program text into the AST the one interpreter runs; ``official`` models the official
    ``eval_program`` on a token list. ``run`` is set for dialects whose items are not programs over a
    table (MathQA problems): the runner hands such items to it. ``option_letters``: answers are option
    letters (MathQA). ``scorer`` and ``reward_policy`` name the defaults of ``score`` and ``reward``; ``score``
    is the dialect's own scorer over raw gold and prediction records, for dialects whose official scorer is
    not FinQA's. ``compares_returned``: the official scorer compares the value the evaluator returned even
    when it flagged the program invalid (records then carry ``official_returned``).
    ``program_needs_valid_execution``: program accuracy counts only items whose execution is valid (ConvFinQA).
    """

    name: str
    title: str
    ops: OpTable
    literals: LiteralRule
    tokenize: Callable[[str], list[str]]
    parse: Callable[[str], Program]
    official: Callable[[Sequence[str], Table | None], OfficialVerdict]
    bare_numbers: bool = False
    round_digits: int | None = 5
    run: Callable[[Item, Any], Execution] | None = None
    scorer: str = "official"
    reward_policy: str = "official"
    option_letters: bool = False
    score: Callable[[Sequence[Any], Sequence[Any]], DatasetScore] | None = None
    compares_returned: bool = False
    program_needs_valid_execution: bool = False
    program_example: str = ""
    summary: str = ""
    float64: Float64 = field(init=False, repr=False)

    def __post_init__(self) -> None:
        from ..interp.arithmetic import Float64

        object.__setattr__(self, "float64", Float64(self.literals))

    def __repr__(self) -> str:
        return f"Dialect({self.name!r})"


BUILTIN: dict[str, str] = {
    "finqa": "progexec.dialects.finqa:FINQA",
    "convfinqa": "progexec.dialects.finqa:CONVFINQA",
    "mathqa": "progexec.dialects.mathqa:MATHQA",
    "multihiertt": "progexec.dialects.multihiertt:MULTIHIERTT",
    "tatqa": "progexec.dialects.tatqa:TATQA",
}
"""Dialect name -> ``module:attribute`` of its entry, in the order commands list them."""

_LOADED: dict[str, Dialect] = {}
_LOCK = threading.Lock()


def register(dialect: Dialect) -> Dialect:
    """Add (or replace) a dialect entry; returns it. Third-party dialects use this."""
    with _LOCK:
        _LOADED[dialect.name] = dialect
        BUILTIN.setdefault(dialect.name, "")
    return dialect


def dialect_names() -> tuple[str, ...]:
    """Every registered dialect name, built-in ones first."""
    return tuple(BUILTIN)


def get_dialect(name: str | Dialect) -> Dialect:
    """The entry for ``name`` (a Dialect passes through); raises UnknownDialectError naming the known ones."""
    if isinstance(name, Dialect):
        return name
    found = _LOADED.get(name)
    if found is not None:
        return found
    where = BUILTIN.get(name) if isinstance(name, str) else None
    if not where:
        close = difflib.get_close_matches(str(name), list(BUILTIN), n=1) if isinstance(name, str) else []
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise UnknownDialectError(f"unknown dialect {name!r}{hint}; one of {', '.join(BUILTIN)}")
    module, attribute = where.split(":")
    entry = getattr(importlib.import_module(module), attribute)
    assert isinstance(entry, Dialect)
    with _LOCK:
        _LOADED[name] = entry
    return entry


__all__ = ["Dialect", "DatasetScore", "UnknownDialectError", "BUILTIN", "register", "dialect_names", "get_dialect"]
