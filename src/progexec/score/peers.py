"""Peer scorers: how other public evaluators would score the same predictions.

Each scorer is a pure function of an :class:`~progexec.score.official.ItemContext`
returning a :class:`~progexec.score.model.Verdict`. They are written from their
published behaviour (see ``docs/scoring.md`` for one paragraph and the source of
each); no code is copied.

* ``helm-fin-qa`` — HELM ``fin_qa``: official execution and ``equal_program``, but a
  numeric gold is compared with ``math.isclose`` (default tolerances), yes/no by string.
* ``helm-float-equiv`` — HELM ``conv_fin_qa_calc``: the first number in the completion
  and in ``str(exe_ans)``, equal when they differ by < 1e-6; 0 when either has none.
* ``pot`` — Program-of-Thoughts ``finqa_equal``: both rounded to the smaller number of
  printed decimals, strings compared exactly.
* ``unitxt`` — IBM unitxt ``FinQAEval``: execution compared as ``float(result) ==
  float(answer)`` with ``answer`` = ``qa.answer`` (falling back to ``str(exe_ans)`` when the
  gold file has none) and an expression fallback; program accuracy with the arguments of
  ``equal_program`` swapped and the nested ``program_re`` form as the "prediction".
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable, Sequence

from ..grammar.tokens import official_tokenize
from ..interp.run import execute_tokens
from .equivalence import equal_program
from .model import Verdict
from .official import ItemContext, execution_why

FLOAT_PATTERN = re.compile(r"[-+]?(?:(?:\d*\.\d+)|(?:\d+\.?))(?:[Ee][+-]?\d+)?")
"""HELM's number pattern (SPEC §3): the first match is the value."""


def _first_number(text: str) -> float | None:
    match = FLOAT_PATTERN.search(text)
    if match is None:
        return None
    try:
        return float(match.group(0))
    except ValueError:
        return None


def float_equiv(completion: str, gold: str, eps: float = 1e-6) -> bool:
    """HELM ``float_equiv``: first numbers of both strings differ by strictly less than ``eps``."""
    first, second = _first_number(completion), _first_number(gold)
    if first is None or second is None:
        return False
    try:
        return abs(first - second) < eps
    except (OverflowError, ValueError):
        return completion == gold


def _completion(ctx: ItemContext) -> str | None:
    """The text an answer scorer reads: the model's answer, else the official execution result as text."""
    if ctx.pred.text is not None:
        return ctx.pred.text
    if ctx.pred.tokens is not None and ctx.verdict.valid and ctx.verdict.value is not None:
        return str(ctx.verdict.value)
    return None


def helm_fin_qa(ctx: ItemContext) -> Verdict:
    """HELM ``fin_qa``: official execution, ``math.isclose`` for numbers, yes/no by string; official program accuracy."""
    gold = ctx.gold_value
    verdict, match = ctx.verdict, ctx.match
    if ctx.pred.program_text is not None and ctx.pred.program_text != ctx.pred.program_text.strip():
        # HELM tokenizes the stripped completion; only surrounding whitespace can make this differ
        tokens = official_tokenize(ctx.pred.program_text.strip())
        verdict = execute_tokens(tokens, ctx.gold.table, ctx.dialect).official
        if ctx.gold.tokens is not None:
            match = equal_program(ctx.gold.tokens, tokens, ctx.dialect)
    value = verdict.value
    correct = False
    if ctx.pred.tokens is not None and verdict.valid and gold is not None:
        reference = str(gold)
        if reference in ("yes", "no"):
            correct = reference == value
        elif isinstance(value, float):
            try:
                correct = math.isclose(float(reference), value)
            except ValueError:
                correct = False
    prog = match.equal
    return Verdict(correct, prog, execution_why(ctx, correct), "ok" if prog else match.why.value)


def helm_float_equiv(ctx: ItemContext) -> Verdict:
    """HELM ``conv_fin_qa_calc`` ``float_equiv`` on the completion and ``str(exe_ans)``."""
    completion = _completion(ctx)
    gold = ctx.gold_value
    if completion is None or gold is None:
        return Verdict(False, None, "no_answer" if completion is None else "no_gold_answer")
    correct = float_equiv(completion, str(gold))
    why = "ok" if correct else ("no_number" if _first_number(completion) is None or
                                _first_number(str(gold)) is None else "value_differs")
    return Verdict(correct, None, why)


