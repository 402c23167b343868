"""The program run inside the sandbox for FinanceReasoning: a solution, a gold or an answer text, described.

Its source is sent as the code of a pool request (entry ``answer``), its three constants (``MODE``,
``CODE``, ``CONTEXT``) replaced by :mod:`.sandbox`, and a last line ``answer = main()``; it imports
nothing from progexec.
``MODE`` is ``pot`` (a model's code, run as the official ``run_code_in_process`` runs it: ``exec``
in ``{"print": no-op}``, then ``solution()``), ``text`` (one answer text through the official
``normalize``, whose ``eval`` thus runs here and nowhere else) or ``gold`` (a gold
``python_solution`` in its answer convention, ``df`` built from the JSON ``context``).

The value is reduced to what the official ``get_acc`` can tell apart: a kind (``none``, ``bool``,
``num`` with its exact rational, ``complex``, ``text``, ``empty``, ``other``), its type and
category, whether it was a list's first element, whether ``pickle`` (the official result queue)
and ``str()`` (the official ``executed_result``) accept it. That description crosses the pool's
typed channel as the one field wide enough for it, an exact integer (``answer``): the JSON bytes
behind a 0x01 byte. The names below are the official module's, so ``eval`` sees the same globals.
"""

from __future__ import annotations

import json
import math
import pickle
import re
import sys
from decimal import Decimal
from fractions import Fraction
from typing import Any

MODE: str = "text"
CODE: str = ""
CONTEXT: str = ""
PAYLOAD_BYTES: int = 0
TEXT_CHARS: int = 0
INT_DIGITS: int = 0


def within_eps(pred: float, gt: float) -> bool:
    eps = abs(gt) * 0.002
    return bool(pred >= gt - eps and pred <= gt + eps)


def is_number(string: str) -> bool:
    return bool(re.match(r'^[-+]?(\d{1,3}(,\d{3})*|(\d+))(\.\d+)?$', string))


def is_scientific_number(string: str) -> bool:
    return bool(re.match(r'^[-+]?\d+(\.\d+)?e[-]?\d+$', string))


def contain_num_and_str(string: str) -> bool:
    return bool(re.search(r'[a-zA-Z]', string) and re.search(r'[0-9]', string))


STAGE = {"value": "eval"}


def normalize(prediction: Any) -> Any:
    """The official ``normalize``, rule by rule; ``STAGE`` records which ``eval`` gave the value."""
    STAGE["value"] = "eval"
    try:
        prediction = eval(prediction, OFFICIAL_GLOBALS)
    except Exception:
        STAGE["value"] = "rewritten"
        prediction = prediction.strip().lower()
        prediction = prediction.rstrip('.')
        for money in ["£", "€", "¥", "million", "billion", "thousand", "us", "usd", "rmb"]:
            prediction = prediction.replace(money, '')
        if '=' in prediction:
            prediction = prediction.split('=')[-1].strip()
        if '≈' in prediction:
            prediction = prediction.split('≈')[-1].strip()
        for token in ('`', '%', '$', '°'):
            if token in prediction:
                prediction = prediction.replace(token, '')
        if prediction in ['true', 'yes', 'false', 'no']:
            prediction = 'True' if prediction in ('true', 'yes') else 'False'
        if 'true' in prediction or 'false' in prediction:
            prediction = 'True' if 'true' in prediction else 'False'
        if 'approximately' in prediction:
            prediction = prediction.replace('approximately', '').strip()
        if ' or ' in prediction:
            prediction = prediction.split(' or ')[0]
        if re.match(r'[-+]?(?:[\d,]*\.*\d+) [^0-9 ]+$', prediction):
            prediction = re.search(r'([-+]?(?:[\d,]*\.*\d+)) [^0-9 ]+$', prediction).group(1)  # type: ignore[union-attr]
        if re.match(r'[^0-9 ]+ [-+]?(?:[\d,]*\.*\d+)$', prediction):
            prediction = re.search(r'[^0-9 ]+ ([-+]?(?:[\d,]*\.*\d+))$', prediction).group(1)  # type: ignore[union-attr]
        if re.match(r'[-+]?(?:[\d,]*\.*\d+)[^\d]{1,2}$', prediction):
            prediction = re.search(r'([-+]?(?:[\d,]*\.*\d+))[^\d]{1,2}$', prediction).group(1)  # type: ignore[union-attr]
        if re.match(r'[^-+\d]{1,2}(?:[\d,]*\.*\d+)$', prediction):
            prediction = re.search(r'[^-+\d]{1,2}((?:[\d,]*\.*\d+))$', prediction).group(1)  # type: ignore[union-attr]
        if '10^' in prediction:
            prediction = re.sub(r'10\^(-?\d+)', r'math.pow(10, \1)', prediction)
        if ' x ' in prediction:
            prediction = prediction.replace(' x ', '*')
        if ' × ' in prediction:
            prediction = prediction.replace(' × ', '*')
        if is_number(prediction):
            prediction = prediction.replace(',', '')
        if not prediction:
            prediction = "None"
        try:
            prediction = eval(prediction, OFFICIAL_GLOBALS)
        except Exception:
            STAGE["value"] = "unreadable"
            prediction = None
    return prediction


