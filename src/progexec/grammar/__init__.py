"""Parsing: the Lark grammars and the official token form, into the AST of :mod:`progexec.core.nodes`.

Layer (docs/architecture.md): directly above ``core``. May import ``core`` only.
"""

from ..core.nodes import Arg, Num, Program, Ref, Row, Step, TABLE_OPS
from ..core.errors import ProgramSyntaxError
from .parse import parse_program, parse_token_list
from .tokens import ALL_OPS, official_tokenize

__all__ = [
    "ALL_OPS", "Arg", "Num", "Program", "ProgramSyntaxError", "Ref", "Row", "Step", "TABLE_OPS",
    "official_tokenize", "parse_program", "parse_token_list",
]
