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
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
REQUEST_TIMEOUT = 10.0
"""A request (connect, send, answer) that takes longer is counted as failed (TimeoutError)."""
PAYLOAD = json.dumps({"query": ["The margin rose from 10.2% to 12.5%.\nAnswer: 12.5%"], "prompts": [""],
                      "labels": ['{"answer": 0.125}']}).encode()


def _request(keep_alive: bool) -> bytes:
    connection = b"keep-alive" if keep_alive else b"close"
    return (b"POST /get_reward HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nConnection: "
            + connection + b"\r\nContent-Length: " + str(len(PAYLOAD)).encode() + b"\r\n\r\n" + PAYLOAD)


async def _read_response(reader: asyncio.StreamReader) -> int:
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    await reader.readexactly(length)
    return status


async def _client(port: int, keep_alive: bool, until: float, latencies: list[float], failures: list[str]) -> None:
    request = _request(keep_alive)
    writer: asyncio.StreamWriter | None = None
    reader: asyncio.StreamReader | None = None
    while time.monotonic() < until:
        started = time.monotonic()
        try:
            if writer is None or reader is None:
                reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), REQUEST_TIMEOUT)
            writer.write(request)
            status = await asyncio.wait_for(_read_response(reader), REQUEST_TIMEOUT)
            if status != 200:
                failures.append(str(status))
            else:
                latencies.append(time.monotonic() - started)
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError) as error:
            failures.append(type(error).__name__)
            if writer is not None:
                writer.close()
            writer = reader = None
            continue
        if not keep_alive:
            writer.close()
            writer = reader = None
    if writer is not None:
        writer.close()


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
    time.sleep(1.0 if workers > 1 else 0.2)  # the spawned workers import progexec before they accept
    return process, int(line[0].split(f"{HOST}:")[1].split()[0])


def _row(label: str, pattern: str, seconds: float, latencies: list[float], failures: list[str]) -> str:
    ordered = sorted(latencies)

    def quantile(q: float) -> str:
        return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.0f} ms" if ordered else "-"

    failed = f"{len(failures)} ({', '.join(sorted(set(failures)))})" if failures else "0"
    return (f"| {label} | {pattern} | {len(latencies) / seconds:,.0f} | {quantile(0.5)} | {quantile(0.99)} | "
            f"{(ordered[-1] * 1000 if ordered else 0):.0f} ms | {failed} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", default="1,2", help="worker counts to start, comma-separated (default 1,2)")
    parser.add_argument("--port", type=int, help="measure a server already listening on 127.0.0.1:PORT instead")
    parser.add_argument("--clients", type=int, default=50, help="concurrent clients (default 50)")
    parser.add_argument("--seconds", type=float, default=8.0, help="seconds per measurement (default 8, at most 30)")
    args = parser.parse_args()
    seconds = min(args.seconds, 30.0)
    print(f"{args.clients} clients, {seconds:g} s per row, POST /get_reward with one sample, {os.cpu_count()} cores")
    print("| server | pattern | requests/s | p50 | p99 | max | failed |")
    print("|---|---|---|---|---|---|---|")
    targets: list[tuple[str, int | None]] = ([("running", None)] if args.port else
                                             [(f"{count} worker{'s' if count != '1' else ''}", int(count))
                                              for count in args.workers.split(",")])
    for label, workers in targets:
        process, port = (None, args.port) if workers is None else _start(workers)
        try:
            for pattern, keep_alive in (("connection per request", False), ("keep-alive", True)):
                latencies, failures = asyncio.run(_run(port, args.clients, seconds, keep_alive))
                print(_row(label, pattern, seconds, latencies, failures), flush=True)
        finally:
            if process is not None:
                process.terminate()
                process.wait(timeout=60)
    return 0


if __name__ == "__main__":
    sys.exit(main())
