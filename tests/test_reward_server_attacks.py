"""``progexec serve`` attacked on loopback, as a hostile client would: trickling headers and bodies,
answers never read, 200 clients at once, bad Content-Length forms, lone surrogates, huge integers,
huge bodies. Every request loop is bounded in count and time. The servers run with 2-second
deadlines so the clocks fire well inside each test's bound."""

from __future__ import annotations

import json
import re
import select
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="progexec serve needs the serve extra")

from .serve_harness import HOST, Served, peak_memory_kib, post, raw_exchange, request, start  # noqa: E402

DEADLINES = {"serve_request_seconds": 2, "serve_write_seconds": 2}
NARROW = {**DEADLINES, "serve_active_requests": 2, "serve_queued_requests": 2}
"""Two working slots and two waiting: six hostile clients are more than the server has."""
HONEST = {"query": ["Answer: 3.5"], "prompts": [""], "labels": ['{"answer": 3.5}']}
TRICKLE_STEPS = 60
TRICKLE_PAUSE = 0.25
"""A trickling client sends one byte every 0.25 s for at most 60 bytes (15 s): far past the 2 s deadline."""


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    server = start(limits=DEADLINES)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def narrow() -> Iterator[Served]:
    server = start(limits=NARROW)
    try:
        yield server
    finally:
        server.stop()


def _trickle(port: int, head: bytes, outcome: list[str], started: threading.Barrier | None = None) -> None:
    """Send ``head``, then one byte at a time; record how the server ended it ('408', 'closed' or 'never').
    ``started``: passed once the head and the first byte are sent (the client is mid-request)."""
    with socket.create_connection((HOST, port), timeout=30) as sock:
        sock.sendall(head)
        for step in range(TRICKLE_STEPS):
            if step == 1 and started is not None:
                started.wait(60)
            time.sleep(TRICKLE_PAUSE)
            readable, _, _ = select.select([sock], [], [], 0)
            if readable:
                try:
                    data = sock.recv(4096)
                except ConnectionResetError:
                    data = b""
                outcome.append("408" if data.startswith(b"HTTP/1.1 408") else "closed")
                return
            try:
                sock.sendall(b"1")
            except (BrokenPipeError, ConnectionResetError):
                try:
                    data = sock.recv(4096)
                except OSError:
                    data = b""
                outcome.append("408" if data.startswith(b"HTTP/1.1 408") else "closed")
                return
        outcome.append("never")


def test_clients_trickling_bodies_hold_no_slot_and_are_cut_off(narrow: Served) -> None:
    """Six clients send a POST's headers and trickle its body: an honest request still gets 200, and
    each trickler is answered 408 and disconnected (the old server: 503 for as long as they trickle)."""
    head = (b"POST /batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{")
    outcomes: list[str] = []
    started = threading.Barrier(7)
    clients = [threading.Thread(target=_trickle, args=(narrow.port, head, outcomes, started)) for _ in range(6)]
    for client in clients:
        client.start()
    started.wait(60)  # every trickler is connected and mid-body before the honest request is sent
    status, body = post(narrow.port, "/get_reward", HONEST)
    for client in clients:
        client.join(timeout=TRICKLE_STEPS * TRICKLE_PAUSE + 30)
    assert status == 200 and body["rewards"] == [1.0]
    # each was ended by the server; a 408 can be lost only if the close races a byte being sent
    assert len(outcomes) == 6 and set(outcomes) <= {"408", "closed"} and "408" in outcomes


def test_a_client_trickling_its_headers_is_cut_off(served: Served) -> None:
    outcome: list[str] = []
    _trickle(served.port, b"POST /batch HTTP/1.1\r\nHost: x\r\nX-Slow: ", outcome)
    assert outcome in (["408"], ["closed"])  # ended by the server, never left open


def test_a_silent_connection_is_closed(served: Served) -> None:
    with socket.create_connection((HOST, served.port), timeout=30) as sock:
        sock.settimeout(TRICKLE_STEPS * TRICKLE_PAUSE)
        try:
            data = sock.recv(4096)
        except socket.timeout:
            data = b"still open"
        except ConnectionResetError:
            data = b""
    assert data == b""