def pot_precision(value: object) -> int:
    """Program-of-Thoughts ``get_precision``: digits after the last ``.`` of ``str(value)``, else 5."""
    text = str(value)
    return len(text.split(".")[-1]) if "." in text else 5


def pot_equal(prediction: float | str | bool | None, reference: float | str) -> bool:
    """Program-of-Thoughts ``finqa_equal`` (``include_percentage=False``, ``is_close=False``, as its FinQA run)."""
    if prediction is None:
        return False
    if isinstance(prediction, bool):
        return reference == ("yes" if prediction else "no")
    if isinstance(reference, str) or isinstance(prediction, str):
        return prediction == reference
    try:
        digits = min(pot_precision(prediction), pot_precision(reference))
        return round(prediction, digits) == round(reference, digits)
    except (OverflowError, ValueError, TypeError):
        return False


def _pot_value(ctx: ItemContext) -> float | str | None:
    if ctx.pred.text is not None:
        try:
            return float(ctx.pred.text)
        except ValueError:
            return ctx.pred.text
    if ctx.pred.tokens is None or not ctx.verdict.valid:
        return None
    return ctx.verdict.value


def pot(ctx: ItemContext) -> Verdict:
    """Program-of-Thoughts answer equality against ``exe_ans``."""
    gold = ctx.gold_value
    value = _pot_value(ctx)
    correct = gold is not None and pot_equal(value, gold)
    why = "ok" if correct else ("no_answer" if value is None else
                                "no_gold_answer" if gold is None else "value_differs")
    return Verdict(correct, None, why)


# -- unitxt -----------------------------------------------------------------------------------

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
            if isinstance(node.op, ast.Pow) and abs(right) > 1000:
                raise ValueError("exponent too large")
            return float(_BINARY[type(node.op)](left, right))
        raise ValueError(f"not plain arithmetic: {type(node).__name__}")

    try:
        return walk(tree)
    except (ArithmeticError, TypeError, RecursionError) as error:
        raise ValueError(str(error)) from None


def _unitxt_expression_fallback(prediction: str, gold_answer: str) -> bool:
    """unitxt's ``python_expression_eval`` for one prediction (numpy ``isclose``: atol 1e-3, rtol 1e-5)."""
    last = prediction.rfind(")")
    pred = prediction[: last + 1]
    if pred.lower().endswith(gold_answer.lower()):
        return True
    pred = pred.replace("%", "").replace("$", "")
    if "=" in pred:
        pred = pred.split("=")[0]
    try:
        if gold_answer.endswith("%"):
            gold = float(gold_answer.replace("%", "")) / 100
        else:
            gold = safe_arithmetic(gold_answer)
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


def unitxt(ctx: ItemContext) -> Verdict:
    """IBM unitxt ``FinQAEval``: execution against the human answer, swapped ``equal_program`` against ``program_re``."""
    answer = ctx.gold.answer if ctx.gold.answer is not None else (
        None if ctx.gold_value is None else str(ctx.gold_value))
    text = ctx.pred.program_text if ctx.pred.program_text is not None else ctx.pred.text
    if text is None and ctx.pred.tokens is not None:
        text = tokens_to_text(ctx.pred.tokens)
    exe = False
    exe_why = "no_program"
    if text is not None and answer is not None:
        last = text.rfind(")")
        tokens = official_tokenize(text[: last + 1])
        verdict = execute_tokens(tokens, ctx.gold.table, ctx.dialect).official
        try:
            exe = verdict.valid and float(verdict.value) == float(answer)  # type: ignore[arg-type]
            exe_why = "ok" if exe else ("execution_invalid" if not verdict.valid else "value_differs")
        except (TypeError, ValueError):
            exe = _unitxt_expression_fallback(text, answer)
            exe_why = "ok" if exe else "answer_not_numeric"
    prog = False
    prog_why = "no_program"
    if ctx.pred.tokens is not None and ctx.gold.tokens is not None:
        nested = nested_program(ctx.gold.tokens)
        if nested is None:
            prog_why = "gold_error"
        else:
            match = equal_program(ctx.pred.tokens, official_tokenize(nested), ctx.dialect)
            prog = match.equal
            prog_why = "ok" if prog else match.why.value
    return Verdict(exe, prog, exe_why, prog_why)