def get_acc(prediction: Any, gt: Any) -> int:
    try:
        assert isinstance(gt, (int, float, bool)), type(gt)
        if isinstance(prediction, str):
            prediction = normalize(prediction)
        if isinstance(prediction, (tuple, list)):
            prediction = prediction[0]
        if prediction is None:
            return 0
        if isinstance(gt, bool) or isinstance(prediction, bool):
            return int(prediction == gt)
        return int(within_eps(prediction, gt))
    except Exception:
        return 0


def _site_exit(*args: Any) -> None:
    """``exit``/``quit`` as the site module defines them in the official process (the sandbox runs without it)."""
    raise SystemExit(*args)


OFFICIAL_GLOBALS: dict[str, Any] = {
    "exit": _site_exit, "quit": _site_exit, "re": re, "within_eps": within_eps, "is_number": is_number,
    "is_scientific_number": is_scientific_number, "contain_num_and_str": contain_num_and_str, "normalize": normalize, "get_acc": get_acc}
"""What the official module's ``eval`` sees (no ``math``: the official module does not import it)."""


def _ratio(numerator: int, denominator: int) -> dict[str, Any]:
    if len(str(abs(numerator))) > INT_DIGITS or len(str(denominator)) > INT_DIGITS:
        return {"k": "num", "x": "huge" if abs(numerator) > denominator else "tiny", "neg": numerator < 0}
    return {"k": "num", "p": str(numerator), "q": str(denominator)}


def _real(value: Any) -> dict[str, Any]:
    """An exact real number, or its special value (nan, inf, -inf)."""
    if isinstance(value, float):
        if math.isnan(value):
            return {"k": "num", "x": "nan"}
        if math.isinf(value):
            return {"k": "num", "x": "inf" if value > 0 else "-inf"}
        return _ratio(*value.as_integer_ratio())
    if isinstance(value, int):
        if value.bit_length() > INT_DIGITS * 3.33:
            return {"k": "num", "x": "huge", "neg": value < 0}
        return _ratio(int(value), 1)
    if isinstance(value, Decimal):
        if value.is_nan():
            return {"k": "num", "x": "dnan"}
        if value.is_infinite():
            return {"k": "num", "x": "inf" if value > 0 else "-inf"}
        if abs(value.adjusted()) > INT_DIGITS:
            return {"k": "num", "x": "huge" if value.adjusted() > 0 else "tiny", "neg": value < 0}
        return _ratio(*value.as_integer_ratio())
    fraction = Fraction(value)
    return _ratio(fraction.numerator, fraction.denominator)


def describe(value: Any, text_is_text: bool, first: bool = False) -> dict[str, Any]:
    """What the official ``get_acc`` can tell of ``value`` (see the module docstring)."""
    numpy = sys.modules.get("numpy")
    kind = type(value).__name__
    out: dict[str, Any]
    if value is None:
        out = {"k": "none", "c": "none"}
    elif isinstance(value, bool):
        out = {"k": "bool", "v": value, "c": "bool"}
    elif isinstance(value, str):
        out = {"k": "text", "v": value[:TEXT_CHARS], "c": "str"} if text_is_text and len(value) <= TEXT_CHARS \
            else {"k": "other", "c": "str", "long": len(value) > TEXT_CHARS}
    elif isinstance(value, (list, tuple)) and not first:
        if not value:
            out = {"k": "empty", "c": "list"}
        else:
            out = describe(value[0], False, True)
            out["first"] = kind
            out["n"] = len(value)
        out["t"] = kind
        return out
    elif numpy is not None and isinstance(value, numpy.ndarray):
        if value.size == 1 and value.dtype.kind in "biuf":
            out = _real(value.item() if value.dtype.kind != "b" else int(value.item()))
            out["c"] = "array"
        else:
            out = {"k": "other", "c": "array"}
    elif numpy is not None and isinstance(value, numpy.bool_):
        out = {"k": "num", "p": str(int(bool(value))), "q": "1", "c": "numpy_bool", "b": bool(value)}
    elif numpy is not None and isinstance(value, numpy.integer):
        out = _real(int(value))
        out["c"] = "numpy_number"
    elif numpy is not None and isinstance(value, numpy.floating):
        out = _real(float(value))
        out["c"] = "numpy_number"
    elif isinstance(value, (int, float, Decimal, Fraction)):
        out = _real(value)
        out["c"] = type(value).__name__ if type(value) in (int, float, Decimal, Fraction) else "number_subclass"
    elif isinstance(value, complex):
        out = {"k": "complex", "re": value.real.hex(), "im": value.imag.hex(), "c": "complex"}
    else:
        import numbers
        if isinstance(value, numbers.Rational):
            out = _ratio(int(value.numerator), int(value.denominator))
            out["c"] = "other_number"
        elif isinstance(value, numbers.Real):
            try:
                out = _real(float(value))
            except Exception:
                out = {"k": "other"}
            out["c"] = "other_number"
        else:
            out = {"k": "other", "c": "other"}
    out["t"] = kind[:60]
    return out


