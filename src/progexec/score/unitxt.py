"""IBM unitxt's ``FinQAEval`` under its two generations of the ``cards.fin_qa`` card.

unitxt's metric (``src/unitxt/metrics.py``, unchanged since IBM/unitxt@279412f6, 2024-07-09)
loads czyssrs/FinQA@dfc5b72 ``code/evaluate/evaluate.py`` and scores each prediction against
the fields its card puts in ``task_data`` and ``references``:

* ``unitxt`` — the card since IBM/unitxt@68ee3693 (2025-08-04, current at @20b951e5):
  ``program_re`` is ``str(qa.program)``, the flat program;
* ``unitxt-2024`` — the card of IBM/unitxt@2bdfd586 (2024-09-24) to @332165f9, the parent of
  68ee3693: ``program_re`` is the ``ibm/finqa`` column, the nested program.

Both cards pass the table through ``MapTableListsToStdTableJSON``, so the evaluator iterates a
``{"header", "rows"}`` dict where it expects rows: its row map is ``{"h": "eader", "r": "ows"}``
and every table op is invalid. The template's ``take_first_non_empty_line`` post-processor
applies to the prediction and the reference; the reference (``references[0]``) is the
``program_re`` text, which is what the expression fallback compares with.
"""

from __future__ import annotations

import ast
import operator
from ..core.registry import get_dataset
from collections.abc import Callable, Sequence
from enum import Enum

from ..core.limits import current
from ..grammar.tokens import official_tokenize
from ..core.item import Item
from ..runner import execute
from .equivalence import Why, equal_program
from .results import ExecutionWhy, GoldItem, Verdict
from .official_scorer import ItemContext

UNITXT_DIALECT = "finqa"
"""unitxt always loads FinQA's evaluate.py, whatever the gold file's dialect."""

CARD_TABLE: tuple[tuple[str, ...], ...] = (tuple("header"), tuple("rows"))
"""What ``for row in table`` sees in the evaluator when ``table`` is the card's ``{header, rows}`` dict:
the keys, so ``row[0]`` is ``"h"`` / ``"r"`` and ``row[1:]`` the rest of the key."""

"""The fallback's safe evaluator refuses ``x ** y`` for ``|y|`` above this (Python's ``eval`` would
try and usually overflow or run long; such a prediction scores 0 either way against a program)."""


class Card(Enum):
    """The two generations of unitxt's ``cards.fin_qa``."""

    CURRENT = "unitxt"
    Y2024 = "unitxt-2024"


ExecWhy = ExecutionWhy
"""unitxt's reasons are the scorers' one vocabulary."""


_BINARY: dict[type, Callable[[float, float], float]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.Pow: operator.pow, ast.Mod: operator.mod, ast.FloorDiv: operator.floordiv,
}


def safe_arithmetic(text: str) -> float:
    """Evaluate a plain arithmetic expression (numbers, + - * / ** % //, unary signs) — the part of
    ``eval`` unitxt's fallback can succeed on for these inputs — without running code. Raises ValueError."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError) as error:
        raise ValueError(str(error)) from None

    def walk(node: ast.AST) -> float:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return float(node.value)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
            value = walk(node.operand)
            return value if isinstance(node.op, ast.UAdd) else -value
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            left, right = walk(node.left), walk(node.right)
            if isinstance(node.op, ast.Pow) and abs(right) > current().max_unitxt_exponent:
                raise ValueError("exponent too large")
            return float(_BINARY[type(node.op)](left, right))
        raise ValueError(f"not plain arithmetic: {type(node).__name__}")

    try:
        return walk(tree)
    except (ArithmeticError, TypeError, RecursionError) as error:
        raise ValueError(str(error)) from None


def take_first_non_empty_line(text: str) -> str:
    """unitxt's ``processors.take_first_non_empty_line``: strip, first line, strip."""
    return text.strip().split("\n")[0].strip()


def expression_fallback(prediction: str, reference: str) -> bool:
    """unitxt's ``python_expression_eval`` for one prediction and ``references[0]``.

    The prediction (cut after its last ``)``) ending with the reference counts; otherwise both are
    evaluated as Python and compared with numpy ``isclose`` (atol 1e-3, rtol 1e-5) after rounding.
    A program reference never evaluates (its op names are undefined), and unitxt then scores 0.
    """
    pred = prediction[: prediction.rfind(")") + 1]
    if pred.lower().endswith(reference.lower()):
        return True
    pred = pred.replace("%", "").replace("$", "")
    if "=" in pred:
        pred = pred.split("=")[0]
    try:
        if reference.endswith("%"):
            gold = float(reference.replace("%", "")) / 100
        else:
            gold = safe_arithmetic(reference)
        value = round(safe_arithmetic(pred), len(str(gold).split(".")[1]))
        return abs(value - gold) <= 0.001 + 1e-5 * abs(gold)
    except (ValueError, IndexError, OverflowError):
        return False


