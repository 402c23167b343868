"""The three protocols of ``check-evaluator``: case lines out, answer lines in, and the reference.

``jsonl`` (default): ``{"id", "program", "table", "dialect"}`` out, the program as text;
``{"id", "valid", "value"}`` back, value a number, ``"yes"``, ``"no"`` or null, non-finite
values as ``"inf"``, ``"-inf"``, ``"nan"``. ``tokens``: the same with ``"program"`` the official
token list. ``flat``: the contract's parallel lists (``run_flat``'s arguments) out,
``{"id", "status", "present", "value", "is_bool", "bool_value"}`` back.

The reference is the official verdict as :mod:`progexec.interp.run` computes it (text or
tokens), and under ``flat`` the contract's ``run_flat``. Reading an answer never raises: a bad
line is a :class:`Failure` of a named class.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Optional, Union

from ...core.registry import get_dataset
from ...core.limits import current
from ...core.errors import ProgramSyntaxError
from ...grammar.parse import parse_program
from ...grammar.tokens import official_tokenize
from ...interp.flat import FlatProgram, compile_program, run_flat
from ...core.verdict import OfficialVerdict
from ...core.arithmetic import Refusal
from ...interp.run import execute_text, execute_tokens
from .cases import EvalCase, FlatArgs
from .classes import EvalDivergence, Failure
from ...core.plural import plural


class Protocol(str, Enum):
    JSONL = "jsonl"
    TOKENS = "tokens"
    FLAT = "flat"


@dataclass(frozen=True, slots=True)
class FlatVerdict:
    """The five fields of a contract result that a port must reproduce."""

    status: int
    present: bool
    value: float
    is_bool: bool
    bool_value: bool


Verdict = Union[OfficialVerdict, FlatVerdict]
Answer = Union[OfficialVerdict, FlatVerdict, Failure]


@dataclass(frozen=True, slots=True)
class Prepared:
    """A case ready to send: its request line and, under ``flat``, its lowered program."""

    case: EvalCase
    line: bytes
    flat: Optional[FlatProgram] = None


_NONFINITE = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan, "Infinity": math.inf,
              "-Infinity": -math.inf, "NaN": math.nan}


class _HugeInt(float):
    """Marks an integer literal too long to read (a float subclass so json accepts it)."""


def _parse_int(text: str) -> Any:
    if len(text.lstrip("-")) > current().max_answer_int_digits:
        return _HugeInt(0.0)
    return int(text)


def _json_number(value: float) -> Any:
    return value if math.isfinite(value) else repr(value)


def flat_of(case: EvalCase) -> Optional[FlatProgram]:
    """The case lowered to the contract's lists, or None when it has no flat form."""
    try:
        return compile_program(parse_program(case.program), case.table)
    except (ProgramSyntaxError, Refusal, ValueError, TypeError):
        return None


def flat_payload(flat: FlatProgram) -> dict[str, Any]:
    return {"ops": flat.ops, "arg1_kind": flat.arg1_kind, "arg1_num": [_json_number(v) for v in flat.arg1_num],
            "arg2_kind": flat.arg2_kind, "arg2_num": [_json_number(v) for v in flat.arg2_num],
            "table_values": [_json_number(v) for v in flat.table_values], "table_offset": flat.table_offset,
            "table_len": flat.table_len, "n_steps": flat.n_steps}


def raw_payload(args: FlatArgs) -> dict[str, Any]:
    return {"ops": args.ops, "arg1_kind": args.arg1_kind, "arg1_num": [_json_number(v) for v in args.arg1_num],
            "arg2_kind": args.arg2_kind, "arg2_num": [_json_number(v) for v in args.arg2_num],
            "table_values": [_json_number(v) for v in args.table_values], "table_offset": args.table_offset,
            "table_len": args.table_len, "n_steps": args.n_steps}


def prepare(case: EvalCase, protocol: Protocol) -> Optional[Prepared]:
    """The request line of a case, or None when the case cannot be put in this protocol."""
    if case.flat is not None:
        if protocol is not Protocol.FLAT:
            return None
        record = {"id": case.id, **raw_payload(case.flat)}
        return Prepared(case, json.dumps(record, ensure_ascii=True, allow_nan=False).encode("ascii") + b"\n")
    if protocol is Protocol.FLAT:
        flat = flat_of(case)
        if flat is None:
            return None
        record = {"id": case.id, **flat_payload(flat)}
        return Prepared(case, json.dumps(record, ensure_ascii=True, allow_nan=False).encode("ascii") + b"\n", flat)
    program: Any = case.program if protocol is Protocol.JSONL else official_tokenize(case.program)
    record = {"id": case.id, "program": program, "table": case.table, "dialect": case.dialect}
    return Prepared(case, json.dumps(record, ensure_ascii=True, allow_nan=False).encode("ascii") + b"\n")


def reference(prepared: Prepared, protocol: Protocol) -> Verdict:
    """The official verdict (text or tokens form) or the contract's result (flat)."""
    case = prepared.case
    if protocol is Protocol.FLAT:
        if case.flat is not None:
            a = case.flat
            ints: list[list[Any]] = [[int(v) if float(v).is_integer() else v for v in values]
                    for values in (a.ops, a.arg1_kind, a.arg2_kind, a.table_offset, a.table_len)]
            result = run_flat(ints[0], ints[1], a.arg1_num, ints[2], a.arg2_num, a.table_values, ints[3], ints[4],
                              a.n_steps)
            return FlatVerdict(result.status, result.present, result.value, result.is_bool, result.bool_value)
        assert prepared.flat is not None
        result = prepared.flat.run()
        return FlatVerdict(result.status, result.present, result.value, result.is_bool, result.bool_value)
    if protocol is Protocol.TOKENS:
        return execute_tokens(official_tokenize(case.program), case.table, get_dataset(case.dialect)).official
    return execute_text(case.program, case.table, get_dataset(case.dialect)).official


