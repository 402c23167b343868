"""``progexec serve`` on loopback: OpenRLHF's payload and the batch endpoint give the gold set's
expected rewards; size limits, bad bodies, the busy answer, a long request not blocking a short one,
``--workers``, the documented curl example, and the refusal to start without the serve extra."""

from __future__ import annotations

import json
import re
import shlex
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn", reason="progexec serve needs the serve extra")

from progexec.core.limits import DEFAULT_LIMITS  # noqa: E402
from progexec.reward.remote import response_text  # noqa: E402
from progexec.reward.server import RewardApp  # noqa: E402

from .serve_harness import ROOT, Served, asgi_call, children, environment, post, request, start  # noqa: E402

ALL_HAND = [json.loads(line) for line in (Path(__file__).parent / "data" / "rewards" / "handwritten.jsonl").open()]
UNJUDGEABLE = {"bad_gold", "bad_input", "bad_policy"}
HAND = [line for line in ALL_HAND if not UNJUDGEABLE & {line["expected"][policy]["status"] for policy in line["expected"]}]
"""The gold set's items /get_reward judges; the others it refuses (below)."""


def _completion(line: dict[str, Any]) -> str:
    return str(line["completion"]) * int(line.get("repeat", 1))


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    server = start()
    try:
        yield server
    finally:
        assert server.stop() == 0


def test_health(served: Served) -> None:
    status, body = request(served.port, "GET", "/health")
    assert status == 200 and body == {"status": "ok", "max_request_bytes": 16 * 1024 * 1024, "max_items": 4096}


def test_openrlhf_payload_gets_the_expected_rewards(served: Served) -> None:
    prompt = "<|im_start|>user\nWhat is the ratio?<|im_end|>\n<|im_start|>assistant\n"
    payload = {"query": [prompt + _completion(line) + "<|im_end|>" for line in HAND],
               "prompts": [prompt] * len(HAND),
               "labels": [json.dumps(line["gold"]) for line in HAND],
               "policy": "numeric"}
    status, body = post(served.port, "/get_reward", payload)
    assert status == 200
    assert set(body) == {"rewards", "scores", "extra_logs"}
    expected = [line["expected"]["numeric"]["score"] for line in HAND]
    assert body["rewards"] == expected and body["scores"] == expected
    assert body["extra_logs"]["progexec_correct"] == sum(expected) / len(expected)
    assert 0.0 < body["extra_logs"]["progexec_format_ok"] <= 1.0


def test_openrlhf_payload_under_official(served: Served) -> None:
    payload = {"query": [_completion(line) for line in HAND], "prompts": [""] * len(HAND),
               "labels": [json.dumps(line["gold"]) for line in HAND], "policy": "official"}
    status, body = post(served.port, "/get_reward", payload)
    assert status == 200
    assert body["rewards"] == [line["expected"]["official"]["score"] for line in HAND]


def test_openrlhf_payload_with_an_unjudgeable_sample_is_a_400_naming_it(served: Served) -> None:
    unjudgeable = [index for index, line in enumerate(ALL_HAND)
                   if line["expected"]["numeric"]["status"] in UNJUDGEABLE]
    assert unjudgeable
    payload = {"query": [_completion(line) for line in ALL_HAND], "prompts": [""] * len(ALL_HAND),
               "labels": [line["gold"] if isinstance(line["gold"], str) else json.dumps(line["gold"])
                          for line in ALL_HAND], "policy": "numeric"}
    status, body = post(served.port, "/get_reward", payload)
    assert status == 400 and re.match(rf"(labels|query)\[{unjudgeable[0]}\]: ", body["error"]), body


def test_the_batch_endpoint_gives_the_expected_statuses(served: Served) -> None:
    items = [{"id": line["id"], "completion": _completion(line), "gold": line["gold"]} for line in ALL_HAND]
    for policy in ("official", "numeric", "helm"):
        status, body = post(served.port, "/batch", {"items": items, "policy": policy})
        assert status == 200
        got = [(result["id"], result["score"], result["status"]) for result in body["results"]]
        want = [(line["id"], line["expected"][policy]["score"], line["expected"][policy]["status"])
                for line in ALL_HAND]
        assert got == want


def test_a_body_over_the_limit_is_413_unread(served: Served) -> None:
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
    try:
        connection.putrequest("POST", "/get_reward")
        connection.putheader("Content-Length", str(DEFAULT_LIMITS.max_request_bytes + 1))
        connection.endheaders()  # no body follows: the answer must come without it
        response = connection.getresponse()
        assert response.status == 413 and response.getheader("connection") == "close"
        assert "over the limit" in json.loads(response.read())["error"]
    finally:
        connection.close()


