"""Throughput and latency of ``progexec serve`` at 50 concurrent clients, on loopback.

Two client patterns: ``new`` opens one connection per request (OpenRLHF's remote reward client,
``requests.post`` without a session) and ``keepalive`` reuses one connection per client. Each
request is a ``POST /get_reward`` with one sample. The clients are asyncio tasks in this process,
so they share the machine with the server: the figures are for the whole loopback system.

    python benchmarks/bench_serve.py                      # starts progexec serve with 1, then 2 workers
    python benchmarks/bench_serve.py --workers 2 --seconds 10
    python benchmarks/bench_serve.py --port 8000          # a server already running on 127.0.0.1:8000

Prints one Markdown row per (workers, pattern): requests/s, p50, p99 and max latency, and the
requests that failed (connection resets, 503s). Runs for about 2 x 2 x ``--seconds`` seconds plus
start-up; the request loop is bounded by ``--seconds`` and only ever talks to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
WARM_UP_SECONDS = 3.0
"""Requests sent (and not measured) before each server's rows: spawned workers finish importing."""
REQUEST_TIMEOUT = 10.0
"""A request (connect, send, answer) that takes longer is counted as failed (TimeoutError)."""
PAYLOAD = json.dumps({"query": ["The margin rose from 10.2% to 12.5%.\nAnswer: 12.5%"], "prompts": [""],
                      "labels": ['{"answer": 0.125}']}).encode()


def _request(keep_alive: bool) -> bytes:
    connection = b"keep-alive" if keep_alive else b"close"
    return (b"POST /get_reward HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nConnection: "
            + connection + b"\r\nContent-Length: " + str(len(PAYLOAD)).encode() + b"\r\n\r\n" + PAYLOAD)


async def _read_response(loop: asyncio.AbstractEventLoop, sock: socket.socket) -> int:
    """Read one answer (headers, then Content-Length bytes); return its status."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = await loop.sock_recv(sock, 65536)
        if not chunk:
            raise ConnectionResetError("closed before the answer")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(body) < length:
        chunk = await loop.sock_recv(sock, 65536)
        if not chunk:
            raise ConnectionResetError("closed inside the answer")
        body += chunk
    return int(head.split(b" ", 2)[1])


async def _connect(loop: asyncio.AbstractEventLoop, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setblocking(False)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        await loop.sock_connect(sock, (HOST, port))
    except BaseException:
        sock.close()
        raise
    return sock


async def _exchange(loop: asyncio.AbstractEventLoop, sock: socket.socket, request: bytes) -> int:
    await loop.sock_sendall(sock, request)
    return await _read_response(loop, sock)


async def _client(port: int, keep_alive: bool, until: float, latencies: list[float], failures: list[str]) -> None:
    loop = asyncio.get_running_loop()
    request = _request(keep_alive)
    sock: socket.socket | None = None
    while time.monotonic() < until:
        started = time.monotonic()
        try:
            if sock is None:
                sock = await asyncio.wait_for(_connect(loop, port), REQUEST_TIMEOUT)
            status = await asyncio.wait_for(_exchange(loop, sock, request), REQUEST_TIMEOUT)
        except (OSError, asyncio.TimeoutError) as error:
            failures.append(type(error).__name__)
            if sock is not None:
                sock.close()
            sock = None
            continue
        if status != 200:
            failures.append(str(status))
        else:
            latencies.append(time.monotonic() - started)
        if not keep_alive:
            sock.close()
            sock = None
    if sock is not None:
        sock.close()


async def _run(port: int, clients: int, seconds: float, keep_alive: bool) -> tuple[list[float], list[str]]:
    latencies: list[float] = []
    failures: list[str] = []
    until = time.monotonic() + seconds
    await asyncio.gather(*(_client(port, keep_alive, until, latencies, failures) for _ in range(clients)))
    return latencies, failures


def _start(workers: int) -> tuple[subprocess.Popen[str], int]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    process = subprocess.Popen([sys.executable, "-m", "progexec", "serve", "--port", "0", "--workers", str(workers)],
                               stderr=subprocess.PIPE, text=True, env=env)
    line: list[str] = []
    reader = threading.Thread(target=lambda: line.append(process.stderr.readline() if process.stderr else ""),
                              daemon=True)
    reader.start()
    reader.join(timeout=120)
    if not line or "listening on" not in line[0]:
        process.kill()
        raise SystemExit(f"progexec serve did not start: {line}")
    return process, int(line[0].split(f"{HOST}:")[1].split()[0])


def _cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process and its children (the worker processes), in seconds."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == pid or int(fields[1]) == pid:
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def _row(label: str, pattern: str, seconds: float, latencies: list[float], failures: list[str],
         cpu: float | None) -> str:
    ordered = sorted(latencies)

    def quantile(q: float) -> str:
        return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.0f} ms" if ordered else "-"

    failed = f"{len(failures)} ({', '.join(sorted(set(failures)))})" if failures else "0"
    per_request = f"{cpu * 1000 / len(latencies):.2f} ms" if cpu is not None and latencies else "-"
    return (f"| {label} | {pattern} | {len(latencies) / seconds:,.0f} | {quantile(0.5)} | {quantile(0.99)} | "
            f"{(ordered[-1] * 1000 if ordered else 0):.0f} ms | {failed} | {per_request} |")


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False,
                                     description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", default="1,2", help="worker counts to start, comma-separated (default 1,2)")
    parser.add_argument("--port", type=int, help="measure a server already listening on 127.0.0.1:PORT instead")
    parser.add_argument("--pid", type=int, help="with --port: the server's process id, to measure its CPU time")
    parser.add_argument("--clients", type=int, default=50, help="concurrent clients (default 50)")
    parser.add_argument("--seconds", type=float, default=8.0, help="seconds per measurement (default 8, at most 30)")
    args = parser.parse_args()
    seconds = min(args.seconds, 30.0)
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"{args.clients} clients, {seconds:g} s per row, POST /get_reward with one sample, {os.cpu_count()} cores, "
          f"load average {load} before the run")
    print("| server | pattern | requests/s | p50 | p99 | max | failed | server CPU per request |")
    print("|---|---|---|---|---|---|---|---|")
    targets: list[tuple[str, int | None]] = ([("running", None)] if args.port else
                                             [(f"{count} worker{'s' if count != '1' else ''}", int(count))
                                              for count in args.workers.split(",")])
    for label, workers in targets:
        process, port = (None, args.port) if workers is None else _start(workers)
        pid = args.pid if process is None else process.pid
        try:
            asyncio.run(_run(port, args.clients, WARM_UP_SECONDS, True))  # every worker up and warm, not measured
            for pattern, keep_alive in (("connection per request", False), ("keep-alive", True)):
                before = _cpu_seconds(pid) if pid else None
                latencies, failures = asyncio.run(_run(port, args.clients, seconds, keep_alive))
                cpu = _cpu_seconds(pid) - before if pid and before is not None else None
                print(_row(label, pattern, seconds, latencies, failures, cpu), flush=True)
        finally:
            if process is not None:
                process.terminate()
                process.wait(timeout=60)
    return 0


if __name__ == "__main__":
    sys.exit(main())
