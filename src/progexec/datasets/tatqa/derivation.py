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

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ...core.nodes import Num, Program, Ref, Step
from ...core.errors import ProgramSyntaxError
from ...core.limits import current
from ...core.plural import plural
from ...core.ops import FINQA_OPS

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


_OP_OF = {spec.symbol: name for name, spec in FINQA_OPS.items() if spec.symbol}
"""Operator -> the op of the table that computes it (``+`` -> add): a derivation's arithmetic is FinQA's."""
_BINARY = frozenset(_OP_OF.values())
"""The grammar's binary rules: named as the ops that compute them (tatqa.lark's ``add``, ``subtract``, ...)."""
_PASS_THROUGH = frozenset({"plus", "dollar", "bracket"})


def _number(items: list[Token]) -> Literal:
    digits = str(items[0])
    percent = any(token.type == "PERCENT" for token in items[1:])
    scale = next((str(token).lower() for token in items[1:] if token.type == "SCALE"), None)
    return Literal(digits, percent, scale)


def _to_nodes(tree: Tree[Token], text: str) -> Node:
    """The parse tree as Nodes, built bottom-up with an explicit stack: a flat sum of 1,000 terms is a tree
    1,000 deep, which no recursion limit may decide. Its operations and groups (``+ - * /``, signs, brackets)
    are counted against ``max_steps`` (:class:`~progexec.limits.Limits`): more is :class:`ProgramSyntaxError` with ``bound``
    (``limit_exceeded``)."""
    bound = current().max_steps
    operations = 0
    built: list[Node] = []
    pending: list[tuple[Tree[Token], bool]] = [(tree, False)]
    while pending:
        node, ready = pending.pop()
        if node.data == "number":
            built.append(_number([child for child in node.children if isinstance(child, Token)]))
            continue
        children = [child for child in node.children if isinstance(child, Tree)]
        if not ready:
            pending.append((node, True))
            pending.extend((child, False) for child in reversed(children))
            continue
        arguments = built[len(built) - len(children):]
        del built[len(built) - len(children):]
        operations += 1
        if operations > bound:
            raise ProgramSyntaxError(f"the derivation has more than {bound} operations and groups, over the limit "
                                      f"of {bound} (max_steps)", text[:200], 1, 1, bound="max_steps")
        if node.data in _BINARY:
            built.append(Binary(str(node.data), arguments[0], arguments[1]))
        elif node.data == "negate":
            built.append(Negate(arguments[0]))
        elif node.data == "paren":
            built.append(Paren(arguments[0]))
        else:
            assert node.data in _PASS_THROUGH, node.data
            built.append(arguments[0])
    return built[0]


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
        raise ProgramSyntaxError(f"the derivation is {plural(len(text), 'character')}, over the limit of {bound} "
                                  "(max_program_chars)", text[:200], 1, 1, bound="max_program_chars")
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
    return _to_nodes(tree, text) if isinstance(tree, Tree) else _number([tree])


def accounting_literals(node: Node) -> int:
    """How many bracketed lone unsigned numbers (``(71)``, ``($71)``) the derivation holds. Iterative."""
    count = 0
    pending = [node]
    while pending:
        current_node = pending.pop()
        if isinstance(current_node, Paren):
            if isinstance(current_node.inner, Literal):
                count += 1
            else:
                pending.append(current_node.inner)
        elif isinstance(current_node, Negate):
            pending.append(current_node.operand)
        elif isinstance(current_node, Binary):
            pending.extend((current_node.right, current_node.left))
    return count


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
        return self.step(_OP_OF["*"], number, Num(SCALE_WORDS[node.scale]))

    def folded(self, node: Node) -> Num | Ref | None:
        """A literal, or a sign folded into one (``-5``, an accounting ``(71)``); None for anything else."""
        if isinstance(node, Literal):
            return self.literal(node)
        if isinstance(node, Paren) and isinstance(node.inner, Literal) and self.accounting:
            inner = node.inner
            return self.literal(Literal(inner.digits, inner.percent, inner.scale, not inner.negative))
        if isinstance(node, Negate):
            operand = node.operand
            if isinstance(operand, Literal):
                return self.literal(Literal(operand.digits, operand.percent, operand.scale, not operand.negative))
            if isinstance(operand, Paren) and isinstance(operand.inner, Literal):
                inner = operand.inner
                flipped = not inner.negative if not self.accounting else inner.negative
                return self.literal(Literal(inner.digits, inner.percent, inner.scale, flipped))
        return None

    def lower(self, root: Node) -> Num | Ref:
        """The steps of ``root`` in left-to-right evaluation order, with an explicit stack (any depth)."""
        results: list[Num | Ref] = []
        pending: list[tuple[Node, bool]] = [(root, False)]
        while pending:
            node, ready = pending.pop()
            value = None if ready else self.folded(node)
            if value is not None:
                results.append(value)
            elif isinstance(node, Paren):
                pending.append((node.inner, False))
            elif isinstance(node, Negate):
                if ready:
                    results.append(self.step(_OP_OF["-"], Num("0"), results.pop()))
                else:
                    pending.extend(((node, True), (node.operand, False)))
            elif isinstance(node, Binary):
                if ready:
                    right = results.pop()
                    results.append(self.step(node.op, results.pop(), right))
                else:
                    pending.extend(((node, True), (node.right, False), (node.left, False)))
        return results[0]


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