def _unread_batch(port: int, size: int, sockets: list[socket.socket]) -> None:
    """A /batch whose answer is over ``size`` bytes (an echoed id), sent by a client that never reads."""
    payload = json.dumps({"items": [{"id": "x" * size, "completion": "Answer: 1", "gold": {"answer": 1}}]}).encode()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(60)
    sock.connect((HOST, port))
    sock.sendall(b"POST /batch HTTP/1.1\r\nHost: x\r\nContent-Length: " + str(len(payload)).encode()
                 + b"\r\n\r\n" + payload)
    sockets.append(sock)


def _server_end_open(sock: socket.socket) -> bool:
    """Whether the server's end of this loopback connection is still an established socket (``/proc/net/tcp``):
    a server that dropped it (aborted or closed) has none. A client that does not read cannot see the drop
    itself: with its window full, the kernel ignores the server's reset until it reads."""
    client_port = sock.getsockname()[1]
    server_port = sock.getpeername()[1]
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, state = fields[1], fields[2], fields[3]
        if int(local.split(":")[1], 16) == server_port and int(remote.split(":")[1], 16) == client_port:
            return state == "01"  # TCP_ESTABLISHED
    return False


def _wait_dropped(sock: socket.socket, backstop: float) -> bool:
    """Whether the server dropped the connection (polled from the kernel's sockets; ``backstop`` bounds the wait)."""
    deadline = time.monotonic() + backstop
    while time.monotonic() < deadline:
        if not _server_end_open(sock):
            return True
        time.sleep(0.05)
    return False


def test_answers_left_unread_hold_no_slot_and_are_dropped(narrow: Served) -> None:
    """Six clients never read their 8 MB answers: an honest request still gets 200, and each unread
    answer is dropped with its connection after the write deadline (the old server: 503)."""
    size = 8 * 1024 * 1024
    sockets: list[socket.socket] = []
    try:
        for _ in range(6):
            _unread_batch(narrow.port, size, sockets)
        for sock in sockets:  # each answer has begun to arrive: the server did the work and waits on the client
            assert select.select([sock], [], [], 60)[0] == [sock]
        status, body = post(narrow.port, "/get_reward", HONEST)
        assert status == 200 and body["rewards"] == [1.0]
        for sock in sockets:  # the server dropped each connection (seen without reading it)
            assert _wait_dropped(sock, 60)
        for sock in sockets:
            received = 0
            try:
                while chunk := sock.recv(1 << 20):
                    received += len(chunk)
            except ConnectionResetError:
                pass
            assert received < size  # dropped: the rest of the answer never came
    finally:
        for sock in sockets:
            sock.close()


def test_two_hundred_clients_at_once_are_all_answered(served: Served) -> None:
    """200 clients connect at the same moment: with a listen backlog of 2,048 none is reset
    (the old server's backlog of 5 reset 83-106 of them)."""
    results: list[object] = []
    barrier = threading.Barrier(200)

    def client() -> None:
        try:
            barrier.wait(timeout=60)
            results.append(post(served.port, "/get_reward", HONEST)[0])
        except (OSError, threading.BrokenBarrierError) as error:
            results.append(type(error).__name__)

    threads = [threading.Thread(target=client) for _ in range(200)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=180)
    assert results == [200] * 200


@pytest.mark.skipif(shutil.which("ss") is None, reason="needs ss (iproute2)")
def test_the_listen_backlog_is_at_least_1024(served: Served) -> None:
    listing = subprocess.run(["ss", "-ltnH", f"sport = :{served.port}"], capture_output=True, text=True,
                             timeout=30).stdout.split()
    assert listing and int(listing[2]) >= 1024  # State Recv-Q Send-Q: Send-Q is the backlog


SMUGGLED = b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
BODY = b'{"items":[]}'


