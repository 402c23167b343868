"""The ``--python MODULE:FUNC`` child: a user's function behind the same line protocol as ``--cmd``.

Run as a script by :mod:`progexec.checker.engine` (standard library only, nothing of progexec
is imported, so a user module cannot shadow it): ``python pychild.py PROTOCOL MODULE:FUNC FLUSH_SECONDS``.
The function runs in this separate process, so nothing it does (``SystemExit``, ``os._exit``,
a ``BaseException``, a hang, printing) can end or fool the checker: an exception of any kind
becomes an ``exception`` answer, a return value that is not a float a ``not_float`` answer,
a dead or hung child ``no_answer``. The real stdin/stdout are moved to private descriptors
first; the function's own prints go to stderr.

Protocols: ``rounder`` (``<x.hex()> <ndigits>`` in, ``float.hex()`` out), ``evaluator``
(a case JSON line in, ``FUNC(program, table, dialect)`` called — ``FUNC(program, table)`` when it takes
exactly two positional parameters, as the official ``eval_program`` does — ``{"id", "valid", "value"}``
out) and ``flat`` (``FUNC(ops, arg1_kind, ..., n_steps)`` called, the contract's five fields
out). A failure answer is ``!<kind> <detail>`` (rounder) or ``{"id", "error", "detail"}``.
"""

from __future__ import annotations

import importlib
import inspect
import json
import math
import os
import sys
import time
from collections.abc import Callable
from typing import Any

READY = b"progexec-pychild ready\n"
_bounds: dict[str, float] = {}
"""``flush_seconds``: seconds of work after which answers are written out even if more input is waiting (from
the command line: nothing of progexec is imported here)."""
FLAT_FIELDS = ("ops", "arg1_kind", "arg1_num", "arg2_kind", "arg2_num", "table_values", "table_offset",
               "table_len")


def describe(value: Any) -> str:
    """A short, one-line, always computable description of any returned value."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"int of {value.bit_length()} bits"
    try:
        text = repr(value)
    except BaseException:  # a hostile __repr__: describe the type only
        text = "<unprintable>"
    return f"{type(value).__name__}: {text}"[:200].replace("\n", " ")


def _error(exc: BaseException) -> str:
    try:
        message = str(exc)
    except BaseException:
        message = "<unprintable>"
    return f"{type(exc).__name__}: {message}"[:200].replace("\n", " ")


def _number(value: Any) -> Any:
    """A JSON-ready value: finite floats as is, inf/nan as strings; None when not a number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, int):
        if value.bit_length() > 1024:
            return None
        value = float(value)
    value = float(value)
    return value if math.isfinite(value) else repr(value)


def rounder(func: Callable[..., Any]) -> Callable[[bytes], bytes]:
    def answer(line: bytes) -> bytes:
        try:
            hex_x, ndigits = line.split()
            x, n = float.fromhex(hex_x.decode("ascii")), int(ndigits)
        except ValueError:
            return b"!unparseable bad request line"
        try:
            value = func(x, n)
        except BaseException as exc:  # SystemExit and friends included: a finding, never an exit
            return b"!exception " + _error(exc).encode("utf-8", "replace")
        if isinstance(value, float):
            return float(value).hex().encode("ascii")
        return b"!not_float " + describe(value).encode("utf-8", "replace")
    return answer


def _plain(value: Any) -> Any:
    """A numpy scalar (``numpy.float64``, ``numpy.bool_``, ``numpy.int64``) as the Python value it holds."""
    if type(value).__module__ == "numpy" and callable(getattr(value, "item", None)):
        try:
            return value.item()
        except BaseException:
            return value
    return value


def _value(value: Any) -> tuple[Any, str | None]:
    """An evaluator's value as JSON (number, inf/nan string, yes/no, null), or an error detail."""
    value = _plain(value)
    if value is None or (isinstance(value, str) and value == "n/a"):
        return None, None
    if isinstance(value, bool):  # sent as JSON true/false: the checker names it a yes/no divergence
        return value, None
    if isinstance(value, str):
        return (value, None) if value in ("yes", "no") else (None, describe(value))
    number = _number(value)
    return (number, None) if number is not None else (None, describe(value))


