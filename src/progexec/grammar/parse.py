"""Program text -> AST. The Lark grammar (``finqa.lark``) defines the language;
a verified fast path handles the canonical dataset form without building a parser tree.

Fast path: the official tokenizer's split, accepted only when every argument is
matched by the grammar's own argument terminals (read from the grammar, not
copied), so it can only accept what the grammar accepts; anything else goes
through the LALR parser, which reports errors with line, column and a caret.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any
from ..core.plural import plural

if TYPE_CHECKING:  # lark is imported on first use: the canonical fast path never needs it
    from lark import Lark
    from lark.exceptions import UnexpectedInput

from ..core.bytecache import memo
from ..core.errors import ProgramSyntaxError
from ..core.limits import DEFAULT_LIMITS, current
from ..core.nodes import Num, Program, Step
from .tokens import ALL_OPS, is_official_op, official_tokenize, parse_tokens, step_from_parts

MAX_PROGRAM_CHARS = DEFAULT_LIMITS.max_program_chars
"""The default longest program text; the bound in force is ``limits.current().max_program_chars``."""


def _transformer() -> Any:
    """The Lark transformer that builds the AST during LALR parsing (no intermediate tree)."""
    from lark import Token, Transformer

    class _ToAst(Transformer[Token, object]):
        def ref(self, items: list[Token]) -> str:
            return str(items[0]).strip()

        const = number = text = ref

        def step(self, items: list[object]) -> Step:
            op, arg1, arg2 = (str(item).strip() for item in items)
            return step_from_parts(op, arg1, arg2)

        def steps(self, items: list[Step]) -> Program:
            return Program(tuple(items))

        def bare(self, items: list[str]) -> Program:
            return Program((), bare=Num(items[0]))

        def start(self, items: list[Program]) -> Program:
            return items[0]

    return _ToAst()


def _grammar_text() -> str:
    return resources.files("progexec.grammar").joinpath("finqa.lark").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _parser() -> Lark:
    from lark import Lark

    return Lark(_grammar_text(), parser="lalr", transformer=_transformer(), maybe_placeholders=False)


@lru_cache(maxsize=1)
def _arg_regex() -> str:
    """The grammar's argument terminals (REF | CONST | NUMBER | TEXT) as one regex, read from the grammar."""
    terminals = {term.name: term.pattern.to_regexp() for term in _parser().terminals}
    return "|".join(f"(?:{terminals[name]})" for name in ("REF", "CONST", "NUMBER", "TEXT"))


@lru_cache(maxsize=1)
def _arg_pattern() -> re.Pattern[str]:
    return re.compile(rf"(?:{_arg_regex()})\Z")


@lru_cache(maxsize=1)
def _args_pattern() -> re.Pattern[str]:
    """One or more arguments joined by ``)``, each matched whole by the grammar's argument terminals. No terminal
    takes a ``)``, and each one's closing lookahead (space, then a comma, a ``)`` or the end) holds before a ``)``
    exactly as at the end of the text, so on arguments without ``(`` or ``)`` joined by ``)`` it matches exactly
    when :func:`_arg_pattern` matches each of them: a whole program's arguments in one call."""
    return re.compile(rf"(?:{_arg_regex()})(?:\)(?:{_arg_regex()}))*\Z")


@memo("max_memo_bytes")
def _canonical_arg(text: str) -> bool:
    """True when the grammar reads ``text`` as one argument and the official tokenizer keeps it whole."""
    return "(" not in text and ")" not in text and bool(_arg_pattern().match(text))


_OP_NAMES = frozenset(ALL_OPS)


def canonical_steps(text: str) -> list[tuple[str, str, str]] | None:
    """``(op, arg1, arg2)`` of every step of text in the canonical dataset form (``op(a, b)`` joined by
    ``", "``), checked against the grammar's own terminals; None when the full LALR parser must decide
    (a bare literal included).

    Accepts only text that the grammar accepts *and* that the official tokenizer splits into the same
    steps (no parentheses or ``|`` inside arguments, one space after each comma). The fast parser and
    the compiler's one pass from text (:mod:`progexec.interp.compiled`) both read programs through it.
    """
    if "|" in text or "(" not in text or not text.endswith(")") or text != text.strip():
        return None
    chunks = text[:-1].split("), ")
    if text.count("(") != len(chunks) or text.count(")") != len(chunks):
        return None  # a parenthesis inside an argument (each step has one of each, the last ')' included)
    steps: list[tuple[str, str, str]] = []
    rests: list[str] = []
    for chunk in chunks:
        op, paren, rest = chunk.partition("(")
        if not paren or op not in _OP_NAMES:
            return None
        args = rest.split(", ")
        if len(args) != 2:
            return None
        steps.append((op, args[0], args[1]))
        rests.append(rest)
    # every argument at once, joined by ')': each step's arguments "a, b" hold exactly one ", "
    if not _args_pattern().match(")".join(rests).replace(", ", ")")):
        return None  # an argument the grammar does not read whole
    return steps