@pytest.mark.parametrize(("headers", "code"), [
    (b"Content-Length: 1_2\r\n", 400),
    (b"Content-Length: +12\r\n", 400),
    (b"Content-Length: -12\r\n", 400),
    (b"Content-Length: 0x0c\r\n", 400),
    (b"Content-Length: 12.0\r\n", 400),
    (b"Content-Length: 1e1\r\n", 400),
    (b"Content-Length: \xd9\xa1\xd9\xa2\r\n", 400),  # Arabic-Indic digits
    (b"Content-Length: 12, 13\r\n", 400),
    (b"Content-Length: 12\r\nContent-Length: 13\r\n", 400),
    (b"Content-Length: 12\r\nTransfer-Encoding: chunked\r\n", 400),
    (b"Transfer-Encoding: chunked\r\n", 411),
])
def test_bad_content_length_forms_are_refused_and_close(served: Served, headers: bytes, code: int) -> None:
    """Each form is refused with one JSON error and the connection closed: the request behind the body
    (a smuggling attempt) is never answered. The old server read 1_2 and +12 as 12."""
    body = b"c\r\n" + BODY + b"\r\n0\r\n\r\n" if b"chunked" in headers else BODY
    answer = raw_exchange(served.port, b"POST /batch HTTP/1.1\r\nHost: x\r\n" + headers + b"\r\n" + body + SMUGGLED)
    assert _statuses(answer) == [code], answer[:300]
    head, _, payload = answer.partition(b"\r\n\r\n")
    assert b"connection: close" in head.lower() and "error" in json.loads(payload)


