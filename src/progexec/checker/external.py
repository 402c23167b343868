"""The external-program protocol of ``check-rounder --cmd`` (and of ``--python``, run in a child).

The program reads lines ``<x as float.hex()> <ndigits>`` on stdin and writes one answer line per
input line, in order (a ``float.hex()`` string or a decimal literal), flushing after each line.
The exchange itself, with every bound on what the program may do, is :mod:`.engine`; this module
only encodes the cases and reads the answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from .divergence import Divergence, Failure
from .report import PortFault, port_fault
from .engine import DEFAULT_CHUNK, DEFAULT_TIMEOUT, READY_LINE, ChildExchange, Fault, PortSandbox, python_port
from ..core.limits import DEFAULT_LIMITS, current

__all__ = ["DEFAULT_CHUNK", "DEFAULT_TIMEOUT", "ExternalRounder", "parse_answer"]

ANSWER_LINE_MAX = DEFAULT_LIMITS.rounder_answer_line_chars
"""An answer line longer than this is a flood (a float.hex() or decimal literal is < 40 bytes)."""
_MARKED = {b"exception": Divergence.EXCEPTION, b"not_float": Divergence.NOT_FLOAT,
           b"unparseable": Divergence.UNPARSEABLE}


def parse_answer(line: bytes) -> object:
    """An answer line as a float (hex or decimal literal), or a Failure quoting the line."""
    if line.startswith(b"!"):  # the --python child's failure answers
        kind, _, detail = line[1:].partition(b" ")
        if kind in _MARKED:
            return Failure(_MARKED[kind], detail.decode("utf-8", errors="replace"))
    text = line.decode("utf-8", errors="replace").strip()
    lowered = text.lower()
    try:
        if "0x" in lowered or "p" in lowered.replace("inf", ""):
            return float.fromhex(text)
        if text and "_" not in text:
            return float(text)
    except ValueError:
        pass
    return Failure(Divergence.UNPARSEABLE, f"answer line {text[:60]!r}")


def to_failure(fault: Fault) -> Failure:
    return Failure(Divergence(fault.kind.value), fault.detail)


def case_label(request: bytes) -> str:
    """A request line ``<x.hex()> <ndigits>`` as the call it asks for: ``round(2.675, 2)``."""
    hex_x, ndigits = request.split()
    return f"round({float.fromhex(hex_x.decode('ascii'))!r}, {int(ndigits)})"


def port_faults(faults: Sequence[Fault]) -> list[PortFault]:
    """The leash's faults as the report shows them (class, case, exit status, stderr)."""
    return [port_fault(fault, fault.kind.value, Divergence(fault.kind.value).minor, case_label) for fault in faults]


class ExternalRounder:
    """An answerer backed by a child process: an external program, or ``--python`` in a child."""

    def __init__(self, argv: Sequence[str], timeout: float = DEFAULT_TIMEOUT, chunk: int = DEFAULT_CHUNK,
                 max_restarts: int = 3, stall: float = 1.0, cwd: Optional[str] = None,
                 python: bool = False, sandbox: Optional[PortSandbox] = None) -> None:
        self.engine = ChildExchange(argv, timeout=timeout, chunk=chunk, max_line=current().rounder_answer_line_chars,
                                    max_restarts=max_restarts, stall=stall, cwd=cwd,
                                    ready=READY_LINE if python else None, sandbox=sandbox)

    @classmethod
    def python(cls, spec: str, timeout: float = DEFAULT_TIMEOUT, chunk: int = DEFAULT_CHUNK,
               isolate: bool = False, cwd: Optional[str] = None) -> ExternalRounder:
        """``MODULE:FUNC`` run in a child process (see :mod:`.pychild`), in the sandbox with ``isolate``."""
        argv, sandbox = python_port("rounder", spec, isolate, cwd)
        return cls(argv, timeout=timeout, chunk=chunk, python=True, sandbox=sandbox)

    @property
    def notes(self) -> list[str]:
        return self.engine.notes

    @property
    def faults(self) -> list[Fault]:
        return self.engine.faults

    def report_faults(self) -> list[PortFault]:
        """The run's protocol failures as a report shows them."""
        return port_faults(self.engine.faults)

    @property
    def batch(self) -> bool:
        return self.engine.batch

    def start(self) -> None:
        self.engine.start()

    def close(self) -> None:
        self.engine.close()

    def __call__(self, xs: Sequence[float], ns: Sequence[int]) -> list[object]:
        requests = [f"{x.hex()} {n}\n".encode("ascii") for x, n in zip(xs, ns)]
        return [to_failure(answer) if isinstance(answer, Fault) else parse_answer(answer)
                for answer in self.engine.exchange(requests)]