def _delivered(value: Any) -> tuple[Any, dict[str, Any]]:
    """What the official parent receives: the value through ``pickle`` (its result queue), or why nothing
    arrives; and whether ``str()`` of it (the official ``executed_result``) raises."""
    flags: dict[str, Any] = {}
    try:
        value = pickle.loads(pickle.dumps(value))
    except BaseException as error:
        flags["unpicklable"] = f"{type(error).__name__}"[:60]
        return value, flags
    try:
        str(value)
    except BaseException as error:
        flags["str_fails"] = f"{type(error).__name__}: {error}"[:200]
    return value, flags


def _normalized(text: str) -> dict[str, Any]:
    try:
        value = normalize(text)
    except BaseException as error:  # normalize's rewriting raised: get_acc's try makes it wrong
        out: dict[str, Any] = {"k": "raises", "why": f"{type(error).__name__}"[:60], "c": "error", "t": ""}
        out["stage"] = STAGE["value"]
        if not isinstance(error, Exception):
            out["aborts"] = True
        return out
    described = describe(value, False)
    described["stage"] = STAGE["value"]
    return described


def _gold_value(code: str, context: str) -> tuple[Any, str]:
    """A gold solution's value in its answer convention, and the convention's name."""
    import ast
    tree = ast.parse(code)
    namespace: dict[str, Any] = {"print": _no_print}
    if context:
        import importlib
        frames = importlib.import_module("pan" + "das")
        namespace["df"] = frames.DataFrame(json.loads(context))
    names = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    if "solution" in names:
        exec(compile(tree, "<gold>", "exec"), namespace)
        return namespace["solution"](), "solution"
    assigned = any(isinstance(target, ast.Name) and target.id == "answer"
                   for node in tree.body if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign))
                   for target in (node.targets if isinstance(node, ast.Assign) else [node.target]))
    if assigned:
        exec(compile(tree, "<gold>", "exec"), namespace)
        return namespace["answer"], "answer"
    last = tree.body[-1] if tree.body else None
    if isinstance(last, ast.Expr):
        exec(compile(ast.Module(body=tree.body[:-1], type_ignores=[]), "<gold>", "exec"), namespace)
        return eval(compile(ast.Expression(last.value), "<gold>", "eval"), namespace), "last_expression"
    if isinstance(last, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        exec(compile(tree, "<gold>", "exec"), namespace)
        target = last.targets[-1] if isinstance(last, ast.Assign) else last.target
        return eval(ast.unparse(target), namespace), "last_assignment"
    raise LookupError("no answer convention: no solution(), no 'answer', no final expression or assignment")


def _no_print(*args: Any, **kwargs: Any) -> None:
    return None


def _encode(out: dict[str, Any]) -> int:
    data = json.dumps(out, ensure_ascii=True, allow_nan=False).encode("ascii")
    if len(data) > PAYLOAD_BYTES:
        data = json.dumps({"k": "other", "c": "other", "t": str(out.get("t", ""))[:60], "too_big": True}).encode()
    return int.from_bytes(b"\x01" + data, "big")


def main() -> int:
    """The description of this request's value, as the payload integer."""
    if MODE == "text":
        return _encode(_normalized(CODE))
    if MODE == "gold":
        value, convention = _gold_value(CODE, CONTEXT)
        out = describe(value, True)
        if isinstance(value, str):
            out = {"k": "other", "c": "str", "t": "str", "normalized": _normalized(value)}
        out["convention"] = convention
        return _encode(out)
    namespace: dict[str, Any] = {"print": _no_print}
    exec(CODE, namespace)
    value, flags = _delivered(namespace["solution"]())
    out = describe(value, True)
    if isinstance(value, str) and not flags and (out.get("long") or _too_big(out)):
        # too long to cross the channel: normalized here, in the solution's own child (documented)
        out = {"k": "other", "c": "str", "t": "str", "long": True, "normalized": _normalized(value)}
        numeral = value.strip(" \t\r\n")
        if len(numeral) <= 200 and re.fullmatch(r"[-+]?[0-9]+(?:\.[0-9]+)?", numeral):
            out["numeral"] = numeral  # what the strict rule reads of it
    out.update(flags)
    return _encode(out)


def _too_big(out: dict[str, Any]) -> bool:
    return len(json.dumps(out, ensure_ascii=True)) > PAYLOAD_BYTES - 100
