"""``progexec serve``'s HTTP layer: uvicorn (the ``serve`` extra) with h11, plus the deadlines uvicorn lacks.

:class:`GuardedH11Protocol` is uvicorn's h11 connection with two clocks, both backstops a client
can only trip by stalling: the whole-request deadline (``serve_request_seconds``: headers and body
must arrive within it of the request's first byte, and a new connection must start a request
within it; past it the client gets 408 and the connection is closed) and the write deadline
(``serve_write_seconds``: once the server has to wait for the client to read, the pending answer
must be taken within it, else the connection is dropped). h11 parses strictly (a Content-Length of
digits only; two different ones or a bad request line are a 400), and a request line with headers
over ``serve_header_bytes`` (16 KiB) is a 400 however it arrives (h11 alone bounds only a head that
arrives in pieces).
:func:`serve` listens with a backlog of ``serve_listen_backlog`` (a ``Limits`` field) and runs ``workers`` processes on
the one socket.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import signal
import socket
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..core.limits import current
from ..core.errors import SetupError
from .server import RewardApp



class ServeConfig(uvicorn.Config):
    """uvicorn's configuration with the two deadlines (copied to every worker process with it)."""

    def __init__(self, app: RewardApp, **options: Any) -> None:
        super().__init__(app, **options)
        self.request_seconds = app.limits.serve_request_seconds
        self.write_seconds = app.limits.serve_write_seconds
        self.header_bytes = app.limits.serve_header_bytes


def _timeout_answer() -> bytes:
    body = json.dumps({"error": "the request did not arrive whole within serve_request_seconds"}).encode()
    return (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\ncontent-length: "
            + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n" + body)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the whole-request and write deadlines (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._request_seconds = float(getattr(self.config, "request_seconds", 30.0))
        self._write_seconds = float(getattr(self.config, "write_seconds", 30.0))
        self._header_bytes = int(getattr(self.config, "header_bytes", 16 * 1024))
        self._request_timer: asyncio.TimerHandle | None = None
        self._write_timer: asyncio.TimerHandle | None = None
        self._waiting = True  # no byte of the next request has arrived yet

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_request()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_timers()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._waiting and data:
            self._waiting = False
            self._arm_request()  # the request's own clock starts at its first byte
        if self.conn.their_state is h11.IDLE and self._head_too_long(data):
            self.send_400_response("the request line and headers are over serve_header_bytes")
            return
        super().data_received(data)
        self._after_events()

    def _head_too_long(self, data: bytes) -> bool:
        """True when the request line and headers being read (up to the blank line, or all so far) are
        over ``serve_header_bytes``; h11 checks only a head still incomplete, so one sent whole passed."""
        buffered = self.conn.trailing_data[0]
        if len(buffered) + len(data) <= self._header_bytes:
            return False
        head = bytes(buffered) + data
        end = head.find(b"\r\n\r\n")
        return (len(head) if end < 0 else end) > self._header_bytes

    def on_response_complete(self) -> None:
        if (self.conn.our_state is h11.DONE and self.conn.their_state is h11.DONE and not self.transport.is_closing()
                and self._head_too_long(b"")):  # a pipelined next request, already read, whose head is too long
            self.send_400_response("the request line and headers are over serve_header_bytes")
            return
        super().on_response_complete()  # may already have read a pipelined next request
        if self.transport.is_closing():
            return
        if self.transport.get_write_buffer_size():
            self._arm_write()
        if self.conn.their_state is not h11.DONE:
            self._waiting = self.conn.their_state is h11.IDLE and not self.conn.trailing_data[0]
            self._arm_request()

    def pause_writing(self) -> None:
        super().pause_writing()
        self._arm_write()

    def send_400_response(self, msg: str) -> None:
        """A request h11 cannot parse: a JSON 400, and the connection is closed."""
        body = json.dumps({"error": "not a valid HTTP/1.1 request (request line, headers, or Content-Length "
                                    "framing)"}).encode()
        self.transport.write(b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: "
                             + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n" + body)
        self._close()

    def _after_events(self) -> None:
        """Stop the request clock once the whole request is in."""
        if self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED) and self._request_timer is not None:
            self._request_timer.cancel()
            self._request_timer = None

    def _arm_request(self) -> None:
        if self._request_timer is not None:
            self._request_timer.cancel()
            self._request_timer = None
        if self._request_seconds > 0:  # 0: no deadline
            self._request_timer = self.loop.call_later(self._request_seconds, self._request_deadline)

    def _arm_write(self) -> None:
        if self._write_timer is None and self._write_seconds > 0:
            self._write_timer = self.loop.call_later(self._write_seconds, self._write_deadline)

    def _request_deadline(self) -> None:
        self._request_timer = None
        if self.transport.is_closing() or self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED):
            return
        started = not self._waiting or self.conn.their_state is not h11.IDLE
        if started and (self.cycle is None or not self.cycle.response_started):
            self.transport.write(_timeout_answer())
        self._close()

    def _write_deadline(self) -> None:
        self._write_timer = None
        if self.transport.get_write_buffer_size():  # still not taken: drop the answer and the connection
            self.transport.abort()

    def _close(self) -> None:
        """Close now: gracefully when everything is written, else drop what the client did not take."""
        if self.transport.get_write_buffer_size():
            self.transport.abort()
        else:
            self.transport.close()

    def _cancel_timers(self) -> None:
        for timer in (self._request_timer, self._write_timer):
            if timer is not None:
                timer.cancel()
        self._request_timer = self._write_timer = None


