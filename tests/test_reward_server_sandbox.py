"""``progexec serve`` never runs a sandbox on its event loop: while a FinanceMath solution sleeps in the sandbox,
``/health``, a FinQA request and another client's FinanceMath request are answered; a request's budget ends its
own unstarted items, not anyone else's.

Order is decided by what the server did, never by the machine's speed: the looping solution's process is found
in the sandbox (it only ends at its CPU limit, which a loaded machine reaches later, not sooner), the other answers
are read, and that same process is then still there and the slow request still unanswered.
"""

from __future__ import annotations

import json
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="progexec serve needs the serve extra")

from progexec.isolation import bwrap as bubblewrap  # noqa: E402

from .serve_harness import HOST, Served, post, request, start  # noqa: E402

pytestmark = pytest.mark.skipif(not bubblewrap.status().available, reason="no bubblewrap isolation on this machine")

WAITER = "```python\nimport select\ndef solution():\n    select.select([], [], [], 1000)\n    return 5\n```"
"""Waits without CPU and without a sleep the official alarm's emulation counts: only the wall-clock backstop ends it."""
LOOPER = "```python\ndef solution():\n    while True:\n        pass\n```"
HONEST = "```python\ndef solution():\n    return 2 + 3\n```"
GOLD = {"dialect": "financemath", "answer": 5}
CPU_SECONDS = 10
"""The looping solution's CPU limit: it runs at least this long, longer on a loaded machine."""
ZYGOTE_MARK = b"warm sandbox worker"
"""Words of the zygote's docstring, in its command line (``python -c SOURCE``) and so in its forked children's."""


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    server = start(limits={"solution_cpu_seconds": CPU_SECONDS, "solution_wall_seconds": 300})
    try:
        yield server
    finally:
        assert server.stop() == 0


def _processes() -> dict[int, tuple[int, bytes]]:
    """pid -> (parent pid, command line) of every process."""
    found: dict[int, tuple[int, bytes]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            found[int(entry.name)] = (int(stat.rsplit(")", 1)[1].split()[1]), cmdline)
    return found


def _solution_processes(root: int) -> set[int]:
    """The forked solution children below ``root``: a zygote's child that is itself a copy of the zygote."""
    table = _processes()
    below: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, (parent, _) in table.items() if parent in frontier and pid not in below}
        below |= frontier
    return {pid for pid in below if _zygote(table[pid][1]) and _zygote(table.get(table[pid][0], (0, b""))[1])}


def _zygote(cmdline: bytes) -> bool:
    """An interpreter running the zygote (bubblewrap's own processes name the source in their arguments too)."""
    program = cmdline.split(b"\0", 1)[0]
    return ZYGOTE_MARK in cmdline and not program.endswith(b"bwrap")


def _wait_for_solution(root: int) -> int:
    """The pid of the one solution running below ``root``, once it runs (polled; the bound is only a backstop)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        running = _solution_processes(root)
        if running:
            assert len(running) == 1, running
            return running.pop()
        time.sleep(0.05)
    raise AssertionError("no solution ever ran in the sandbox")


def _send_batch(port: int, items: list[dict[str, object]]) -> socket.socket:
    body = json.dumps({"items": items}).encode()
    sock = socket.create_connection((HOST, port), timeout=180)
    sock.sendall(b"POST /batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                 b"Connection: close\r\n\r\n" % len(body) + body)
    return sock


def _read_answer(sock: socket.socket) -> dict[str, object]:
    response = b""
    while chunk := sock.recv(65536):
        response += chunk
    sock.close()
    head, _, payload = response.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), head
    answer: dict[str, object] = json.loads(payload)
    return answer


def test_a_looping_solution_stalls_no_other_request(served: Served) -> None:
    slow = _send_batch(served.port, [{"id": "slow", "completion": LOOPER, "gold": GOLD}])  # 150 bytes: "inline"
    looper = _wait_for_solution(served.process.pid)
    status, health = request(served.port, "GET", "/health")
    assert status == 200 and health["status"] == "ok"
    status, finqa = post(served.port, "/get_reward", {"query": ["Answer: 3.5"], "prompts": [""],
                                                      "labels": ['{"answer": 3.5}']})
    assert status == 200 and finqa["rewards"] == [1.0]
    status, other = post(served.port, "/batch", {"items": [{"id": "honest", "completion": HONEST, "gold": GOLD}]})
    assert status == 200 and other["results"][0]["score"] == 1.0  # another client's solution, in another lane
    # all three were answered while the looping solution was still running, its request still unanswered
    assert looper in _solution_processes(served.process.pid)
    assert select.select([slow], [], [], 0)[0] == []
    answer = _read_answer(slow)
    result = answer["results"][0]  # type: ignore[index]
    assert result["score"] == 0.0 and "time_limit" in result["reason"], result


def test_a_requests_budget_ends_its_own_unstarted_items() -> None:
    """Budget 1 s; the first item waits until its 3 s wall limit, so the next two are never started."""
    server = start(limits={"solution_wall_seconds": 3, "solution_cpu_seconds": 1,
                           "serve_solution_request_seconds": 1})
    try:
        items = [{"id": index, "completion": WAITER, "gold": GOLD} for index in range(3)]
        items.append({"id": "finqa", "completion": "Answer: 3.5", "gold": {"answer": 3.5}})
        answer = _read_answer(_send_batch(server.port, items))
        results = answer["results"]
        assert isinstance(results, list) and [item["id"] for item in results] == [0, 1, 2, "finqa"]
        assert "no result within the wall-clock backstop" in results[0]["reason"]
        for item in results[1:3]:
            assert item["score"] == 0.0 and "budget ran out before this solution ran" in item["reason"], item
        assert results[3]["score"] == 1.0  # a FinQA item of the same request is not a sandbox item: not budgeted
        status, other = post(server.port, "/batch", {"items": [{"id": "next", "completion": HONEST, "gold": GOLD}]})
        assert status == 200 and other["results"][0]["score"] == 1.0  # the next request has a budget of its own
    finally:
        assert server.stop() == 0


@pytest.mark.parametrize("body, expected", [
    (b'{"items": [{"id": 1, "completion": "Answer: 3", "gold": {"answer": 3}}]}', False),
    (b'{"items": [{"id": 1, "completion": "x", "gold": {"dialect": "financemath", "answer": 3}}]}', True),
    (b'{"items": [{"id": 1, "completion": "x", "gold": "{\\"dialect\\": \\"docmath\\", \\"answer\\": 3}"}]}', True),
    # spelled with a JSON escape, so the raw bytes never hold the name: decided on the decoded body
    (b'{"items": [{"id": 1, "completion": "x", "gold": {"dialect": "\\u0066inancemath", "answer": 3}}]}', True),
    (b'{"query": ["x"], "prompts": [""], "labels": ["{\\"dialect\\": \\"financemath\\", \\"answer\\": 3}"]}', True),
])
def test_a_request_that_runs_solutions_is_recognised_after_decoding(body: bytes, expected: bool) -> None:
    from progexec.reward.server import RewardApp
    decoded = RewardApp().decode(body)
    assert decoded.sandboxed is expected  # type: ignore[union-attr]
