"""Running FinanceReasoning code and answer texts in the sandbox pool, and reading back their descriptions.

Every model solution, every answer text the official ``normalize`` would ``eval`` and every gold
solution runs as one pool request (:class:`progexec.pysolution.pool.Request`) whose code is
:mod:`.sandbox_program` with the item's text as a constant; identical requests run once. The
budget is the official one: 10 seconds (``timeout_duration`` in the official config/config.yaml)
of wall clock and of CPU per request.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ...core.limits import current
from ..pysolution.pool import Budget, Pool, Request
from ..pysolution.results import SolutionResult, Status, failure
from ...core.errors import InputError
from .values import Value, decode_payload


MODES = ("pot", "text", "gold")
CONSTANTS = ('MODE: str = "text"\nCODE: str = ""\nCONTEXT: str = ""\nPAYLOAD_BYTES: int = 0\nTEXT_CHARS: int = 0\n'
             'INT_DIGITS: int = 0\n')
"""The constant lines of :mod:`.sandbox_program` that each request replaces with its own."""


@lru_cache(maxsize=1)
def _program_source() -> str:
    return resources.files(__package__).joinpath("sandbox_program.py").read_text(encoding="utf-8")


def program(mode: str, code: str, context: str = "") -> str:
    """The sandbox program for one item: the constants, then :mod:`.sandbox_program`, then its call."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}")
    source = _program_source()
    if CONSTANTS not in source:
        raise RuntimeError("sandbox_program.py lost its constant lines")
    bounds = current()
    constants = (f"MODE: str = {mode!r}\nCODE: str = {code!r}\nCONTEXT: str = {context!r}\n"
                 f"PAYLOAD_BYTES: int = {bounds.description_payload_bytes}\n"
                 f"TEXT_CHARS: int = {bounds.description_text_chars}\nINT_DIGITS: int = {bounds.description_int_digits}\n")
    source = source.replace(CONSTANTS, constants, 1)
    heavy = "\n# a CodeTAT-QA table: runs in a worker with pandas loaded\n" if context else "\n"
    return source + heavy + "answer = main()\n"


def budget(seconds: float | None = None) -> Budget:
    """The official 10 s (``official_pot_timeout_seconds``), as the CPU limit and the wall-clock backstop; the
    memory bound is progexec's default."""
    base = Budget.current()
    seconds = current().official_pot_timeout_seconds if seconds is None else seconds
    return Budget(cpu_seconds=seconds, wall_seconds=seconds, memory_bytes=base.memory_bytes)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One request's result: the pool's status, and the value's description when it returned one."""

    result: SolutionResult
    value: Value | None

    @property
    def returned(self) -> bool:
        return self.value is not None


def read_outcome(result: SolutionResult) -> Outcome:
    """The description inside a pool result (its payload integer), or the failure as it is."""
    if not result.status.returned:
        return Outcome(result, None)
    if result.type_name != "int" or result.exact_int is None:
        return Outcome(failure("bad_result", "the sandbox program gave no description"), None)
    try:
        return Outcome(result, decode_payload(result.exact_int))
    except InputError as error:  # of kind bad_description: the only error decode_payload raises
        return Outcome(failure("bad_result", f"the value's description is unusable: {error}"), None)


def run(pool: Pool, items: Sequence[tuple[str, str, str]],
        progress: Callable[[int], None] | None = None) -> list[Outcome]:
    """Run ``(mode, text, context)`` items (identical ones once); one Outcome per item, in order."""
    distinct: dict[tuple[str, str, str], int] = {}
    for item in items:
        distinct.setdefault(item, len(distinct))
    requests = [Request(program(mode, text, context), "answer") for mode, text, context in distinct]
    results = pool.run(requests, progress)
    outcomes = [read_outcome(result) for result in results]
    return [outcomes[distinct[item]] for item in items]


def no_code() -> Outcome:
    """The outcome of an output that gives no code: the official ``exec('')`` defines no ``solution``."""
    return Outcome(SolutionResult(Status.NO_CODE, message="the extraction gives no code (empty output, or "
                                                          "'argparse' in it)"), None)