def tokens_to_text(tokens: Sequence[str]) -> str:
    """Program text for a token list (``op(a, b), op(c, d)``), the inverse of the official tokenizer on well-formed lists."""
    steps: list[str] = []
    body = [token for token in tokens if token != "EOF"]
    current: list[str] = []
    for token in body:
        if token.endswith("(") and not current:
            current = [token]
        elif token == ")" and current:
            steps.append(current[0] + ", ".join(current[1:]) + ")")
            current = []
        elif current:
            current.append(token)
        else:
            steps.append(token)
    if current:
        steps.append(current[0] + ", ".join(current[1:]))
    return ", ".join(steps)


def nested_program(tokens: Sequence[str]) -> str | None:
    """The nested ``program_re`` text of a flat program (``divide(subtract(34.8, 1.2), 34.8)``), or None if unreadable."""
    steps: list[str] = []
    body = list(tokens[:-1])
    if len(body) % 4 or not body:
        return None
    for start in range(0, len(body), 4):
        head, arg1, arg2, close = body[start:start + 4]
        if not head.endswith("(") or close != ")":
            return None
        args = []
        for arg in (arg1.strip(), arg2.strip()):
            if arg.startswith("#") and arg[1:].isdigit() and int(arg[1:]) < len(steps):
                args.append(steps[int(arg[1:])])
            else:
                args.append(arg)
        steps.append(f"{head}{args[0]}, {args[1]})")
    return steps[-1]


def program_re(gold: GoldItem, card: Card) -> str | None:
    """The card's ``program_re`` for a gold item: ``str(qa.program)`` now, the nested form before 2025-08."""
    if card is Card.CURRENT:
        if gold.program_text is not None:
            return gold.program_text
        return None if gold.tokens is None else tokens_to_text(gold.tokens)
    return None if gold.tokens is None else nested_program(gold.tokens)


def prediction_text(ctx: ItemContext) -> str | None:
    """The prediction as unitxt receives it (a token list read as its program text), post-processed."""
    text = ctx.pred.program_text if ctx.pred.program_text is not None else ctx.pred.text
    if text is None and ctx.pred.tokens is not None:
        text = tokens_to_text(ctx.pred.tokens)
    return None if text is None else take_first_non_empty_line(text)


def gold_answer(gold: GoldItem) -> str | None:
    """``task_data["answer"]`` = ``qa.answer``; ``str(exe_ans)`` stands in when the gold file has none."""
    if gold.answer is not None:
        return gold.answer
    return None if gold.exe_ans is None else str(gold.exe_ans)


def execution(text: str, answer: str, reference: str, table: Sequence[Sequence[str]] = CARD_TABLE) -> ExecWhy:
    """``finqa_eval_execution``, and ``python_expression_eval`` when it raises (a ``float()`` that fails)."""
    tokens = official_tokenize(text[: text.rfind(")") + 1])
    rows = [list(row) for row in table]
    verdict = execute(Item("unitxt", tokens, rows, dialect=get_dataset(UNITXT_DIALECT))).official  # the one runner
    if not verdict.valid:
        return ExecWhy.EXECUTION_INVALID
    try:
        if verdict.value is None:  # the evaluator's "n/a" (no step ran): float("n/a") raises
            raise ValueError("n/a")
        equal = float(verdict.value) == float(answer)
    except (TypeError, ValueError):
        return ExecWhy.FALLBACK_OK if expression_fallback(text, reference) else ExecWhy.FALLBACK_NO_MATCH
    return ExecWhy.OK if equal else ExecWhy.VALUE_DIFFERS


def score_card(ctx: ItemContext, card: Card) -> Verdict:
    """unitxt's verdict for one item under ``card``: execution accuracy, then program accuracy."""
    text = prediction_text(ctx)
    gold_program = program_re(ctx.gold, card)
    answer = gold_answer(ctx.gold)
    if text is None:
        exe_why = ExecWhy.NO_PROGRAM
    elif answer is None or gold_program is None:
        exe_why = ExecWhy.NO_GOLD_ANSWER
    else:
        exe_why = execution(text, answer, take_first_non_empty_line(gold_program))
    prog = False
    if text is None:
        prog_why = Why.NO_PROGRAM
    elif gold_program is None:
        prog_why = Why.GOLD_ERROR
    else:
        # equal_program(pred, gold): unitxt passes the prediction first, the reverse of FinQA's loop
        match = equal_program(official_tokenize(text), official_tokenize(gold_program), UNITXT_DIALECT)
        prog = match.equal
        prog_why = Why.OK if prog else match.why
    exe = exe_why in (ExecWhy.OK, ExecWhy.FALLBACK_OK)
    return Verdict(exe, prog, exe_why, prog_why)


def unitxt(ctx: ItemContext) -> Verdict:
    """unitxt ``FinQAEval`` with the current ``cards.fin_qa`` (flat ``program_re``, since 2025-08-04)."""
    return score_card(ctx, Card.CURRENT)


def unitxt_2024(ctx: ItemContext) -> Verdict:
    """unitxt ``FinQAEval`` with the 2024-09-24 .. 2025-08-04 card (nested ``program_re`` from ``ibm/finqa``)."""
    return score_card(ctx, Card.Y2024)
