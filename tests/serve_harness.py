"""Helpers of the ``progexec serve`` tests: start the real command on a loopback port, speak HTTP to it
(plain and raw), and call the ASGI application in process."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"


@dataclass
class Served:
    """A running ``progexec serve`` process and its port."""

    process: subprocess.Popen[str]
    port: int
    banner: str

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.terminate()
        try:
            return self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait(timeout=30)


def environment() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT / "src"))


def start(*options: str, limits: Mapping[str, object] | None = None) -> Served:
    """``progexec serve --port 0 OPTIONS --limit NAME=VALUE...``, once it listens (its banner read)."""
    words = [sys.executable, "-m", "progexec", "serve", "--port", "0", *options]
    for name, value in (limits or {}).items():
        words += ["--limit", f"{name}={value}"]
    process = subprocess.Popen(words, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                               env=environment())
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.append(process.stderr.readline() if process.stderr else ""),
                              daemon=True)
    reader.start()
    reader.join(timeout=90)
    if not lines or "listening on http://" not in lines[0]:
        process.kill()
        raise RuntimeError(f"progexec serve did not start: {lines!r}")
    port = int(lines[0].split(f"{HOST}:")[1].split()[0])
    return Served(process, port, lines[0])


def request(port: int, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None, timeout: float = 120) -> tuple[int, Any]:
    """One request on its own connection: the status and the decoded JSON answer."""
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def post(port: int, path: str, payload: object) -> tuple[int, Any]:
    return request(port, "POST", path, json.dumps(payload).encode(), {"Content-Type": "application/json"})


def raw_exchange(port: int, data: bytes, timeout: float = 30) -> bytes:
    """Send raw bytes, then read until the server closes (or ``timeout`` passes)."""
    with socket.create_connection((HOST, port), timeout=timeout) as sock:
        sock.sendall(data)
        chunks: list[bytes] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except (socket.timeout, ConnectionResetError):
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)


def peak_memory_kib(pid: int) -> int:
    """The peak resident memory of a process (VmHWM, KiB)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise RuntimeError("no VmHWM")


def children(pid: int) -> list[int]:
    """The process ids whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def asgi_call(app: Any, method: str, path: str, body: bytes = b"",
              headers: list[tuple[bytes, bytes]] | None = None) -> tuple[int, dict[bytes, bytes], Any]:
    """Call the ASGI application in process: status, response headers, decoded JSON body."""
    if headers is None:
        headers = [(b"content-length", str(len(body)).encode())]
    return asyncio.run(_asgi(app, method, path, body, headers))


async def _asgi(app: Any, method: str, path: str, body: bytes,
                headers: list[tuple[bytes, bytes]]) -> tuple[int, dict[bytes, bytes], Any]:
    scope = {"type": "http", "method": method, "path": path, "headers": headers, "query_string": b""}
    sent: list[dict[str, Any]] = []
    chunks = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict[str, Any]:
        if chunks:
            return chunks.pop()
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    start_message = sent[0]
    payload = b"".join(message.get("body", b"") for message in sent[1:])
    return start_message["status"], dict(start_message["headers"]), json.loads(payload)