def test_too_many_samples_is_413() -> None:
    app = RewardApp(limits=DEFAULT_LIMITS.with_(max_request_items=2))
    body = json.dumps({"query": ["a", "b", "c"], "prompts": ["", "", ""], "labels": ["1", "2", "3"]}).encode()
    status, _, answer = asgi_call(app, "POST", "/get_reward", body)
    assert status == 413 and "3 queries" in answer["error"]
    status, _, answer = asgi_call(app, "POST", "/batch", json.dumps({"items": [{}, {}, {}]}).encode())
    assert status == 413 and "3 items" in answer["error"]


@pytest.mark.parametrize(("method", "path", "body", "code"), [
    ("POST", "/get_reward", b"{not json", 400),
    ("POST", "/get_reward", b'{"query": "x"}', 400),
    ("POST", "/get_reward", b'{"query": ["x"], "labels": []}', 400),
    ("POST", "/get_reward", b"\xff\xfe{}", 400),
    ("POST", "/get_reward", b"[" * 100_000 + b"]" * 100_000, 400),
    ("POST", "/batch", b'{"items": 3}', 400),
    ("POST", "/batch", b'{"items": [], "policy": "judge"}', 400),
    ("POST", "/batch", b'{"items": [], "policy": NaN}', 400),
    ("POST", "/nowhere", b"{}", 404),
    ("GET", "/batch", b"", 405),
])
def test_bad_requests_get_a_json_error(served: Served, method: str, path: str, body: bytes, code: int) -> None:
    status, answer = request(served.port, method, path, body)
    assert status == code and isinstance(answer["error"], str)


def test_a_busy_server_answers_503_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """One working slot and no queue: while one request is worked on, the next is 503 at once."""
    import asyncio

    app = RewardApp(limits=DEFAULT_LIMITS.with_(serve_active_requests=1, serve_queued_requests=0))
    release, entered = threading.Event(), threading.Event()
    original = RewardApp.work

    def held(self: RewardApp, path: str, decoded: Any) -> Any:
        entered.set()
        release.wait(60)
        return original(self, path, decoded)

    monkeypatch.setattr(RewardApp, "work", held)
    body = b'{"items": []}' + b" " * DEFAULT_LIMITS.serve_inline_body_bytes  # worked in a thread, not on the event loop

    async def both() -> list[int]:
        statuses: list[int] = []

        async def call() -> None:
            sent: list[Any] = []
            chunks = [{"type": "http.request", "body": body, "more_body": False}]

            async def receive() -> Any:
                return chunks.pop() if chunks else {"type": "http.disconnect"}

            async def send(message: Any) -> None:
                sent.append(message)
                if message["type"] == "http.response.start":
                    statuses.append(message["status"])
                    if message["status"] == 503:
                        release.set()
            await app({"type": "http", "method": "POST", "path": "/batch",
                       "headers": [(b"content-length", str(len(body)).encode())]}, receive, send)

        first = asyncio.ensure_future(call())
        await asyncio.get_running_loop().run_in_executor(None, entered.wait, 60)  # the first holds the slot
        await call()
        await first
        return statuses

    assert asyncio.run(both()) == [503, 200]