def listening_socket(host: str, port: int, backlog: int | None = None) -> socket.socket:
    """A TCP socket bound to ``host:port`` (port 0 picks one) and listening with ``backlog``."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(current().serve_listen_backlog if backlog is None else backlog)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def serve(app: RewardApp, sock: socket.socket, workers: int = 1,
          on_ready: Callable[[], None] | None = None) -> None:
    """Serve ``app`` on a listening socket until SIGINT/SIGTERM, in ``workers`` processes."""
    config = ServeConfig(app, http=GuardedH11Protocol, ws="none", lifespan="off", interface="asgi3",
                         loop="asyncio", workers=workers, backlog=current().serve_listen_backlog, log_level="error",
                         access_log=False, proxy_headers=False, server_header=False,
                         timeout_keep_alive=current().serve_keep_alive_seconds,
                         h11_max_incomplete_event_size=app.limits.serve_header_bytes,
                         timeout_graceful_shutdown=max(1, int(app.limits.serve_request_seconds)))
    if on_ready is not None:
        on_ready()
    if workers <= 1:
        uvicorn.Server(config).run(sockets=[sock])
    else:
        _supervise(config, sock, workers)


def _worker(config: ServeConfig, sock: socket.socket) -> None:
    """One worker process: uvicorn on the shared socket until SIGINT/SIGTERM."""
    uvicorn.Server(config).run(sockets=[sock])


def _supervise(config: ServeConfig, sock: socket.socket, workers: int) -> None:
    """Run ``workers`` spawned processes on one socket; restart one that dies, stop all on SIGINT/SIGTERM."""
    context = multiprocessing.get_context("spawn")
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    def start() -> tuple[multiprocessing.process.BaseProcess, float]:
        process = context.Process(target=_worker, args=(config, sock), name="progexec-serve-worker")
        process.start()
        return process, time.monotonic()

    previous = {number: signal.signal(number, on_signal) for number in (signal.SIGINT, signal.SIGTERM)}
    processes = [start() for _ in range(workers)]
    try:
        while not stop.wait(0.5):
            for index, (process, started) in enumerate(processes):
                if process.is_alive():
                    continue
                if time.monotonic() - started < current().serve_startup_seconds:
                    raise SetupError(f"a worker process exited at start-up (exit code {process.exitcode})")
                processes[index] = start()
    finally:
        for process, _ in processes:
            if process.is_alive():
                process.terminate()  # SIGTERM: uvicorn finishes the requests in hand
        for process, _ in processes:
            process.join(timeout=(config.timeout_graceful_shutdown or 0) + 5)
            if process.is_alive():
                process.kill()
                process.join()
        for number, handler in previous.items():
            signal.signal(number, handler)
