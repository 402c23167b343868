"""MathQA program text -> the shared AST, through the LALR grammar ``mathqa.lark``.

``parse_linear("add(n1,const_100)|divide(#0,n2)|")`` reads a ``linear_formula``;
``parse_annotated("divide(add(5, const_100), 2)")`` reads the nested
``annotated_formula`` and flattens it into steps (post-order, inner calls first,
each nested call replaced by a reference ``#k`` to its step), so both forms run on
the one interpreter. ``nK`` becomes :class:`Input`, ``#K`` :class:`Ref`, constants and
numbers :class:`Num` with their source text kept. Errors are ``ProgramSyntaxError``
with line, column and a caret, as for FinQA.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:  # lark is imported on first parse, not at start-up
    from lark import Lark
    from lark.exceptions import UnexpectedInput

from ..core.nodes import Arg, Input, Num, Program, Ref, Step
from ..core.errors import ProgramSyntaxError
from .parse import check_program_length, syntax_error_from

__all__ = ["parse_linear", "parse_annotated", "parse_mathqa", "ProgramSyntaxError"]


@dataclass(frozen=True, slots=True)
class _Call:
    """A nested call of an annotated formula, before flattening."""

    op: str
    args: tuple[Union["_Call", Arg], ...]


def _transformer() -> Any:
    """The Lark transformer that builds AST nodes while the LALR parser runs (no intermediate tree)."""
    from lark import Token, Transformer

    class _ToAst(Transformer[Token, object]):
        """Builds AST nodes while the LALR parser runs (no intermediate tree)."""

        def ref(self, items: list[Token]) -> Ref:
            return Ref(int(items[0][1:]), str(items[0]))

        def input(self, items: list[Token]) -> Input:
            return Input(int(items[0][1:]), str(items[0]))

        def const(self, items: list[Token]) -> Num:
            return Num(str(items[0]))

        number = const

        def args(self, items: list[Arg]) -> tuple[Arg, ...]:
            return tuple(items)

        nargs = args

        def step(self, items: list[object]) -> Step:
            op, args = items
            assert isinstance(args, tuple)
            return Step(str(op), args)

        def linear(self, items: list[Step]) -> Program:
            return Program(tuple(items))

        def call(self, items: list[object]) -> _Call:
            op, args = items
            assert isinstance(args, tuple)
            return _Call(str(op), args)

        def annotated(self, items: list[_Call]) -> Program:
            steps: list[Step] = []
            _flatten(items[0], steps)
            return Program(tuple(steps))

    return _ToAst()


def _flatten(call: _Call, steps: list[Step]) -> Ref:
    """Append ``call``'s inner calls, then ``call`` itself, to ``steps``; return a reference to it."""
    args: list[Arg] = []
    for arg in call.args:
        args.append(_flatten(arg, steps) if isinstance(arg, _Call) else arg)
    steps.append(Step(call.op, tuple(args)))
    index = len(steps) - 1
    return Ref(index, f"#{index}")


def _grammar_text() -> str:
    return resources.files("progexec.grammar").joinpath("mathqa.lark").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _parser() -> Lark:
    from lark import Lark

    return Lark(_grammar_text(), parser="lalr", start=["linear", "annotated"], transformer=_transformer(),
                maybe_placeholders=False)


def _parse(text: str, start: str) -> Program:
    check_program_length(text)
    if not text.strip():
        raise ProgramSyntaxError("the program is empty", text, 1, 1)
    from lark.exceptions import UnexpectedInput

    try:
        program = _parser().parse(text, start=start)
    except UnexpectedInput as error:
        raise _syntax_error(error, text) from None
    assert isinstance(program, Program)
    return program


def parse_linear(text: str) -> Program:
    """Parse a MathQA ``linear_formula`` (``op(a,b)|op(#0,c)|``); raise ProgramSyntaxError."""
    return _parse(text, "linear")


def parse_annotated(text: str) -> Program:
    """Parse a nested MathQA ``annotated_formula`` into flat steps; raise ProgramSyntaxError."""
    return _parse(text, "annotated")


def parse_mathqa(text: str) -> Program:
    """Either form: a text with ``|`` is a linear formula, any other text one (nested) call.

    A one-step linear formula without its trailing ``|`` reads the same either way.
    """
    return parse_linear(text) if "|" in text else parse_annotated(text)


_NAMES = {
    "LPAR": "'('", "RPAR": "')'", "COMMA": "','", "VBAR": "'|'", "OP": "an op name",
    "REF": "a reference #k", "INPUT": "an input nK", "CONST": "a constant", "NUMBER": "a number",
    "$END": "end of program",
}


def _syntax_error(error: UnexpectedInput, text: str) -> ProgramSyntaxError:
    return syntax_error_from(error, text, _NAMES)
