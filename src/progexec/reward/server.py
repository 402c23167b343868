"""``progexec serve``'s application: the reward over HTTP as an ASGI application (run by uvicorn, see
:mod:`.http_run`; any ASGI server can run it, without the connection deadlines).

Endpoints: ``GET /health``; ``POST /get_reward`` in OpenRLHF's shape (see :mod:`.remote`);
``POST /batch`` with ``{"items": [{"id", "completion", "gold", "policy"?}, ...], "policy"?}`` giving
``{"results": [...]}``, one record per item in order (the ``progexec reward`` output lines, with
``line`` the item's 1-based position).

A request is refused before its body is read when its framing is not one plain ``Content-Length``
(411 without one, 400 for two or with ``Transfer-Encoding``) or the length is over
``max_request_bytes`` (413). Only once the whole body is in does it ask for a working slot
(``serve_active_requests`` at once, ``serve_queued_requests`` waiting, 503 beyond), so a client
that trickles its body holds no slot. The body is decoded within counted bounds
(:mod:`.request_json`); an unusable body is 400 with ``{"error": ...}``, an unusable item a
``bad_input`` record inside the 200 answer (``/batch``) or, on ``/get_reward`` (whose contract has
no "does not apply"), a 400 naming the field and position (``labels[2]: ...``), as the OpenRLHF
reward file raises on the same samples (:func:`.remote.judge_samples`). The work
of a body over ``serve_inline_body_bytes`` runs in a thread (the event loop keeps reading and writing
other connections), and the slot is given back before the answer is written. A request whose body names
a dialect that runs Python solutions in the sandbox (FinanceMath, DocMath-Eval) is never worked on the
loop, whatever its size, nor in an in-process slot: it runs in a thread of its own executor, at most
``solution_lanes`` at once, each in a sandbox pool of its own (one request's slow solutions never hold up
another's), within the request's budget ``serve_solution_request_seconds``. So ``/health`` and FinQA-family
requests are answered while solutions run.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from ..core.limits import DEFAULT_LIMITS, Limits, current, using
from ..core.registry import sandboxed_reward_names
from ..isolation.budget import request_budget
from .batch import score_item
from .gold import parse_policy
from .model import DEFAULT_POLICY, Policy, RewardStatus, make_result
from .remote import check_payload, openrlhf_rewards
from ..core.errors import InputError, ProgexecError
from .request_json import decode_body, problem
from ..core.plural import plural

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

ROUTES = ("/get_reward", "/batch")
"""The POST endpoints."""
# milliseconds at most); a larger one in a worker thread, so the loop keeps serving other connections
MAX_ERROR_CHARS = DEFAULT_LIMITS.max_error_chars
"""An error message is cut to this length (it may quote the request)."""


class Refusal(ProgexecError):
    """A request answered with an error status and ``{"error": ...}``; ``close`` ends the connection
    (its body was not read, or its framing cannot be trusted)."""

    def __init__(self, status: HTTPStatus, message: str, close: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.close = close


@dataclass
class _Slots:
    """The working slots of one process's event loop (built there, on the first request): ``running`` for
    requests worked in process, ``sandboxed`` for those that run Python solutions (``solution_lanes``)."""

    loop: asyncio.AbstractEventLoop
    running: asyncio.Semaphore
    sandboxed: asyncio.Semaphore
    admitted: int = 0




def sandboxed(value: object, budget: int = 1_000_000) -> bool:
    """Whether a decoded body names a sandboxed dialect in any of its texts (a gold's ``dialect``, or a gold given
    as JSON text): such a request never runs on the event loop. Conservative: a completion that merely mentions
    the name goes to a thread too, which changes no answer."""
    names = sandboxed_reward_names()
    stack = [value]
    while stack and budget > 0:
        budget -= 1
        item = stack.pop()
        if isinstance(item, str):
            if any(name in item for name in names):
                return True
        elif isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return bool(stack)  # a body too large to scan is treated as sandboxed


class RewardApp:
    """The ASGI application. It pickles as its settings (a policy and the limits), so
    ``--workers N`` processes each build their own slots."""

    def __init__(self, default_policy: Policy | None = None, limits: Limits | None = None) -> None:
        self.default_policy = default_policy
        self.limits = limits or current()
        self._slots: _Slots | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._sandbox_pool: ThreadPoolExecutor | None = None
        self._pid = os.getpid()

    def __getstate__(self) -> dict[str, Any]:
        return {"default_policy": self.default_policy, "limits": self.limits.record()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        record = {name: tuple(value) if isinstance(value, list) else value for name, value in state["limits"].items()}
        self.default_policy = state["default_policy"]
        self.limits = DEFAULT_LIMITS.with_(**record)
        self._slots, self._pool, self._sandbox_pool, self._pid = None, None, None, os.getpid()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        try:
            status, payload, close = await self._route(scope, receive)
        except Refusal as refusal:
            status, payload, close = refusal.status, _error(refusal.message), refusal.close
        if payload is not None:
            await _respond(send, status, payload, close)

    async def _route(self, scope: Scope, receive: Receive) -> tuple[HTTPStatus, bytes | None, bool]:
        method, path = scope["method"], scope["path"]
        if path == "/health":
            if method not in ("GET", "HEAD"):
                raise Refusal(HTTPStatus.METHOD_NOT_ALLOWED, f"{method} /health: use GET", _has_body(scope))
            return HTTPStatus.OK, _encode({"status": "ok", "max_request_bytes": self.limits.max_request_bytes,
                                          "max_items": self.limits.max_request_items}), _has_body(scope)
        if path not in ROUTES:
            raise Refusal(HTTPStatus.NOT_FOUND, f"no such endpoint: {method} {path[:200]}", _has_body(scope))
        if method != "POST":
            raise Refusal(HTTPStatus.METHOD_NOT_ALLOWED, f"{method} {path}: use POST", _has_body(scope))
        length = content_length(scope["headers"], self.limits.max_request_bytes)
        body = await _read_body(receive, length)
        if body is None:  # the client went away
            return HTTPStatus.OK, None, True
        slots, pool, sandbox_pool = self._slots_here()
        if slots.admitted >= self.limits.serve_active_requests + self.limits.serve_queued_requests:
            raise Refusal(HTTPStatus.SERVICE_UNAVAILABLE, "the server is busy; retry")
        slots.admitted += 1
        try:
            inline = len(body) <= self.limits.serve_inline_body_bytes  # small: a hop to a thread costs more
            async with slots.running:
                if inline:
                    decoded = self.decode(body)
                else:
                    decoded = await slots.loop.run_in_executor(pool, self.decode, body)
                if isinstance(decoded, _Answer):
                    return decoded.status, decoded.payload, False
                if not decoded.sandboxed:
                    if inline:
                        status, payload = self.work(path, decoded.value)
                    else:
                        status, payload = await slots.loop.run_in_executor(pool, self.work, path, decoded.value)
                    return status, payload, False
            # a request that runs Python solutions: never on the loop, never in a slot of the in-process work
            async with slots.sandboxed:
                status, payload = await slots.loop.run_in_executor(sandbox_pool, self.work_sandboxed, path,
                                                                   decoded.value)
        finally:
            slots.admitted -= 1
        return status, payload, False

    def answer(self, path: str, body: bytes | bytearray) -> tuple[HTTPStatus, bytes]:
        """The status and JSON answer of one POST whose body has been read (in the calling thread)."""
        decoded = self.decode(body)
        if isinstance(decoded, _Answer):
            return decoded.status, decoded.payload
        return (self.work_sandboxed if decoded.sandboxed else self.work)(path, decoded.value)

    def decode(self, body: bytes | bytearray) -> _Answer | _Decoded:
        """The decoded body, or the 400 answer naming what is wrong with it."""
        with using(self.limits):
            try:
                value = decode_body(body, self.limits)
                return _Decoded(value, sandboxed(value))
            except InputError as error:
                return _Answer(HTTPStatus.BAD_REQUEST, _error(str(error)))

    def work_sandboxed(self, path: str, decoded: Any) -> tuple[HTTPStatus, bytes]:
        """:meth:`work` within the request's sandbox budget (``serve_solution_request_seconds``)."""
        with request_budget(self.limits.serve_solution_request_seconds):
            return self.work(path, decoded)

    def work(self, path: str, decoded: Any) -> tuple[HTTPStatus, bytes]:
        """The status and JSON answer of one POST whose body is decoded."""
        with using(self.limits):
            try:
                if path == "/get_reward":
                    return HTTPStatus.OK, _encode(self._get_reward(decoded))
                return HTTPStatus.OK, self._batch(decoded)
            except Refusal as refusal:
                return refusal.status, _error(refusal.message)
            except Exception as error:  # a bug: the client gets a JSON 500 naming it, the server goes on
                return HTTPStatus.INTERNAL_SERVER_ERROR, _error(
                    f"internal error: {type(error).__name__}: {str(error)[:200]}")

    def _policy(self, body: Mapping[str, Any]) -> Policy | None:
        if body.get("policy") is None:
            return self.default_policy
        try:
            return parse_policy(body["policy"])
        except InputError as error:
            raise Refusal(HTTPStatus.BAD_REQUEST, f"policy: {error}") from None

    def _get_reward(self, body: Any) -> dict[str, Any]:
        try:
            queries, prompts, labels = check_payload(body)
            if len(queries) > (bound := self.limits.max_request_items):
                raise Refusal(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"{plural(len(queries), 'query')}, over the limit of {bound}")
            policy = self._policy(body)
            return openrlhf_rewards(queries, prompts, labels, policy, problem)
        except InputError as error:  # a sample that cannot be judged: refused, never a silent 0
            raise Refusal(HTTPStatus.BAD_REQUEST, str(error)) from None

    def _batch(self, body: Any) -> bytes:
        if not isinstance(body, Mapping) or not isinstance(body.get("items"), list):
            raise Refusal(HTTPStatus.BAD_REQUEST, 'the body must be {"items": [...], "policy"?}')
        items = body["items"]
        if len(items) > (bound := self.limits.max_request_items):
            raise Refusal(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"{plural(len(items), 'item')}, over the limit of "
                                                               f"{bound}")
        policy = self._policy(body)
        records = (_item_record(item, index + 1, policy) for index, item in enumerate(items))
        return b'{"results": [' + b", ".join(records) + b"]}"

    def _slots_here(self) -> tuple[_Slots, ThreadPoolExecutor, ThreadPoolExecutor]:
        count = max(self.limits.serve_active_requests, 1)
        lanes = max(self.limits.solution_lanes, 1)
        if self._pool is None or self._sandbox_pool is None or self._pid != os.getpid():
            self._pool = ThreadPoolExecutor(count, "progexec-serve")
            self._sandbox_pool = ThreadPoolExecutor(lanes, "progexec-serve-sandbox")
            self._slots, self._pid = None, os.getpid()
        loop = asyncio.get_running_loop()
        if self._slots is None or self._slots.loop is not loop:
            self._slots = _Slots(loop, asyncio.Semaphore(count), asyncio.Semaphore(lanes))
        return self._slots, self._pool, self._sandbox_pool


