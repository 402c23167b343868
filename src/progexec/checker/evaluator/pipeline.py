"""``check-evaluator --jobs N``: the suite's chunks answered by N ports at once, checked in suite order.

Each port (its own child process) answers whole chunks in a thread of its own, which mostly waits on
the child; this process meanwhile prepares the next chunks and checks answered ones against the
reference, always in suite order. So the checks, counts and counterexamples are those of the serial
run (:func:`~.check.run_evaluator_check`: the same chunks, the same answers from the same port
program, compared in the same order), while the ports' work and ours overlap. At most N chunks are
out at once, so memory stays bounded by the chunk size.
"""

from __future__ import annotations

import queue
from collections import deque
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Optional

from .cases import chunks, default_size, families_of, suite
from .check import Answerer, EvalReport, ProgressHook, check_chunk
from .protocol import Answer, Prepared, Protocol, prepare_all
from ...core.plural import plural, plural_of


def run_pipelined(ports: Sequence[Answerer], name: str, protocol: Protocol = Protocol.JSONL,
                  suite_name: str = "all", cases: Optional[int] = None, seed: int = 0, chunk: int = 2000,
                  progress: Optional[ProgressHook] = None) -> EvalReport:
    """The report :func:`~.check.run_evaluator_check` gives, with the chunks shared out among ``ports``."""
    report = EvalReport(name, protocol, suite_name, seed)
    flat = protocol is Protocol.FLAT
    total = cases if cases is not None else sum(default_size(family) for family in families_of(suite_name, flat))
    free: queue.SimpleQueue[Answerer] = queue.SimpleQueue()
    for port in ports:
        free.put(port)

    def answer(port: Answerer, prepared: list[Prepared]) -> list[Answer]:
        try:
            return port(prepared)
        finally:
            free.put(port)

    pending: deque[tuple[list[Prepared], int, Optional[Future[list[Answer]]]]] = deque()

    def check_first() -> None:
        prepared, skipped, future = pending.popleft()
        report.skipped += skipped
        if future is not None:
            check_chunk(prepared, future.result(), protocol, report)
        if progress is not None:
            progress(report.cases + report.skipped, total)

    with ThreadPoolExecutor(max_workers=len(ports), thread_name_prefix="check-evaluator-port") as pool:
        for part in chunks(suite(suite_name, cases, seed, flat), chunk):
            prepared = prepare_all(part, protocol)
            future = pool.submit(answer, free.get(), prepared) if prepared else None  # waits for a free port
            pending.append((prepared, len(part) - len(prepared), future))
            while pending and (len(pending) > len(ports) or (pending[0][2] is None or pending[0][2].done())):
                check_first()
        while pending:
            check_first()
    report.finish()
    if report.skipped:
        report.notes.append(f"{plural(report.skipped, 'case')} {plural_of('has', report.skipped)} no "
                            f"{protocol.value} form (they do not parse or compile) "
                            "and were not sent")
    return report


__all__ = ["run_pipelined"]