def canonical_literal(text: str) -> bool:
    """True when text is one bare literal the fast parser takes (the grammar reads it as one argument, the
    official tokenizer keeps it whole, no surrounding spaces): its Program is ``Program((), bare=Num(text))``."""
    return ("|" not in text and "(" not in text and ")" not in text and text == text.strip()
            and bool(_arg_pattern().match(text)))


def _fast_parse(text: str) -> Program | None:
    """The canonical dataset form as a Program (:func:`canonical_steps`, or one bare literal the grammar
    reads as one argument); None when the full LALR parser must decide."""
    if "|" in text or text != text.strip():
        return None
    if "(" not in text:
        return Program((), bare=Num(text)) if _canonical_arg(text) else None
    return canonical_program(text)


def canonical_program(text: str) -> Program | None:
    """The Program of text in the canonical form (:func:`canonical_steps`, or one bare literal:
    :func:`canonical_literal`); None for any other text. For such text it is what :func:`parse_program` returns."""
    if "(" not in text:
        return Program((), bare=Num(text)) if canonical_literal(text) else None
    parts = canonical_steps(text)
    if parts is None:
        return None
    return Program(tuple(step_from_parts(op, first, second) for op, first, second in parts))


def check_program_length(text: str) -> None:
    """Refuse text over ``max_program_chars`` before any parsing (bounded work, both grammars)."""
    bound = current().max_program_chars
    if len(text) > bound:
        raise ProgramSyntaxError(
            f"program is {plural(len(text), 'character')} long, over the limit of {bound} "
            f"(max_program_chars)", text[:200], 1, 1, bound="max_program_chars")


def parse_program(text: str) -> Program:
    """Parse program text into a Program; raise ProgramSyntaxError when it is malformed.

    A program the grammar accepts but the official tokenizer would reject comes
    back with ``official_invalid=True`` and a note saying why.
    """
    check_program_length(text)
    fast = _fast_parse(text)
    if fast is not None:
        return fast
    from lark.exceptions import UnexpectedInput

    try:
        program = _parser().parse(text)
    except UnexpectedInput as error:
        raise _syntax_error(error, text) from None
    assert isinstance(program, Program)
    try:
        official = parse_tokens(official_tokenize(text))
    except ProgramSyntaxError as error:
        return Program(program.steps, program.bare, True, f"official tokenizer: {error.message}")
    if official.bare is not None and program.bare is not None and official.bare.text.strip() == program.bare.text:
        return official  # the bare literal as the official evaluator reads it, surrounding spaces included
    if official.official_invalid:
        return Program(program.steps, program.bare, True, official.official_note)
    if official != program:
        return Program(program.steps, program.bare, True,
                       "the official tokenizer reads this text differently")
    return program


def parse_token_list(tokens: Sequence[str]) -> Program:
    """Parse the official token-list form; raise ProgramSyntaxError naming the bad token."""
    if not all(isinstance(token, str) for token in tokens):
        raise ProgramSyntaxError("every token must be a string", repr(list(tokens)), 1, 1)
    return parse_tokens(list(tokens))  # its ProgramSyntaxError points into the tokens joined by spaces


def _end_position(text: str) -> tuple[int, int]:
    lines = text.splitlines() or [""]
    return len(lines), len(lines[-1]) + 1


def syntax_error_from(error: UnexpectedInput, text: str, names: Mapping[str, str],
                      op_note: Callable[[str], str] | None = None) -> ProgramSyntaxError:
    """A Lark error as a ProgramSyntaxError: what was found, what was expected (by ``names``), where.

    ``op_note`` may add a remark about an op token (FinQA names ops it does not know).
    """
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    line = getattr(error, "line", 1) or 1
    column = getattr(error, "column", 1) or 1
    if isinstance(error, UnexpectedCharacters):
        position = error.pos_in_stream
        message = f"unexpected character {text[position]!r}" if position is not None and position < len(text) \
            else "unexpected character"
    elif isinstance(error, UnexpectedEOF):
        message = "unexpected end of program"
        line, column = _end_position(text)
    elif isinstance(error, UnexpectedToken):
        token = error.token
        expected = ", ".join(sorted(names.get(name, name) for name in error.expected))
        if token.type == "$END":
            message = f"unexpected end of program, expected {expected}"
            line, column = _end_position(text)
        else:
            message = f"unexpected {str(token)!r}, expected {expected}"
        if token.type == "OP" and op_note is not None:
            message += op_note(str(token))
    else:  # lark has no other UnexpectedInput kinds
        message = "malformed program"
    return ProgramSyntaxError(message, text, line, column)


def _finqa_op_note(op: str) -> str:
    return "" if is_official_op(op) else f" (note: {op!r} is not a FinQA op)"


def _syntax_error(error: UnexpectedInput, text: str) -> ProgramSyntaxError:
    return syntax_error_from(error, text, _TERMINAL_NAMES, _finqa_op_note)


_TERMINAL_NAMES = {
    "LPAR": "'('", "RPAR": "')'", "COMMA": "','", "OP": "an op name", "REF": "a reference #k",
    "CONST": "a constant", "NUMBER": "a number", "TEXT": "an argument", "$END": "end of program",
}

