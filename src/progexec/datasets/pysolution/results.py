"""What running one solution gave: a typed status, and for a returned value its type and number.

The sandbox's report crosses a pipe as text; :func:`decode_report` reads it with every
field checked (a solution may write anything on its result pipe, so nothing it sends is
trusted beyond its own item): an unknown status, a non-numeric number, a 5,000-digit
integer or a message with lone surrogates become ``bad_result`` or are escaped, never an
exception in the scorer.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ...isolation.process import escaped_text, result_number
from ...core.limits import DEFAULT_LIMITS, current

MESSAGE_CHARS = DEFAULT_LIMITS.solution_message_chars
"""Longest message kept from a sandbox report."""

INT_DIGITS = DEFAULT_LIMITS.solution_int_digits
"""Longest decimal integer accepted from a report (Python's own int/str bound is 4,300 digits)."""


class Status(str, Enum):
    """Why a solution gave (or did not give) a value."""

    OK = "ok"                                        # returned a value float() accepts
    NOT_A_NUMBER = "not_a_number"                    # returned a value float() refuses (None, a str, a list ...)
    NO_SOLUTION_FUNCTION = "no_solution_function"    # the code runs but defines no ``solution``
    NO_CODE = "no_code"                              # the extraction gave no code at all
    SYNTAX_ERROR = "syntax_error"
    RUNTIME_ERROR = "runtime_error"                  # an exception in the code or in ``solution()``
    FORBIDDEN = "forbidden"                          # the sandbox refused an action
    MEMORY_LIMIT = "memory_limit"
    TIME_LIMIT = "time_limit"                        # the CPU limit, the alarm passed asleep, the wall backstop
    EXIT = "exit"                                    # SystemExit
    CRASH = "crash"                                  # killed by a signal, or no result
    BAD_RESULT = "bad_result"                        # the report is not the typed format
    TOO_LONG = "too_long"                            # over max_sandbox_code_chars, not run
    SANDBOX_ERROR = "sandbox_error"                  # the sandbox could not run it

    @property
    def returned(self) -> bool:
        """Whether ``solution()`` returned (the official ``execution_rate`` counts these as executed)."""
        return self in (Status.OK, Status.NOT_A_NUMBER)


CHILD_STATUSES = frozenset({Status.OK, Status.NOT_A_NUMBER, Status.NO_SOLUTION_FUNCTION, Status.SYNTAX_ERROR,
                            Status.RUNTIME_ERROR, Status.FORBIDDEN, Status.MEMORY_LIMIT, Status.EXIT})
"""The statuses a child may report about itself; the others only the scorer decides."""
ALARM_KIND = "alarm"
"""The child's report of a sleep past ``solution_alarm_seconds``: ``time_limit``, decided by a count (a forged one
can only give its own solution 0)."""


@dataclass(frozen=True, slots=True)
class SolutionResult:
    """One solution's outcome. For a returned value: ``type_name`` (``type(v).__name__``), ``number``
    (``float(v)``, None when float() fails), ``exact_int`` (the value when it is a plain int) and
    ``boolean`` (when it is a bool); ``shown`` is a short repr for reports."""

    status: Status
    number: float | None = None
    type_name: str = ""
    exact_int: int | None = None
    boolean: bool | None = None
    shown: str = ""
    message: str = ""
    wall_clock: bool = False  # stopped by the wall-clock backstop: a verdict that may depend on the machine's load

    def python_value(self) -> int | float | bool | None:
        """The returned value as the official rule sees its type: the int, the bool, or the float."""
        if self.boolean is not None:
            return self.boolean
        if self.exact_int is not None:
            return self.exact_int
        return self.number


_ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")


def safe_text(value: Any, limit: int = MESSAGE_CHARS) -> str:
    """A string that always encodes as UTF-8 (lone surrogates escaped), at most ``limit`` characters, with
    memory addresses (``<function f at 0x7f...>``) blanked, since they differ from run to run."""
    text = value if isinstance(value, str) else ""
    return escaped_text(_ADDRESS.sub("0x?", text[:limit * 2]), limit)


def failure(status: str, message: str, wall_clock: bool = False) -> SolutionResult:
    """A result the scorer itself decides (time limit, crash, sandbox error)."""
    return SolutionResult(Status(status), message=safe_text(message), wall_clock=wall_clock)


def _exact_int(raw: Any) -> int | None:
    if not isinstance(raw, str) or not 0 < len(raw) <= current().solution_int_digits:
        return None
    body = raw[1:] if raw.startswith("-") else raw
    return int(raw) if body.isascii() and body.isdigit() else None


def _child_result(text: str) -> SolutionResult:
    try:
        payload: Any = json.loads(text)
    except (ValueError, RecursionError):
        return failure("bad_result", "the sandbox's result is not JSON")
    if not isinstance(payload, dict):
        return failure("bad_result", "the sandbox's result is not an object")
    if payload.get("kind") == ALARM_KIND:  # a sleep past the official alarm (the child counts it): time_limit
        return SolutionResult(Status.TIME_LIMIT, message=safe_text(payload.get("message", "")))
    try:
        status = Status(payload.get("kind"))
    except ValueError:
        return failure("bad_result", "the sandbox's result has no valid status")
    if status not in CHILD_STATUSES:
        return failure("bad_result", "the sandbox's result has no valid status")
    message = safe_text(payload.get("message", ""))
    if not status.returned:
        return SolutionResult(status, message=message)
    type_name = safe_text(payload.get("type", ""), 60)
    number = result_number(payload.get("number")) if status is Status.OK else None
    if status is Status.OK and number is None:
        return failure("bad_result", "the sandbox's result has no numeric value")
    exact = _exact_int(payload.get("int")) if type_name == "int" else None
    if type_name == "int" and exact is None and status is Status.OK:
        return failure("bad_result", "an int result without its digits")
    boolean = payload.get("bool") if type_name == "bool" and isinstance(payload.get("bool"), bool) else None
    if type_name == "bool" and boolean is None and number in (0.0, 1.0):
        boolean = number == 1.0  # numpy's bool (named "bool" since numpy 2): float() gives 0.0 or 1.0, as for a bool
    if type_name == "bool" and boolean is None:
        return failure("bad_result", "a bool result without its value")
    if exact is not None and number is not None and float(exact) != number:
        return failure("bad_result", "an int result whose digits and number disagree")
    return SolutionResult(status, number, type_name, exact, boolean, safe_text(payload.get("repr", ""), 200), message)


def _killed(signal_number: int) -> SolutionResult:
    import signal
    try:
        name = signal.Signals(signal_number).name
    except ValueError:
        name = f"signal {signal_number}"
    if name == "SIGXCPU":
        return failure("time_limit", "the CPU time limit")
    return failure("crash", f"the solution's process was killed ({name})")


def decode_report(line: bytes, seq: int) -> SolutionResult:
    """A worker's line about request ``seq``: the child's own result, or how the child ended."""
    try:
        report: Any = json.loads(line.decode("ascii"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return failure("bad_result", "the sandbox worker's report is not JSON")
    if not isinstance(report, dict) or report.get("seq") != seq or isinstance(report.get("seq"), bool):
        return failure("bad_result", "the sandbox worker's report is not about this solution")
    if report.get("timed_out") is True:
        return failure("time_limit", "no result within the wall-clock backstop", wall_clock=True)
    if report.get("overflow") is True:
        return failure("bad_result", "the solution wrote too much on its result pipe")
    text = report.get("result")
    if isinstance(text, str) and text.strip():
        return _child_result(text)
    signal_number = report.get("signal")
    if isinstance(signal_number, int) and not isinstance(signal_number, bool):
        return _killed(signal_number)
    return failure("crash", f"the solution's process ended without a result (exit {report.get('exit')!r})")


def json_number(value: float | None) -> float | str | None:
    """A float for JSON output: finite as is, otherwise its repr."""
    if value is None or math.isfinite(value):
        return value
    return repr(value)