@pytest.mark.parametrize("headers", [b"Content-Length: 12, 12\r\n", b"Content-Length: 12\r\nContent-Length: 12\r\n"])
def test_a_repeated_identical_content_length_is_one_length(served: Served, headers: bytes) -> None:
    """RFC 9110 section 8.6: identical repeated values are one length (every reader frames the body
    alike, so nothing can be smuggled): the body is 12 bytes and the next request is read after it."""
    answer = raw_exchange(served.port, b"POST /batch HTTP/1.1\r\nHost: x\r\n" + headers + b"\r\n" + BODY
                          + SMUGGLED.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n"))
    assert _statuses(answer) == [200, 200] and b'{"results": []}' in answer and b'"status": "ok"' in answer


def _statuses(answer: bytes) -> list[int]:
    return [int(code) for code in re.findall(rb"HTTP/1\.1 (\d{3}) ", answer)]


def test_lone_surrogates_and_huge_integers_are_item_errors_in_a_200(served: Served) -> None:
    """One unusable item is one bad_input record; its neighbours are scored (the old server lost the
    whole answer to a surrogate or a 400-digit id, and did not answer a 5,000-digit integer at all)."""
    good = '{"id": "good", "completion": "Answer: 3.5", "gold": {"answer": 3.5}}'
    unusable = [
        '{"id": "s1", "completion": "Answer: \\ud800", "gold": {"answer": 3.5}}',
        '{"id": "\\udfff", "completion": "Answer: 3.5", "gold": {"answer": 3.5}}',
        '{"id": ' + "9" * 400 + ', "completion": "Answer: 3.5", "gold": {"answer": 3.5}}',
        '{"id": ' + "7" * 5000 + ', "completion": "Answer: 3.5", "gold": {"answer": 3.5}}',
        '{"id": "g", "completion": "Answer: 3.5", "gold": {"answer": ' + "1" * 5000 + '}}',
        '{"id": "f", "completion": "Answer: 3.5", "gold": {"answer": 1e999}}',
        '{"id": "n", "completion": "Answer: 3.5", "gold": {"answer": NaN}}',
    ]
    body = ('{"items": [' + ", ".join([good, *unusable, good]) + "]}").encode()
    status, answer = request(served.port, "POST", "/batch", body)
    assert status == 200
    results = answer["results"]
    assert [result["line"] for result in results] == list(range(1, len(unusable) + 3))
    assert [result["status"] for result in results] == ["ok", *["bad_input"] * len(unusable), "ok"]
    reasons = [result["reason"] for result in results[1:-1]]
    assert "surrogate" in reasons[0] and "surrogate" in reasons[1]
    assert "400 digits" in reasons[2] and "5000 digits" in reasons[3] and "5000 digits" in reasons[4]
    assert "range of a double" in reasons[5] and "NaN is not a JSON number" in reasons[6]


def test_openrlhf_samples_with_unusable_values_are_a_400_naming_them(served: Served) -> None:
    """/get_reward has no "does not apply": a sample holding an unusable value is refused, never a silent 0."""
    label = '"{\\"answer\\": 3.5}"'
    for queries, labels, named in [('"Answer: 3.5", "Answer: \\ud800"', f"{label}, {label}", "query[1]: a lone surrogate"),
                                   ('"Answer: 3.5", "Answer: 3.5"', f"{label}, " + "5" * 5000, "labels[1]: an integer of 5000")]:
        body = f'{{"query": [{queries}], "prompts": ["", ""], "labels": [{labels}]}}'.encode()
        status, answer = request(served.port, "POST", "/get_reward", body)
        assert status == 400 and answer["error"].startswith(named), answer


@pytest.mark.parametrize("body", [b"7" * 5000, b'{"items": [], "policy": ' + b"8" * 5000 + b"}"])
def test_an_unusable_body_is_a_400_json_error(served: Served, body: bytes) -> None:
    status, answer = request(served.port, "POST", "/batch", body)
    assert status == 400 and isinstance(answer["error"], str)


def test_a_16_mib_body_of_empty_lists_costs_no_more_than_its_size() -> None:
    """16 MiB of ``[],[],...`` is refused before it is decoded: the server's peak memory grows by
    about the body, not by the 5.6 million lists (the old server grew ~430 MB and kept it)."""
    server = start(limits=DEADLINES)
    try:
        before = peak_memory_kib(server.process.pid)
        count = (16 * 1024 * 1024 - 2) // 3
        body = b"[" + b"[]," * (count - 1) + b"[]]"
        status, answer = request(server.port, "POST", "/batch", body)
        after = peak_memory_kib(server.process.pid)
        assert status == 400 and "max_request_values" in answer["error"]
        assert (after - before) * 1024 < 3 * len(body), (before, after)
        assert request(server.port, "GET", "/health")[0] == 200
    finally:
        server.stop()


def test_a_body_over_the_limit_is_refused_unread(served: Served) -> None:
    answer = raw_exchange(served.port, b"POST /batch HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\n{")
    assert answer.startswith(b"HTTP/1.1 413 ")


@pytest.mark.parametrize("size", [20 * 1024, 17 * 1024])
def test_headers_over_16_kib_sent_whole_are_refused(served: Served, size: int) -> None:
    """docs/serve.md: headers over 16 KiB are a 400 and the connection is closed. h11 alone checks only a head
    that arrives in pieces, so a 20 KiB header sent in one write used to get 200."""
    head = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * size + b"\r\n\r\n"
    answer = raw_exchange(served.port, head)
    assert _statuses(answer) == [400], answer[:300]
    assert "error" in json.loads(answer.partition(b"\r\n\r\n")[2])


def test_a_pipelined_request_with_headers_over_16_kib_is_refused(served: Served) -> None:
    small = b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
    big = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (20 * 1024) + b"\r\n\r\n"
    assert _statuses(raw_exchange(served.port, small + big)) == [200, 400]


def test_headers_just_under_16_kib_are_read(served: Served) -> None:
    head = b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: " + b"a" * (15 * 1024) + b"\r\n\r\n"
    assert _statuses(raw_exchange(served.port, head)) == [200]


def test_a_body_starting_with_a_bom_is_read_as_the_readers_read_it(served: Served) -> None:
    """The readers drop a UTF-8 BOM; so does serve (it used to answer 400)."""
    body = "\ufeff".encode() + json.dumps({"items": [{"id": "b", "completion": "Answer: 3.5",
                                                      "gold": {"answer": 3.5}}]}).encode()
    status, answer = request(served.port, "POST", "/batch", body, {"Content-Type": "application/json"})
    assert status == 200 and [result["score"] for result in answer["results"]] == [1.0]
