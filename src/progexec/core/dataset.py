"""The :class:`Dataset` record: everything that makes one dataset what it is, as data, and its protocols.

A record says everything that differs between datasets' program languages: the reader of its program text
(grammar and official tokenization), its number reading (``str_to_num``), its constant spelling, whether a
bare number is a program, its op table, its official evaluator, its default scorer and reward policy. Code
asks ``item.dialect.bare_numbers``, never compares a dataset's name. The records themselves live in
:mod:`progexec.datasets`; :mod:`progexec.core.registry` finds them by name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .arithmetic import Float64, LiteralRule

if TYPE_CHECKING:
    from .nodes import Program
    from .ops import OpTable
    from .table import Table
    from .verdict import OfficialVerdict


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
class Dataset:
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

    The hooks that take or give items (``run``: an Item and the semantics to an Execution; ``reader`` and
    ``corpus``: to Items) are typed ``Any`` there, because an Item carries its record: the record's module
    cannot import the Item's.
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
    run: Callable[[Any, Any], Any] | None = None
    scorer: str = "official"
    reward_policy: str = "official"
    option_letters: bool = False
    score: Callable[[Sequence[Any], Sequence[Any]], DatasetScore] | None = None
    compares_returned: bool = False
    program_needs_valid_execution: bool = False
    program_example: str = ""
    summary: str = ""
    reader: Callable[[Any, str], Iterator[Any]] | None = None
    """Its dataset files' reader: one record (a :class:`progexec.jsonrecords.Record`) and the file's stem to Items."""
    corpus: Callable[[str], Iterator[Any]] | None = None
    """Its embedded corpora: a corpus name (``finqa:test``) to Items."""
    gold_records: Callable[[str], Iterable[Any]] | None = None
    """Its embedded corpora (a corpus name) as the raw gold records its own ``score`` reads, for datasets whose
    corpus is a gold set of ``progexec score`` (``mathqa:test``)."""
    corpora: tuple[str, ...] = ()
    """The embedded corpus names an entry-point dataset adds (built-in ones are listed in ``progexec.datasets``)."""
    reward_run: Callable[[str, Table | None, str, str | None, bool], Any] | None = None
    """How the reward runs a completion's program text of this dataset (``(text, table, name, problem, strict) ->
    ProgramRun``); None: as a FinQA-family program over the table."""
    reward_equal: Callable[[Any, Any, Any], bool] | None = None
    """The official comparison of a program's value with the gold, where it is not ``==`` (MathQA's options)."""
    reward_rule: str = ""
    sandboxed: bool = False
    """Its reward rule runs a completion's code in the sandbox (``serve`` never works such requests on its loop)."""
    """``module:function`` of the dataset's own reward rule, for answers that are not programs."""
    shape: Callable[[dict[str, Any]], bool] | None = None
    """Whether a JSON object is one of this (entry-point) dataset's file records; built-in shapes are listed in
    ``progexec.datasets.FORMATS``."""
    shape_words: str = ""
    """Its file records in words, for messages (``"FinQA dataset items (with qa)"``)."""
    corpus_file: str = ""
    """The package data file of its embedded corpora (``{split}`` filled in), for run metadata."""
    rows: str = ""
    """``module:attribute`` of an (entry-point) dataset's rows builder (a ``progexec.rows.RowsSpec``)."""
    read_options: Callable[[str], Mapping[str, Any]] | None = None
    """Reads a gold record's answer options (letter -> option with a ``value``), for datasets answered by letter."""
    float64: Float64 = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "float64", Float64(self.literals))

    def __repr__(self) -> str:
        return f"Dataset({self.name!r})"


Dialect = Dataset
"""The record's former name."""

__all__ = ["Dataset", "Dialect", "DatasetScore"]