def _fail(kind: EvalDivergence, detail: str) -> Failure:
    return Failure(kind, detail[:200])


def _value(raw: Any) -> tuple[Optional[Union[float, str]], Optional[Failure]]:
    """An answer's value: a float, "yes"/"no" or None; or the Failure saying why not."""
    if raw is None:
        return None, None
    if isinstance(raw, bool):
        return None, _fail(EvalDivergence.YES_NO, f"value {json.dumps(raw)}: a yes/no answer is the string")
    if isinstance(raw, _HugeInt):
        return None, _fail(EvalDivergence.NOT_FLOAT, f"an integer of more than "
                                                     f"{plural(current().max_answer_int_digits, 'digit')}")
    if isinstance(raw, (int, float)):
        try:
            return float(raw), None
        except OverflowError:
            return None, _fail(EvalDivergence.NOT_FLOAT, "an integer too large for a float")
    if isinstance(raw, str):
        if raw in ("yes", "no"):
            return raw, None
        if raw in _NONFINITE:
            return _NONFINITE[raw], None
        if raw.strip().lower() in ("yes", "no", "true", "false"):
            return None, _fail(EvalDivergence.YES_NO, f"value {json.dumps(raw)}: a yes/no answer is 'yes' or 'no'")
    return None, _fail(EvalDivergence.NOT_FLOAT, f"value {json.dumps(raw)[:80]} is not a number, yes/no or null")


def _decode(line: bytes, ident: str) -> tuple[Optional[dict[str, Any]], Optional[Failure]]:
    try:
        record = json.loads(line, parse_int=_parse_int)
    except (ValueError, RecursionError):
        return None, _fail(EvalDivergence.UNPARSEABLE, f"not JSON: {line[:60]!r}")
    if not isinstance(record, dict):
        return None, _fail(EvalDivergence.UNPARSEABLE, f"not a JSON object: {line[:60]!r}")
    if record.get("id") != ident:
        return None, _fail(EvalDivergence.WRONG_ID, f"id {json.dumps(record.get('id'))[:60]} for case {ident}")
    error = record.get("error")
    if error is not None:
        kind = {"exception": EvalDivergence.EXCEPTION, "not_float": EvalDivergence.NOT_FLOAT}.get(error)
        return None, _fail(kind or EvalDivergence.UNPARSEABLE, f"{error}: {record.get('detail')}")
    return record, None


def parse_answer(line: bytes, prepared: Prepared, protocol: Protocol) -> Answer:
    """One answer line as a verdict, or a Failure (never raises)."""
    record, failure = _decode(line, prepared.case.id)
    if failure is not None:
        return failure
    assert record is not None
    if protocol is Protocol.FLAT:
        return _flat_answer(record)
    valid = record.get("valid")
    if not isinstance(valid, bool):
        return _fail(EvalDivergence.UNPARSEABLE, f"'valid' is {json.dumps(valid)[:40]}, not true/false")
    if not valid:
        return OfficialVerdict(False, None)
    value, failure = _value(record.get("value"))
    return failure if failure is not None else OfficialVerdict(True, value)


def _flat_answer(record: dict[str, Any]) -> Answer:
    status = record.get("status")
    if isinstance(status, bool) or not isinstance(status, int):
        return _fail(EvalDivergence.UNPARSEABLE, f"'status' is {json.dumps(status)[:40]}, not an integer")
    flags = [record.get(name) for name in ("present", "is_bool", "bool_value")]
    if not all(isinstance(flag, bool) for flag in flags):
        return _fail(EvalDivergence.UNPARSEABLE, "'present', 'is_bool' and 'bool_value' must be true/false")
    value, failure = _value(record.get("value", 0.0))
    if failure is not None:
        return failure
    if not isinstance(value, float):
        return _fail(EvalDivergence.NOT_FLOAT, f"'value' is {json.dumps(value)}, not a number")
    return FlatVerdict(status, bool(flags[0]), value, bool(flags[1]), bool(flags[2]))


def same_value(a: object, b: object) -> bool:
    """Bit for bit for floats (sign of zero included, any nan equals any nan), equality otherwise.

    An int (the official ``round(sum([]), 5)`` is the int 0) counts as the float it equals."""
    a, b = (float(v) if isinstance(v, int) and not isinstance(v, bool) else v for v in (a, b))
    if isinstance(a, float) and isinstance(b, float):
        if a != a:
            return b != b
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    return type(a) is type(b) and a == b


def matches(expected: Verdict, got: Answer) -> bool:
    """Does the answer reproduce the reference (the value only counts when there is one)?"""
    if isinstance(expected, FlatVerdict):
        if not isinstance(got, FlatVerdict):
            return False
        if (got.status, got.present, got.is_bool) != (expected.status, expected.present, expected.is_bool):
            return False
        if not expected.present:
            return True
        return got.bool_value == expected.bool_value if expected.is_bool else same_value(got.value, expected.value)
    if not isinstance(got, OfficialVerdict):
        return False
    if got.valid != expected.valid:
        return False
    return not expected.valid or same_value(got.value, expected.value)


def prepare_all(cases: Sequence[EvalCase], protocol: Protocol) -> list[Prepared]:
    """The cases of a chunk that this protocol can carry, as request lines."""
    out = []
    for case in cases:
        prepared = prepare(case, protocol)
        if prepared is not None:
            out.append(prepared)
    return out
