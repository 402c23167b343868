"""The reward function's process: ``python child.py SIGNATURE SPEC MODE THREADS PROCESSES ANSWER_CHARS NAMED_THREADS``, on the checker's leash.

Standard library only and run as a script (nothing of progexec is imported here, so a user module
cannot shadow it). It loads ``SPEC`` (``MODULE:FUNC``, or for the ``url`` signature the URL of an
OpenRLHF-style reward server), prints the handshake line, then answers one request line
``{"id", "items": [{"completion", "gold", "prompt"}, ...]}`` with one answer line, written and
flushed at once (so a hang is pinned on its own request): ``{"id", "rewards": [...]}`` where each
reward is a finite number or ``{"bad": "<what came back>"}``, or ``{"id", "error": "<exception>"}``.

MODE says where the function is called: ``main`` (this process's main thread), ``thread`` (a
pool of worker threads, requests in flight together) or ``pool`` (a process pool). The function
runs in this separate process, so nothing it does (``SystemExit``, ``os._exit``, a hang, printing,
signals) can end or fool the checker. The real stdin/stdout are moved to private descriptors
first; the function's own prints go to stderr. In ``main`` mode every answer also says how many threads
the function started that are still running (``"threads"``, ``"thread_names"``): the checker fails a
function whose threads keep growing with its calls.
"""

from __future__ import annotations

import concurrent.futures
import importlib
import json
import math
import multiprocessing
import os
import sys
import threading
import urllib.request
from collections.abc import Callable
from typing import Any

READY = b"progexec-rewardchild ready\n"
_bounds: dict[str, int] = {}
"""The checker's bounds, from the command line (nothing of progexec is imported here): ``threads`` and
``processes`` of the probes' executors, ``answer_chars`` of a described value or error."""

_FUNC: Callable[..., Any] | None = None
_SIGNATURE = "plain"
_OWN_THREADS: set[int] | None = None
"""In ``main`` mode, the idents of the threads alive before the first call (others are the function's)."""


def threads_left() -> list[threading.Thread]:
    """The threads the function started that are still running (``main`` mode only; else none)."""
    if _OWN_THREADS is None:
        return []
    return [thread for thread in threading.enumerate() if thread.ident not in _OWN_THREADS and thread.is_alive()]


def describe(value: Any) -> str:
    """A short one-line description of any value (never raises)."""
    try:
        text = repr(value)
    except BaseException:
        text = "<unprintable>"
    return f"{type(value).__name__}: {text}"[:_bounds["answer_chars"]].replace("\n", " ")


def _error(exc: BaseException) -> str:
    try:
        message = str(exc)
    except BaseException:
        message = "<unprintable>"
    return f"{type(exc).__name__}: {message}"[:_bounds["answer_chars"]].replace("\n", " ")


def _plain(value: Any) -> Any:
    """A numpy or torch scalar as the Python value it holds."""
    if type(value).__module__.split(".")[0] in ("numpy", "torch") and callable(getattr(value, "item", None)):
        try:
            return value.item()
        except BaseException:
            return value
    return value


def reward(value: Any) -> Any:
    """One returned reward as JSON: a finite number, or ``{"bad": description}``."""
    value = _plain(value)
    if isinstance(value, dict) and "score" in value:
        value = _plain(value["score"])
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int):
        return float(value) if value.bit_length() <= 1024 else {"bad": f"int of {value.bit_length()} bits"}
    if isinstance(value, float) and math.isfinite(value):
        return value
    return {"bad": describe(value)}


def _listed(value: Any, count: int) -> list[Any]:
    value = _plain(value)
    if isinstance(value, dict) and "rewards" in value:
        value = value["rewards"]
    if callable(getattr(value, "tolist", None)):
        value = value.tolist()
    if not isinstance(value, (list, tuple)):
        return [{"bad": f"not a list of rewards: {describe(value)}"}] * count
    if len(value) != count:
        return [{"bad": f"{len(value)} rewards for {count} completions"}] * count
    return [reward(item) for item in value]


def _extra(gold: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in gold.items() if key != "answer"}


