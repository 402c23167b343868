"""``progexec serve``: the reward over HTTP, on the standard library's threading server.

Endpoints: ``GET /health``; ``POST /get_reward`` in OpenRLHF's shape (see :mod:`.remote`);
``POST /batch`` with ``{"items": [{"id", "completion", "gold", "policy"?}, ...], "policy"?}`` giving
``{"results": [...]}``, one record per item in order (the ``progexec reward`` output lines, with
``line`` the item's 1-based position). Each request runs in its own thread; a body over
:data:`MAX_REQUEST_BYTES` is refused with 413 before it is read, a request with more than
:data:`MAX_ITEMS` items with 413, and every item's work is bounded by the reward's own size
limits, so no request can hold the server. At most :data:`MAX_ACTIVE_REQUESTS` requests are
worked on at once; more get 503 at once instead of queueing behind a long one.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ..jsonrecords import decode_marked
from ..limits import DEFAULT_LIMITS, current
from ..textsource import InputError
from .batch import score_item
from .gold import GoldRecordError, parse_policy
from .model import Policy
from .remote import PayloadError, check_payload, openrlhf_rewards

MAX_REQUEST_BYTES = DEFAULT_LIMITS.max_request_bytes
"""The default (``max_request_bytes``): a request body over this is refused with 413 before it is read."""
MAX_ITEMS = DEFAULT_LIMITS.max_request_items
"""The default (``max_request_items``): a request with more samples (queries or items) is refused with 413."""
MAX_ACTIVE_REQUESTS = 32
# bound: MAX_ACTIVE_REQUESTS = 32 — requests worked on at once; more are answered 503 at once
SOCKET_TIMEOUT = 30.0
# bound: SOCKET_TIMEOUT = 30 s — a client that stops sending or reading is disconnected


class _Refusal(Exception):
    """A request answered with an error status and a JSON ``{"error": ...}`` body."""

    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class RewardServer(ThreadingHTTPServer):
    """The threading server with the default policy and the active-request gate."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], default_policy: Policy | None = None) -> None:
        super().__init__(address, RewardHandler)
        self.default_policy = default_policy
        self.gate = threading.BoundedSemaphore(MAX_ACTIVE_REQUESTS)


class RewardHandler(BaseHTTPRequestHandler):
    """One connection; every answer is JSON with a Content-Length."""

    protocol_version = "HTTP/1.1"
    timeout = SOCKET_TIMEOUT
    server: RewardServer

    def do_GET(self) -> None:  # noqa: N802 (the name http.server dispatches to)
        if self.path.split("?", 1)[0] == "/health":
            self._send(HTTPStatus.OK, {"status": "ok", "max_request_bytes": current().max_request_bytes,
                                       "max_items": current().max_request_items})
        else:
            self._send(HTTPStatus.NOT_FOUND, {"error": f"no such endpoint: GET {self.path[:200]}"})

    def do_POST(self) -> None:  # noqa: N802
        route = self.path.split("?", 1)[0]
        if route not in ("/get_reward", "/batch"):
            self._discard_body()
            self._send(HTTPStatus.NOT_FOUND, {"error": f"no such endpoint: POST {self.path[:200]}"})
            return
        if not self.server.gate.acquire(blocking=False):
            self._discard_body()
            self._send(HTTPStatus.SERVICE_UNAVAILABLE, {"error": "the server is busy; retry"})
            return
        try:
            body = self._read_json()
            answer = _get_reward(body, self.server.default_policy) if route == "/get_reward" \
                else _batch(body, self.server.default_policy)
        except _Refusal as refusal:
            self._send(refusal.status, {"error": refusal.message})
        else:
            self._send(HTTPStatus.OK, answer)
        finally:
            self.server.gate.release()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class's name)
        """Quiet: the reward server logs nothing per request."""

    def _length(self) -> int:
        raw = self.headers.get("Content-Length")
        if raw is None:
            self.close_connection = True
            raise _Refusal(HTTPStatus.LENGTH_REQUIRED, "a Content-Length header is required")
        try:
            length = int(raw)
        except ValueError:
            self.close_connection = True
            raise _Refusal(HTTPStatus.BAD_REQUEST, f"bad Content-Length {raw[:40]!r}") from None
        if length < 0:
            self.close_connection = True
            raise _Refusal(HTTPStatus.BAD_REQUEST, f"bad Content-Length {raw[:40]!r}")
        if length > (bound := current().max_request_bytes):
            self.close_connection = True  # the body is never read
            raise _Refusal(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                           f"the body is {length} bytes, over the limit of {bound}")
        return length

    def _read_json(self) -> Any:
        data = self.rfile.read(self._length())
        try:  # the readers' decoding: a huge integer or a lone surrogate makes only its item bad_input
            return decode_marked(data)
        except InputError as error:
            raise _Refusal(HTTPStatus.BAD_REQUEST, str(error)) from None

    def _discard_body(self) -> None:
        try:
            length = self._length()
        except _Refusal:
            return
        self.rfile.read(length)

    def _send(self, status: HTTPStatus, payload: Mapping[str, Any]) -> None:
        data = json.dumps(payload, ensure_ascii=False, allow_nan=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)


def _policy(body: Mapping[str, Any], default: Policy | None) -> Policy | None:
    if body.get("policy") is None:
        return default
    try:
        return parse_policy(body["policy"])
    except GoldRecordError as error:
        raise _Refusal(HTTPStatus.BAD_REQUEST, str(error)) from None


def _get_reward(body: Any, default: Policy | None) -> dict[str, Any]:
    try:
        queries, prompts, labels = check_payload(body)
    except PayloadError as error:
        raise _Refusal(HTTPStatus.BAD_REQUEST, str(error)) from None
    if len(queries) > (bound := current().max_request_items):
        raise _Refusal(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"{len(queries)} queries, over the limit of {bound}")
    return openrlhf_rewards(queries, prompts, labels, _policy(body, default))


def _batch(body: Any, default: Policy | None) -> dict[str, Any]:
    if not isinstance(body, Mapping) or not isinstance(body.get("items"), list):
        raise _Refusal(HTTPStatus.BAD_REQUEST, 'the body must be {"items": [...], "policy"?}')
    items = body["items"]
    if len(items) > (bound := current().max_request_items):
        raise _Refusal(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"{len(items)} items, over the limit of {bound}")
    policy = _policy(body, default)
    return {"results": [score_item(item, index + 1, policy) for index, item in enumerate(items)]}


def make_server(host: str = "127.0.0.1", port: int = 0, default_policy: Policy | None = None) -> RewardServer:
    """A bound, not yet serving, reward server (port 0 picks a free port: read ``server_address``)."""
    return RewardServer((host, port), default_policy)
