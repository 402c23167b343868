"""TAT-QA derivations (``(4.00 - 3.75)/3.75``) parsed by ``grammar/tatqa.lark`` and lowered to the
one interpreter's AST, so that Float64 and the exact oracle run them as they run FinQA programs.

Lowering: each ``+ - * /`` is one step (``add``/``subtract``/``multiply``/``divide``) whose arguments
are literals or references to earlier steps, in the order a left-to-right evaluation computes them;
``$`` and thousands separators are dropped from literals (``official_str_to_num`` drops the commas),
``5%`` stays a percent literal (0.05), a scale word multiplies (``60.3 million`` = 60.3 x 1000000),
a unary minus on a literal is folded into it and on anything else is ``subtract(0, x)``. A bracketed
lone unsigned number (``(71)``) is read in one of two ways chosen by the caller: ``accounting`` (-71,
as the official ``to_number`` reads ``(71)``) or ``grouping`` (71).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Union

from lark import Lark, Token, Transformer, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..grammar.nodes import Num, Program, Ref, Step
from ..grammar.parse import ProgramSyntaxError, ProgramTooLongError
from ..limits import current
from ..plural import plural

SCALE_WORDS = {"thousand": "1000", "million": "1000000", "billion": "1000000000"}
READINGS = ("accounting", "grouping")


@dataclass(frozen=True, slots=True)
class Literal:
    """A number as written: digits (commas kept), an optional ``%`` and scale word; ``negative`` after folding."""

    digits: str
    percent: bool = False
    scale: str | None = None
    negative: bool = False

    def text(self) -> str:
        return ("-" if self.negative else "") + self.digits + ("%" if self.percent else "")


@dataclass(frozen=True, slots=True)
class Negate:
    operand: "Node"


@dataclass(frozen=True, slots=True)
class Binary:
    op: str
    left: "Node"
    right: "Node"


@dataclass(frozen=True, slots=True)
class Paren:
    """A ``( ... )`` group (``[ ... ]`` groups are not kept: they are never accounting negatives)."""

    inner: "Node"


Node = Union[Literal, Negate, Binary, Paren]


class _ToNodes(Transformer[Token, Node]):
    def number(self, items: list[Token]) -> Literal:
        digits = str(items[0])
        percent = any(token.type == "PERCENT" for token in items[1:])
        scale = next((str(token).lower() for token in items[1:] if token.type == "SCALE"), None)
        return Literal(digits, percent, scale)

    def add(self, items: list[Node]) -> Node:
        return Binary("add", items[0], items[1])

    def subtract(self, items: list[Node]) -> Node:
        return Binary("subtract", items[0], items[1])

    def multiply(self, items: list[Node]) -> Node:
        return Binary("multiply", items[0], items[1])

    def divide(self, items: list[Node]) -> Node:
        return Binary("divide", items[0], items[1])

    def negate(self, items: list[Node]) -> Node:
        return Negate(items[0])

    def plus(self, items: list[Node]) -> Node:
        return items[0]

    dollar = bracket = plus

    def paren(self, items: list[Node]) -> Node:
        return Paren(items[0])


@lru_cache(maxsize=1)
def _parser() -> Lark:
    text = resources.files("progexec.grammar").joinpath("tatqa.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", maybe_placeholders=False)


def _ends_early(text: str) -> ProgramSyntaxError:
    lines = text.split("\n")
    return ProgramSyntaxError("the derivation ends too early", text, len(lines), len(lines[-1]) + 1)


def parse_derivation(text: str) -> Node:
    """The tree of a derivation; :class:`ProgramSyntaxError` (with line, column, caret) when it does not parse."""
    bound = current().max_program_chars
    if len(text) > bound:
        raise ProgramTooLongError(f"the derivation is {plural(len(text), 'character')}, over the limit of {bound} "
                                  "(max_program_chars)", text[:200], 1, 1)
    if not text.strip():
        raise ProgramSyntaxError("the derivation is empty", text, 1, 1)
    try:
        tree = _parser().parse(text)
    except UnexpectedCharacters as error:
        position = error.pos_in_stream if error.pos_in_stream is not None else 0
        raise ProgramSyntaxError(f"unexpected character {text[position:position + 1]!r}", text, error.line,
                                 error.column) from None
    except UnexpectedEOF:
        raise _ends_early(text) from None
    except UnexpectedToken as error:
        if error.token.type == "$END":
            raise _ends_early(text) from None
        raise ProgramSyntaxError(f"unexpected {str(error.token)!r}", text, max(error.line, 1),
                                 max(error.column, 1)) from None
    except UnexpectedInput as error:  # pragma: no cover - the three kinds above are all LALR raises
        raise ProgramSyntaxError("cannot parse the derivation", text, error.line, error.column) from None
    node = _ToNodes().transform(tree) if isinstance(tree, Tree) else _ToNodes().number([tree])
    assert isinstance(node, (Literal, Negate, Binary, Paren))
    return node


def accounting_literals(node: Node) -> int:
    """How many bracketed lone unsigned numbers (``(71)``, ``($71)``) the derivation holds."""
    if isinstance(node, Paren):
        return 1 if isinstance(node.inner, Literal) else accounting_literals(node.inner)
    if isinstance(node, Negate):
        return accounting_literals(node.operand)
    if isinstance(node, Binary):
        return accounting_literals(node.left) + accounting_literals(node.right)
    return 0


class _Lowering:
    def __init__(self, reading: str) -> None:
        self.accounting = reading == "accounting"
        self.steps: list[Step] = []

    def step(self, op: str, left: Num | Ref, right: Num | Ref) -> Ref:
        self.steps.append(Step(op, (left, right)))
        index = len(self.steps) - 1
        return Ref(index, f"#{index}")

    def literal(self, node: Literal) -> Num | Ref:
        number = Num(node.text())
        if node.scale is None:
            return number
        return self.step("multiply", number, Num(SCALE_WORDS[node.scale]))

    def lower(self, node: Node) -> Num | Ref:
        if isinstance(node, Literal):
            return self.literal(node)
        if isinstance(node, Paren):
            inner = node.inner
            if isinstance(inner, Literal) and self.accounting:
                return self.literal(Literal(inner.digits, inner.percent, inner.scale, not inner.negative))
            return self.lower(inner)
        if isinstance(node, Negate):
            operand = node.operand
            if isinstance(operand, Literal):
                return self.literal(Literal(operand.digits, operand.percent, operand.scale, not operand.negative))
            if isinstance(operand, Paren) and isinstance(operand.inner, Literal):
                inner = operand.inner
                flipped = not inner.negative if not self.accounting else inner.negative
                return self.literal(Literal(inner.digits, inner.percent, inner.scale, flipped))
            return self.step("subtract", Num("0"), self.lower(operand))
        left = self.lower(node.left)
        right = self.lower(node.right)
        return self.step(node.op, left, right)


def lower(node: Node, reading: str = "accounting") -> Program:
    """The derivation as a program of the one interpreter, in one reading of bracketed numbers."""
    if reading not in READINGS:
        raise ValueError(f"reading must be one of {READINGS}, not {reading!r}")
    lowering = _Lowering(reading)
    result = lowering.lower(node)
    if isinstance(result, Num):
        return Program((), bare=result)
    return Program(tuple(lowering.steps))


def parse_and_lower(text: str, reading: str = "accounting") -> Program:
    """``lower(parse_derivation(text), reading)``."""
    return lower(parse_derivation(text), reading)


__all__ = ["Literal", "Negate", "Binary", "Paren", "Node", "READINGS", "parse_derivation", "accounting_literals",
           "lower", "parse_and_lower"]
