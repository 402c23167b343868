"""Parsing: the Lark grammar, the AST and the official token form."""

from ..core.nodes import Arg, Num, Program, Ref, Row, Step, TABLE_OPS
from ..core.syntax import ProgramSyntaxError
from .parse import parse_program, parse_token_list
from .tokens import ALL_OPS, official_tokenize

__all__ = [
    "ALL_OPS", "Arg", "Num", "Program", "ProgramSyntaxError", "Ref", "Row", "Step", "TABLE_OPS",
    "official_tokenize", "parse_program", "parse_token_list",
]