def call(items: list[dict[str, Any]]) -> list[Any]:
    """Call the function on a batch, in the shape its signature wants; exceptions propagate."""
    func, signature = _FUNC, _SIGNATURE
    assert func is not None
    if signature == "plain":
        return [reward(func(item["completion"], item["gold"])) for item in items]
    if signature == "verl":
        return [reward(func(data_source=f"progexec/{item['gold'].get('dialect', 'finqa')}",
                            solution_str=item["completion"], ground_truth=str(item["gold"].get("answer")),
                            extra_info=_extra(item["gold"]))) for item in items]
    if signature == "verl-batch":
        return _listed(func(data_sources=[f"progexec/{item['gold'].get('dialect', 'finqa')}" for item in items],
                            solution_strs=[item["completion"] for item in items],
                            ground_truths=[str(item["gold"].get("answer")) for item in items],
                            extra_infos=[_extra(item["gold"]) for item in items]), len(items))
    if signature == "trl":
        columns = {key: [item["gold"].get(key) for item in items]
                   for key in ("answer", "program", "table", "dialect", "options", "problem", "policy")}
        return _listed(func(prompts=[item["prompt"] for item in items],
                            completions=[item["completion"] for item in items], **columns), len(items))
    labels = [json.dumps(item["gold"]) for item in items]
    queries = [item["prompt"] + item["completion"] for item in items]
    prompts = [item["prompt"] for item in items]
    if signature == "openrlhf":
        return _listed(func(queries, prompts, labels), len(items))
    return _listed(func(queries, prompts, labels), len(items))  # url: the poster below


def _post(url: str) -> Callable[..., Any]:
    def post(queries: list[str], prompts: list[str], labels: list[str]) -> Any:
        body = json.dumps({"query": queries, "prompts": prompts, "labels": labels}).encode("utf-8")
        request = urllib.request.Request(url, body, {"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as response:  # the checker's leash bounds the wait
            return json.loads(response.read())
    return post


def answer(line: bytes) -> bytes:
    """One request line to one answer line."""
    request = json.loads(line)
    try:
        rewards = call(request["items"])
    except BaseException as exc:  # SystemExit included: a finding, never an exit
        return _dump({"id": request["id"], "error": _error(exc), **_threads()})
    return _dump({"id": request["id"], "rewards": rewards, **_threads()})


def _threads() -> dict[str, Any]:
    """``{"threads": N, "thread_names": [...]}`` when the function's threads are running after its call."""
    left = threads_left()
    if not left:
        return {}
    return {"threads": len(left), "thread_names": [thread.name[:_bounds["answer_chars"]] for thread in left[:_bounds["named_threads"]]]}


def _pooled(line: bytes) -> bytes:
    return answer(line)


def _dump(record: dict[str, Any]) -> bytes:
    return json.dumps(record, allow_nan=False).encode("utf-8") + b"\n"


def _load(signature: str, spec: str) -> Callable[..., Any]:
    if signature == "url":
        return _post(spec)
    module_name, _, attribute = spec.partition(":")
    target: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        target = getattr(target, part)
    if not callable(target):
        raise TypeError(f"{spec} is not callable")
    return target  # type: ignore[no-any-return]


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _executor(mode: str) -> concurrent.futures.Executor | None:
    if mode == "thread":
        return concurrent.futures.ThreadPoolExecutor(_bounds["threads"])
    if mode == "pool":
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        return concurrent.futures.ProcessPoolExecutor(_bounds["processes"], mp_context=multiprocessing.get_context(method))
    return None


def _serve(proto_in: int, proto_out: int, executor: concurrent.futures.Executor | None) -> int:
    buffer = b""
    while True:
        data = os.read(proto_in, 1 << 20)
        if not data:
            return 0
        *lines, buffer = (buffer + data).split(b"\n")
        lines = [line for line in lines if line.strip()]
        if executor is None:
            for line in lines:
                _write_all(proto_out, answer(line))
            continue
        futures = [executor.submit(_pooled if isinstance(executor, concurrent.futures.ProcessPoolExecutor)
                                   else answer, line) for line in lines]
        for line, future in zip(lines, futures):
            try:
                out = future.result()
            except BaseException as exc:  # a pool worker that died: this request's answer is the error
                out = _dump({"id": json.loads(line)["id"], "error": f"the worker process died ({_error(exc)})"})
            _write_all(proto_out, out)


def main(argv: list[str]) -> int:
    global _FUNC, _SIGNATURE
    signature, spec, mode = argv[1], argv[2], argv[3]
    _bounds.update(threads=int(argv[4]), processes=int(argv[5]), answer_chars=int(argv[6]), named_threads=int(argv[7]))
    sys.path[0] = os.getcwd()  # the user's modules, never this directory's
    proto_in, proto_out = os.dup(0), os.dup(1)
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull, encoding="utf-8")
    sys.stdout = sys.stderr
    try:
        _FUNC, _SIGNATURE = _load(signature, spec), signature
    except BaseException as exc:  # SystemExit at import included: the checker reports a usage error
        print(f"cannot load {spec}: {_error(exc)}", file=sys.stderr)
        return 2
    global _OWN_THREADS
    executor = _executor(mode)
    if executor is None:
        _OWN_THREADS = {thread.ident for thread in threading.enumerate() if thread.ident is not None}
    _write_all(proto_out, READY)
    try:
        code = _serve(proto_in, proto_out, executor)
    finally:
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
    if any(not thread.daemon for thread in threads_left()):  # already reported with each answer: do not wait
        sys.stderr.flush()
        os._exit(code)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv))
