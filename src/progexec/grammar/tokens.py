"""The official token form: text -> tokens exactly as FinQA's ``program_tokenization``,
and tokens -> AST by the official structure rules (the fast path of the parser).

The official evaluator joins tokens with ``|`` and splits on ``)``; this module
reproduces that reading so a token list means here what it means there.
"""

from __future__ import annotations

from collections.abc import Sequence
import re

from ..core.bytecache import memo
from ..core.ops import FINQA_OPS
from ..core.nodes import ARITHMETIC_OPS, TABLE_OPS, Arg, Num, Program, Ref, Row, Step
from ..core.errors import ProgramSyntaxError

ALL_OPS: tuple[str, ...] = tuple(FINQA_OPS)
"""The ten FinQA op names in the official order (from the one op table)."""
_OP_SET = frozenset(ALL_OPS)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""What the grammar's OP terminal accepts as an op name."""


def official_steps(tokens: Sequence[str]) -> list[str]:
    """The official step strings: drop the last token, join with ``|``, split on ``)``, keep all but the last
    piece (how ``eval_program`` and ``equal_program`` both cut a token list)."""
    return "|".join(tokens[:-1]).split(")")[:-1]


def official_step_parts(step: str) -> tuple[str, str, str, str]:
    """``(stripped step, op, arg1, arg2)`` read the official way; raises (IndexError) on malformed steps,
    as the official string handling does."""
    step = step.strip()
    pieces = step.split("(")
    op = pieces[0].strip("|").strip()
    args = pieces[1].strip("|").strip()
    fields = args.split("|")
    return step, op, fields[0].strip(), fields[1].strip()


def _refuse(message: str, tokens: Sequence[str], position: int) -> ProgramSyntaxError:
    """The error for a token list the structure check rejects, pointing at the token at ``position``
    in the tokens joined by spaces."""
    column = sum(len(token) + 1 for token in tokens[:position]) + 1
    return ProgramSyntaxError(message, " ".join(tokens), 1, column)


def official_tokenize(text: str) -> list[str]:
    """Split program text into the official token list (split on ``", "`` only, cut at parens, add ``EOF``)."""
    return tokens_of_pieces(text.split(", "))


def tokens_of_pieces(pieces: Sequence[str]) -> list[str]:
    """The official token list of program text already split into pieces: each piece cut at its parentheses
    (``add(`` and ``)`` are tokens), ``EOF`` added. FinQA splits on ``", "``; MultiHiertt on ``","`` and strips."""
    tokens: list[str] = []
    for piece in pieces:
        current = ""
        for char in piece:
            if char == ")" and current:
                tokens.append(current)
                current = ""
            current += char
            if char in "()":
                tokens.append(current)
                current = ""
        if current:
            tokens.append(current)
    tokens.append("EOF")
    return tokens


def classify_arg(text: str, op: str) -> Arg:
    """Turn one stripped argument string into an AST node, by the official rules.

    ``"#" in text`` makes a reference (the official ``int(text.replace("#", ""))``);
    the first argument of a table op is a row name; anything else is a literal.
    """
    if "#" in text:
        digits = text.replace("#", "")
        if text.startswith("#") and digits.isdigit() and digits.isascii():
            return Ref(int(digits), text)
        return Num(text)  # the official int() fails or reads it oddly: refused as a bad literal
    if op in TABLE_OPS:
        return Row(text)  # arg1 names the row; arg2 is the ignored dummy (``none``)
    return Num(text)


@memo("max_memo_bytes")
def step_from_parts(op: str, arg1: str, arg2: str) -> Step:
    """Build a step from its op and two stripped argument strings (cached: steps are immutable)."""
    return Step(op, (classify_arg(arg1, op), classify_arg(arg2, op)))


def parse_tokens(tokens: Sequence[str]) -> Program:
    """Parse the official token form (``[..., "EOF"]``) into a Program.

    Strict: each step must be exactly ``op(``, arg, arg, ``)`` and the list must end
    with ``EOF``; raises ProgramSyntaxError otherwise. An op that is an identifier but not a
    FinQA op (``foo(``) is kept, with ``official_invalid`` set, so that the interpreter
    refuses it as UNKNOWN_OP exactly as it does for the text form.
    """
    if not tokens or tokens[-1] != "EOF":
        raise _refuse("the token list must end with 'EOF'", tokens, len(tokens))
    body = tokens[:-1]
    if len(body) == 1:
        only = body[0]
        if "(" in only or ")" in only:
            raise _refuse("a one-token program must be a bare literal", tokens, 0)
        return Program((), bare=Num(only))  # unstripped: the official reads " const_m1" as it stands
    if not body:
        raise _refuse("the program has no steps", tokens, 0)
    if len(body) % 4:
        raise _refuse("each step must be 'op(', arg, arg, ')'", tokens, len(body))
    steps: list[Step] = []
    unknown_op: str | None = None
    for start in range(0, len(body), 4):
        head, arg1, arg2, close = body[start:start + 4]
        if not head.endswith("(") or head.count("(") != 1 or ")" in head:
            raise _refuse(f"expected 'op(' but found {head!r}", tokens, start)
        op = head[:-1]  # no strip: the official check reads token.strip("("), so " add(" is not an op
        if op not in _OP_SET:
            if not _IDENTIFIER.fullmatch(op):
                raise _refuse(f"expected 'op(' but found {head!r}", tokens, start)
            unknown_op = unknown_op or op  # an identifier: the interpreter refuses it as UNKNOWN_OP
        if close != ")":
            raise _refuse(f"expected ')' but found {close!r}", tokens, start + 3)
        for offset, arg in ((1, arg1), (2, arg2)):
            if any(c in arg for c in "()|"):
                raise _refuse(f"argument {arg!r} contains '(', ')' or '|'", tokens, start + offset)
            if not arg.strip():
                raise _refuse("empty argument", tokens, start + offset)
        steps.append(step_from_parts(op, arg1.strip(), arg2.strip()))
    if unknown_op is not None:
        return Program(tuple(steps), None, True, f"official structure check: {unknown_op!r} is not a FinQA op")
    return Program(tuple(steps))


def is_official_op(op: str) -> bool:
    """True for the ten FinQA op names."""
    return op in _OP_SET


__all__ = [
    "official_steps", "official_step_parts", "ALL_OPS", "ARITHMETIC_OPS", "official_tokenize", "parse_tokens",
    "classify_arg", "step_from_parts", "is_official_op",
]