def test_a_long_request_does_not_block_a_short_one(served: Served) -> None:
    """A /batch whose body is still arriving holds its connection open on the server; a short request sent after
    it is answered first. The order is made by the test (the long body is released only after the short answer),
    never by how fast the machine is."""
    line = next(line for line in HAND if line["id"] == "many-numbers-big")  # 80,000 characters to read
    big = {"items": [{"id": index, "completion": line["completion"], "gold": line["gold"]} for index in range(40)]}
    body = json.dumps(big).encode()
    with socket.create_connection(("127.0.0.1", served.port), timeout=120) as long_request:
        long_request.sendall(b"POST /batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                             b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body[:-1])
        status, answer = post(served.port, "/get_reward", {"query": ["Answer: 3.5"], "prompts": [""],
                                                           "labels": ['{"answer": 3.5}']})
        assert status == 200 and answer["rewards"] == [1.0]  # answered while the long request is in flight
        long_request.sendall(body[-1:])
        response = b""
        while chunk := long_request.recv(65536):
            response += chunk
    head, _, payload = response.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200")
    assert [result["id"] for result in json.loads(payload)["results"]] == list(range(40))


def test_response_text_strips_the_prompt_and_trailing_special_tokens() -> None:
    assert response_text("PROMPT Answer: 1<|im_end|>\n<|endoftext|>", "PROMPT") == " Answer: 1"
    assert response_text("other Answer: 1</s>", "PROMPT") == "other Answer: 1"
    assert response_text("x" + "<|im_end|>" * 20, "") == "x" + "<|im_end|>" * 4  # at most 16 are stripped
    spaces = " " * 100_000 + "x"  # only the tail is searched: no quadratic scan of a long whitespace run
    assert response_text(spaces, "") == spaces


def test_the_serve_command_takes_its_policy() -> None:
    server = start("--policy", "official")
    try:
        status, body = post(server.port, "/get_reward", {
            "query": ["Program: divide(3.8, 35.1)", "Answer: 0.1083"], "prompts": ["", ""],
            "labels": ['{"answer": 0.10826}'] * 2})
        assert status == 200 and body["rewards"] == [1.0, 0.0]  # official: the bare answer has no program
    finally:
        assert server.stop() == 0


def test_workers_are_processes_that_share_the_port() -> None:
    server = start("--workers", "2")
    try:
        assert "2 worker processes" in server.banner
        for _ in range(20):
            status, body = post(server.port, "/get_reward", {"query": ["Answer: 3.5"], "prompts": [""],
                                                             "labels": ['{"answer": 3.5}']})
            assert status == 200 and body["rewards"] == [1.0]
        workers = [pid for pid in children(server.process.pid)
                   if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text(errors="replace")]
        assert len(workers) == 2
    finally:
        assert server.stop() == 0
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()]  # the workers stopped with it


@pytest.mark.parametrize("words", [["--workers", "0"], ["--port", "70000"]])
def test_bad_options_exit_2(words: list[str]) -> None:
    result = subprocess.run([sys.executable, "-m", "progexec", "serve", "--port", "0", *words],
                            capture_output=True, text=True, env=environment(), timeout=120)
    assert result.returncode == 2 and "error:" in result.stderr


def test_without_the_serve_extra_the_command_refuses_to_start() -> None:
    code = ("import sys; sys.modules['uvicorn'] = None\n"
            "from progexec.cli import main\n"
            "sys.exit(main(['serve', '--port', '0']))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=environment(),
                            timeout=120)
    assert result.returncode == 2
    assert "pip install 'progexec[serve]'" in result.stderr


def test_sigint_stops_the_server_with_exit_0() -> None:
    server = start()
    server.process.send_signal(signal.SIGINT)
    assert server.process.wait(timeout=60) == 0


def test_the_documented_curl_example_runs(served: Served) -> None:
    text = (ROOT / "docs" / "serve.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```console\n\$ (curl [^\n]*(?:\n  [^\n]*)*)\n(.*?)```", text, re.DOTALL)
    assert len(blocks) == 2, "docs/serve.md shows a /get_reward and a /health curl example"
    for command, printed in blocks:
        words = [word.replace("8000", str(served.port)) for word in shlex.split(command.replace("\\\n", " "))]
        result = subprocess.run(words, capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout) == json.loads(printed.strip())


def test_values_are_counted_outside_strings_only() -> None:
    from progexec.reward.request_json import count_values

    assert count_values(b'["a,b,c", 1]', 10) == 5  # under the bound: every mark counts, those in strings too
    assert count_values(b'["a,b,c", 1]', 4) == 3  # past it, strings are skipped: the list, the string, the number
    assert count_values(b'{"k": "x,\\\\", "j": [1, 2]}', 7) == 7  # an escaped backslash ends no string early
    assert count_values(b'{"k": "x,\\\\", "j": [1, 2]}', 1) == 2  # counting stops once past the bound
    assert count_values(b"[" + b"[]," * 1000 + b"[]]", 100) > 100
    assert count_values(b'""' * 100_000, 10) <= 10  # not JSON: counting stops at once, the decoder refuses it


def test_numbers_too_long_for_a_double_are_unusable_markers() -> None:
    from progexec.reward.request_json import Unusable, decode_body, problem

    body = decode_body(b'{"a": ' + b"9" * 5000 + b', "b": 1e999, "c": NaN, "d": 12, "e": "\\ud800"}', DEFAULT_LIMITS)
    assert isinstance(body["a"], Unusable) and "5000 digits" in body["a"].reason
    assert isinstance(body["b"], Unusable) and isinstance(body["c"], Unusable) and body["d"] == 12
    assert problem(body["d"]) is None and "surrogate" in str(problem(body["e"]))