def takes_dialect(func: Callable[..., Any]) -> bool:
    """False when ``func`` takes exactly two positional parameters, as the official ``eval_program(program, table)``
    does: it is then called without the dialect, unchanged. Anything else (or no signature) gets three."""
    try:
        parameters = list(inspect.signature(func).parameters.values())
    except BaseException:  # no signature (a builtin), or a hostile __signature__
        return True
    if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in parameters):
        return True
    positional = [p for p in parameters
                  if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    return len(positional) != 2


def evaluator(func: Callable[..., Any]) -> Callable[[bytes], bytes]:
    with_dialect = takes_dialect(func)

    def answer(line: bytes) -> bytes:
        case = json.loads(line)
        ident = case.get("id")
        try:
            if with_dialect:
                result = func(case["program"], case["table"], case["dialect"])
            else:
                result = func(case["program"], case["table"])
        except BaseException as exc:
            return _dump({"id": ident, "error": "exception", "detail": _error(exc)})
        try:
            if isinstance(result, dict):
                valid, value = _plain(result["valid"]), result.get("value")
            else:
                first, value = result
                first = _plain(first)
                # a bool is "valid"; an int 0/1 is the official eval_program's invalid_flag
                valid = first if type(first) is bool else (first == 0 if type(first) is int else first)
            if type(valid) is not bool:
                return _dump({"id": ident, "error": "not_float", "detail": "valid is " + describe(valid)})
        except BaseException as exc:
            return _dump({"id": ident, "error": "not_float", "detail": f"not (valid, value): {_error(exc)}"})
        if not valid:
            return _dump({"id": ident, "valid": False, "value": None})
        encoded, problem = _value(value)
        if problem is not None:
            return _dump({"id": ident, "error": "not_float", "detail": problem})
        return _dump({"id": ident, "valid": True, "value": encoded})
    return answer


def _float_list(values: list[Any]) -> list[float]:
    return [float(value) for value in values]


def flat(func: Callable[..., Any]) -> Callable[[bytes], bytes]:
    def answer(line: bytes) -> bytes:
        case = json.loads(line)
        ident = case.get("id")
        args = [case[name] for name in FLAT_FIELDS]
        for index in (2, 4, 5):
            args[index] = _float_list(args[index])
        try:
            result = func(*args, case["n_steps"])
            get = result.get if isinstance(result, dict) else lambda name: getattr(result, name)
            fields = {name: get(name) for name in ("status", "present", "value", "is_bool", "bool_value")}
        except BaseException as exc:
            return _dump({"id": ident, "error": "exception", "detail": _error(exc)})
        value = _number(fields["value"])
        if value is None or type(fields["status"]) is not int:
            return _dump({"id": ident, "error": "not_float", "detail": describe(fields["value"])})
        out = {"id": ident, "status": fields["status"], "value": value}
        for name in ("present", "is_bool", "bool_value"):
            out[name] = bool(fields[name])
        return _dump(out)
    return answer


def _dump(record: dict[str, Any]) -> bytes:
    return json.dumps(record, allow_nan=False).encode("utf-8")


PROTOCOLS = {"rounder": rounder, "evaluator": evaluator, "flat": flat}


def _load(spec: str) -> Callable[..., Any]:
    module_name, _, attribute = spec.partition(":")
    target: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        target = getattr(target, part)
    if not callable(target):
        raise TypeError(f"{spec} is not callable")
    return target  # type: ignore[no-any-return]


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def main(argv: list[str]) -> int:
    protocol, spec = argv[1], argv[2]
    _bounds["flush_seconds"] = float(argv[3])
    sys.path[0] = os.getcwd()  # the user's modules, never this directory's
    proto_in, proto_out = os.dup(0), os.dup(1)
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull, encoding="utf-8")
    sys.stdout = sys.stderr
    try:
        answer = PROTOCOLS[protocol](_load(spec))
    except BaseException as exc:  # SystemExit at import included: the checker reports a usage error
        print(f"cannot load {spec}: {_error(exc)}", file=sys.stderr)
        return 2
    _write_all(proto_out, READY)
    buffer = b""
    while True:
        data = os.read(proto_in, 65536)
        if not data:
            return 0
        *lines, buffer = (buffer + data).split(b"\n")
        out: list[bytes] = []
        started = time.monotonic()
        for line in lines:
            out.append(answer(line))
            if time.monotonic() - started > _bounds["flush_seconds"]:  # a slow function: show progress
                _write_all(proto_out, b"\n".join(out) + b"\n")
                out, started = [], time.monotonic()
        if out:
            _write_all(proto_out, b"\n".join(out) + b"\n")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