@dataclass(frozen=True, slots=True)
class _Answer:
    """A request answered before its work (its body could not be decoded)."""

    status: HTTPStatus
    payload: bytes


@dataclass(frozen=True, slots=True)
class _Decoded:
    """A request's decoded body, and whether it runs Python solutions (:func:`sandboxed`)."""

    value: Any
    sandboxed: bool


def _item_record(item: object, line: int, policy: Policy | None) -> bytes:
    """One ``/batch`` item's record as JSON: scored, or ``bad_input`` naming what is unusable in it."""
    reason = problem(item)
    if reason is None:
        try:
            return _encode(score_item(item, line, policy))
        except (ValueError, TypeError, OverflowError) as error:  # an answer that cannot be written as JSON
            reason = f"its record cannot be written as JSON ({type(error).__name__})"
    result = make_result(RewardStatus.BAD_INPUT, policy or DEFAULT_POLICY, detail=f"item {line}: {reason}")
    return _encode({"id": None, "line": line, **result.record()})


def content_length(headers: list[tuple[bytes, bytes]], bound: int) -> int:
    """The body's length from exactly one ``Content-Length`` of digits only, never beside
    ``Transfer-Encoding``; else a :class:`Refusal` (the body is never read)."""
    lengths = [value for name, value in headers if name.lower() == b"content-length"]
    if any(name.lower() == b"transfer-encoding" for name, _ in headers):
        if lengths:
            raise Refusal(HTTPStatus.BAD_REQUEST, "Content-Length and Transfer-Encoding together are refused",
                          close=True)
        raise Refusal(HTTPStatus.LENGTH_REQUIRED, "a chunked body is not accepted; send a Content-Length",
                      close=True)
    if not lengths:
        raise Refusal(HTTPStatus.LENGTH_REQUIRED, "a Content-Length header is required", close=True)
    if len(lengths) > 1:
        raise Refusal(HTTPStatus.BAD_REQUEST, f"{len(lengths)} Content-Length headers; send one", close=True)
    raw = lengths[0].strip()
    if not raw or len(raw) > 20 or not all(48 <= byte <= 57 for byte in raw):
        raise Refusal(HTTPStatus.BAD_REQUEST, f"bad Content-Length {raw[:40].decode('latin-1')!r}: digits only",
                      close=True)
    length = int(raw)
    if length > bound:
        raise Refusal(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                      f"the body is {plural(length, 'byte')}, over the limit of {bound} "
                      f"(max_request_bytes)", close=True)
    return length


async def _read_body(receive: Receive, length: int) -> bytearray | None:
    """The whole body (``length`` bytes at most, as framed by the server), or None if the client left."""
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        body += message.get("body", b"")
        if len(body) > length:
            raise Refusal(HTTPStatus.BAD_REQUEST, "the body is longer than its Content-Length", close=True)
        if not message.get("more_body", False):
            return body


def _has_body(scope: Scope) -> bool:
    """Whether the request announced a body (an answer sent before reading it must close the connection)."""
    return any(name.lower() in (b"content-length", b"transfer-encoding") and value.strip() not in (b"0", b"")
               for name, value in scope["headers"])


async def _respond(send: Send, status: HTTPStatus, payload: bytes, close: bool) -> None:
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": int(status), "headers": headers})
    await send({"type": "http.response.body", "body": payload, "more_body": False})


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


def _encode(payload: Mapping[str, Any]) -> bytes:
    return json.dumps(payload, ensure_ascii=False, allow_nan=False).encode("utf-8")


def _error(message: str) -> bytes:
    text = message if len(message) <= current().max_error_chars else message[:current().max_error_chars] + "..."
    return json.dumps({"error": text}, ensure_ascii=True).encode("ascii")
