"""``progexec serve`` on loopback: OpenRLHF's payload and the batch endpoint give the gold set's
expected rewards; size limits, bad bodies, the busy gate, and a long request not blocking a short one."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from progexec.reward import server as server_module
from progexec.reward.remote import response_text
from progexec.reward.server import RewardServer, make_server

HAND = [json.loads(line) for line in (Path(__file__).parent / "data" / "rewards" / "handwritten.jsonl").open()]


def _completion(line: dict[str, Any]) -> str:
    return str(line["completion"]) * int(line.get("repeat", 1))


@pytest.fixture()
def served() -> Iterator[RewardServer]:
    server = make_server("127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def _request(server: RewardServer, method: str, path: str, body: bytes | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
    host, port = server.server_address[:2]
    connection = http.client.HTTPConnection(str(host), int(port), timeout=60)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def _post(server: RewardServer, path: str, payload: object) -> tuple[int, Any]:
    return _request(server, "POST", path, json.dumps(payload).encode(), {"Content-Type": "application/json"})


def test_health(served: RewardServer) -> None:
    status, body = _request(served, "GET", "/health")
    assert status == 200 and body["status"] == "ok"


def test_openrlhf_payload_gets_the_expected_rewards(served: RewardServer) -> None:
    prompt = "<|im_start|>user\nWhat is the ratio?<|im_end|>\n<|im_start|>assistant\n"
    payload = {"query": [prompt + _completion(line) + "<|im_end|>" for line in HAND],
               "prompts": [prompt] * len(HAND),
               "labels": [json.dumps(line["gold"]) for line in HAND],
               "policy": "numeric"}
    status, body = _post(served, "/get_reward", payload)
    assert status == 200
    assert set(body) == {"rewards", "scores", "extra_logs"}
    expected = [line["expected"]["numeric"]["score"] for line in HAND]
    assert body["rewards"] == expected and body["scores"] == expected
    assert body["extra_logs"]["progexec_correct"] == sum(expected) / len(expected)
    assert 0.0 < body["extra_logs"]["progexec_format_ok"] <= 1.0


def test_openrlhf_payload_under_official(served: RewardServer) -> None:
    payload = {"query": [_completion(line) for line in HAND], "prompts": [""] * len(HAND),
               "labels": [json.dumps(line["gold"]) for line in HAND], "policy": "official"}
    status, body = _post(served, "/get_reward", payload)
    assert status == 200
    assert body["rewards"] == [line["expected"]["official"]["score"] for line in HAND]


def test_the_batch_endpoint_gives_the_expected_statuses(served: RewardServer) -> None:
    items = [{"id": line["id"], "completion": _completion(line), "gold": line["gold"]} for line in HAND]
    for policy in ("official", "numeric", "helm"):
        status, body = _post(served, "/batch", {"items": items, "policy": policy})
        assert status == 200
        got = [(result["id"], result["score"], result["status"]) for result in body["results"]]
        want = [(line["id"], line["expected"][policy]["score"], line["expected"][policy]["status"]) for line in HAND]
        assert got == want


def test_a_body_over_the_limit_is_413_unread(served: RewardServer) -> None:
    host, port = served.server_address[:2]
    connection = http.client.HTTPConnection(str(host), int(port), timeout=30)
    try:
        connection.putrequest("POST", "/get_reward")
        connection.putheader("Content-Length", str(server_module.MAX_REQUEST_BYTES + 1))
        connection.endheaders()
        response = connection.getresponse()
        assert response.status == 413
        assert "over the limit" in json.loads(response.read())["error"]
    finally:
        connection.close()


def test_too_many_samples_is_413(served: RewardServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_module, "MAX_ITEMS", 2)
    status, body = _post(served, "/get_reward", {"query": ["a", "b", "c"], "prompts": ["", "", ""],
                                                 "labels": ["1", "2", "3"]})
    assert status == 413 and "3 queries" in body["error"]


@pytest.mark.parametrize(("path", "body", "headers", "code"), [
    ("/get_reward", b"{not json", {}, 400),
    ("/get_reward", b'{"query": "x"}', {}, 400),
    ("/get_reward", b'{"query": ["x"], "labels": []}', {}, 400),
    ("/batch", b'{"items": 3}', {}, 400),
    ("/batch", b'{"items": [], "policy": "judge"}', {}, 400),
    ("/nowhere", b"{}", {}, 404),
])
def test_bad_requests_get_a_json_error(served: RewardServer, path: str, body: bytes, headers: dict[str, str],
                                       code: int) -> None:
    status, answer = _request(served, "POST", path, body, headers)
    assert status == code and "error" in answer


def test_a_request_without_length_is_411(served: RewardServer) -> None:
    host, port = served.server_address[:2]
    connection = http.client.HTTPConnection(str(host), int(port), timeout=30)
    try:
        connection.putrequest("POST", "/batch")
        connection.endheaders()
        response = connection.getresponse()
        assert response.status == 411
    finally:
        connection.close()


def test_a_busy_server_answers_503_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_module, "MAX_ACTIVE_REQUESTS", 1)
    server = make_server("127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        assert server.gate.acquire(blocking=False)  # the one slot is taken
        status, _ = _post(server, "/batch", {"items": []})
        assert status == 503
        server.gate.release()
        status, _ = _post(server, "/batch", {"items": []})
        assert status == 200
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_a_long_request_does_not_block_a_short_one(served: RewardServer) -> None:
    line = next(line for line in HAND if line["id"] == "many-numbers-big")  # 80,000 characters to read
    big = {"items": [{"id": index, "completion": line["completion"], "gold": line["gold"]} for index in range(40)]}
    finished: dict[str, float] = {}

    def long_request() -> None:
        status, _ = _post(served, "/batch", big)
        finished["long"] = time.monotonic()
        finished["long_status"] = status

    worker = threading.Thread(target=long_request)
    worker.start()
    time.sleep(0.2)
    status, body = _post(served, "/get_reward", {"query": ["Answer: 3.5"], "prompts": [""], "labels": ['{"answer": 3.5}']})
    finished["short"] = time.monotonic()
    worker.join(timeout=300)
    assert status == 200 and body["rewards"] == [1.0]
    assert finished["long_status"] == 200
    assert finished["short"] < finished["long"]


def test_response_text_strips_the_prompt_and_trailing_special_tokens() -> None:
    assert response_text("PROMPT Answer: 1<|im_end|>\n<|endoftext|>", "PROMPT") == " Answer: 1"
    assert response_text("other Answer: 1</s>", "PROMPT") == "other Answer: 1"
    assert response_text("x" + "<|im_end|>" * 20, "") == "x" + "<|im_end|>" * 4  # at most 16 are stripped
    spaces = " " * 100_000 + "x"  # only the tail is searched: no quadratic scan of a long whitespace run
    assert response_text(spaces, "") == spaces


def test_the_serve_command_listens_and_answers(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent / "src"))
    process = subprocess.Popen([sys.executable, "-m", "progexec", "serve", "--port", "0", "--policy", "official"],
                               stderr=subprocess.PIPE, text=True, env=env)
    banner: list[str] = []
    reader = threading.Thread(target=lambda: banner.append(process.stderr.readline() if process.stderr else ""))
    reader.start()
    reader.join(timeout=60)
    try:
        assert banner and "listening on http://127.0.0.1:" in banner[0], banner
        port = int(banner[0].split("127.0.0.1:")[1].split()[0])
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("POST", "/get_reward", body=json.dumps(
            {"query": ["Program: divide(3.8, 35.1)", "Answer: 0.1083"], "prompts": ["", ""],
             "labels": ['{"answer": 0.10826}'] * 2}))
        response = connection.getresponse()  # --policy official: the bare answer has no program
        assert response.status == 200 and json.loads(response.read())["rewards"] == [1.0, 0.0]
        connection.close()
    finally:
        process.terminate()
        process.wait(timeout=30)
