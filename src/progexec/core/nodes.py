"""The typed AST of a FinQA-family program: frozen, slotted dataclasses.

Literals keep their source text so that every arithmetic (float64, exact decimal,
exact float, multiprecision) reads the number itself, the way the official
evaluator does with ``float(text)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .ops import FINQA_ARITHMETIC_OPS, FINQA_TABLE_OPS

TABLE_OPS: frozenset[str] = FINQA_TABLE_OPS
ARITHMETIC_OPS: frozenset[str] = FINQA_ARITHMETIC_OPS


@dataclass(frozen=True, slots=True)
class Num:
    """A literal argument: a number (``34.8``, ``1,000``, ``5%``) or a constant (``const_100``)."""

    text: str

    @property
    def is_const(self) -> bool:
        return "const" in self.text

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Ref:
    """A reference ``#k`` to the result of an earlier step."""

    index: int
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Input:
    """MathQA's ``nK``: the K-th number of the problem text, bound at evaluation time."""

    index: int
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Row:
    """A table row name (first argument of a ``table_*`` op) or the dummy ``none``."""

    name: str

    def __str__(self) -> str:
        return self.name


Arg = Union[Num, Ref, Row, Input]


@dataclass(frozen=True, slots=True)
class Step:
    """One ``op(arg, ...)``; the op is kept as text so unknown ops reach the interpreter.

    FinQA steps always have two arguments; MathQA steps have one to three.
    """

    op: str
    args: tuple[Arg, ...]

    @property
    def arg1(self) -> Arg:
        return self.args[0]

    @property
    def arg2(self) -> Arg:
        return self.args[1]

    @property
    def is_table(self) -> bool:
        return self.op in TABLE_OPS

    def __str__(self) -> str:
        return f"{self.op}({', '.join(str(arg) for arg in self.args)})"


@dataclass(frozen=True, slots=True)
class Program:
    """A parsed program: steps, or one bare literal (ConvFinQA's ``206588``).

    ``official_invalid`` is set when the text parsed here but the official
    tokenizer/structure check would reject it (e.g. ``subtract(5829,5735)``);
    ``official_note`` says why.
    """

    steps: tuple[Step, ...]
    bare: Num | None = None
    official_invalid: bool = False
    official_note: str = ""

    def to_text(self) -> str:
        """The canonical dataset text form (steps joined by ``", "``)."""
        if self.bare is not None:
            return self.bare.text
        return ", ".join(str(step) for step in self.steps)

    def to_tokens(self) -> list[str]:
        """The official token-list form, ``EOF`` included."""
        if self.bare is not None:
            return [self.bare.text, "EOF"]
        tokens: list[str] = []
        for step in self.steps:
            tokens += [step.op + "(", *(str(arg) for arg in step.args), ")"]
        tokens.append("EOF")
        return tokens

    def __str__(self) -> str:
        return self.to_text()
