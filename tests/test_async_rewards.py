"""The async rewards (verl's ``compute_score_async``, TRL's ``AsyncProgexecReward``) on plain asyncio.

They give the committed gold set's expected scores, and the event loop that awaits them keeps running
other tasks while they work: the work waits until a probe coroutine on the same loop has run, so a
reward that blocked its loop would never see the probe (the wait fails instead of hanging). Nothing
here is timed.
"""

from __future__ import annotations

import asyncio
import gzip
import inspect
import json
import multiprocessing
import pickle
import selectors
import threading
import warnings
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from progexec.integrations import offload, verl as adapter
from progexec.integrations._gold import AdapterInputError
from progexec.integrations.trl import AsyncProgexecReward, ProgexecReward
from progexec.core.limits import Limits, using

GOLD_SET = Path(__file__).parent / "data" / "rewards" / "convfinqa_sonnet.jsonl.gz"
ITEMS = [json.loads(line) for line in gzip.decompress(GOLD_SET.read_bytes()).decode("utf-8").splitlines()[:40]]
POLICIES = ("official", "numeric", "helm")
MEGABYTE = "Let me think. " * 75_000 + "Answer: 94.0"  # 1 MB of completion text
WAIT = 120  # seconds a gated call waits for the probe before the test fails (it never hangs)


def _verl_args(item: dict[str, Any], policy: str) -> tuple[str, str, str, dict[str, Any]]:
    extra = {**{key: value for key, value in item["gold"].items() if key != "answer"}, "policy": policy}
    return "progexec/convfinqa", item["completion"], str(item["gold"]["answer"]), extra


@pytest.mark.parametrize("policy", POLICIES)
def test_compute_score_async_gives_the_gold_sets_scores(policy: str) -> None:
    async def all_items() -> list[dict[str, Any]]:
        return list(await asyncio.gather(*(adapter.compute_score_async(*_verl_args(item, policy))
                                           for item in ITEMS)))

    got = asyncio.run(all_items())
    assert [record["score"] for record in got] == [item["expected"][policy]["score"] for item in ITEMS]
    assert got == [adapter.compute_score(*_verl_args(item, policy)) for item in ITEMS]


class Gate:
    """Wraps a scoring function: the call records its thread and then waits for the loop's probe."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.probe_ran = threading.Event()
        self.threads: set[int] = set()
        self.saw_probe: list[bool] = []

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.threads.add(threading.get_ident())
        self.saw_probe.append(self.probe_ran.wait(WAIT))
        return self.function(*args, **kwargs)

    async def probe(self) -> None:
        await asyncio.sleep(0)
        self.probe_ran.set()


def test_compute_score_async_leaves_the_loop_free_even_with_a_megabyte_completion(
        monkeypatch: pytest.MonkeyPatch) -> None:
    gate = Gate(adapter.compute_score)
    monkeypatch.setattr(adapter, "compute_score", gate)
    item = ITEMS[0]
    source, _, truth, extra = _verl_args(item, "numeric")

    async def batch() -> list[Any]:
        loop_thread = threading.get_ident()
        results = await asyncio.gather(adapter.compute_score_async(source, MEGABYTE, truth, extra),
                                       adapter.compute_score_async(*_verl_args(item, "numeric")), gate.probe())
        assert loop_thread not in gate.threads
        return results[:2]

    huge, normal = asyncio.run(batch())
    assert gate.saw_probe == [True, True]  # each call waited for the probe, which ran on the loop meanwhile
    assert huge["status"] == "too_large" and huge["score"] == 0.0
    assert normal["score"] == item["expected"]["numeric"]["score"]


def test_the_async_trl_reward_leaves_the_loop_free(monkeypatch: pytest.MonkeyPatch) -> None:
    reward = AsyncProgexecReward(policy="numeric")
    gate = Gate(reward.results)
    monkeypatch.setattr(reward, "results", gate)
    completions = [MEGABYTE] + [item["completion"] for item in ITEMS]
    answers = ["94.0"] + [str(item["gold"]["answer"]) for item in ITEMS]

    async def step() -> list[Any]:
        scores, _ = await asyncio.gather(reward(prompts=None, completions=completions, answer=answers), gate.probe())
        return list(scores)

    scores = asyncio.run(step())
    assert gate.saw_probe == [True] and threading.get_ident() not in gate.threads
    assert scores == [0.0] + [item["expected"]["numeric"]["score"] for item in ITEMS]  # 1 MB: too_large, 0


@pytest.mark.parametrize("policy", POLICIES)
def test_the_async_trl_reward_scores_as_the_sync_one(policy: str) -> None:
    columns = {"answer": [str(item["gold"]["answer"]) for item in ITEMS],
               "program": [item["gold"]["program"] for item in ITEMS],
               "table": [item["gold"].get("table") for item in ITEMS], "dialect": ["convfinqa"] * len(ITEMS)}
    completions = [item["completion"] for item in ITEMS]
    logged: dict[str, list[Any]] = {}
    reward = AsyncProgexecReward(policy=policy)
    got = asyncio.run(reward(prompts=None, completions=completions, completion_ids=None,
                             log_extra=logged.__setitem__, **columns))
    assert got == [item["expected"][policy]["score"] for item in ITEMS]
    assert got == ProgexecReward(policy=policy)(prompts=None, completions=completions, **columns)
    assert len(logged["progexec_reward_status"]) == len(ITEMS)
    assert inspect.iscoroutinefunction(type(reward).__call__)
    assert pickle.loads(pickle.dumps(reward)).policy == policy


def test_the_async_trl_reward_raises_what_the_sync_one_raises() -> None:
    with pytest.raises(AdapterInputError, match="AsyncProgexecReward: unknown policy"):
        AsyncProgexecReward(policy="oficial")
    with pytest.raises(AdapterInputError, match="no gold column 'answer'"):
        asyncio.run(AsyncProgexecReward()(prompts=None, completions=["Answer: 1"], question=["q"]))


def test_the_callers_limits_travel_to_the_scoring_thread() -> None:
    source, completion, truth, extra = _verl_args(ITEMS[0], "numeric")

    async def tight() -> dict[str, Any]:
        with using(Limits(max_completion_chars=10)):
            return await adapter.compute_score_async(source, completion, truth, extra)

    assert asyncio.run(tight())["status"] == "too_large"
    assert asyncio.run(adapter.compute_score_async(source, completion, truth, extra))["status"] != "too_large"


def test_one_pool_serves_every_loop_and_thread() -> None:
    source, completion, truth, extra = _verl_args(ITEMS[0], "numeric")
    expected = ITEMS[0]["expected"]["numeric"]["score"]
    results: list[float] = []
    pools = []

    def in_a_new_loop() -> None:
        results.append(asyncio.run(adapter.compute_score_async(source, completion, truth, extra))["score"])
        pools.append(offload.scoring_thread())

    in_a_new_loop()
    other = threading.Thread(target=in_a_new_loop)
    other.start()
    other.join()
    in_a_new_loop()
    assert results == [expected] * 3
    assert pools[0] is pools[1] is pools[2]


def _score_in_child(connection: Any) -> None:
    source, completion, truth, extra = _verl_args(ITEMS[0], "numeric")
    score = asyncio.run(adapter.compute_score_async(source, completion, truth, extra))["score"]
    connection.send((score, offload.scoring_thread() is not PARENT_POOL[0]))
    connection.close()


PARENT_POOL: list[Any] = []


def test_a_forked_child_makes_its_own_pool() -> None:
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform")
    source, completion, truth, extra = _verl_args(ITEMS[0], "numeric")
    asyncio.run(adapter.compute_score_async(source, completion, truth, extra))  # the parent's pool has a thread
    PARENT_POOL[:] = [offload.scoring_thread()]
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    with warnings.catch_warnings():  # Python 3.12+ warns on fork() in a process with threads: this test means it
        warnings.simplefilter("ignore", DeprecationWarning)
        child = context.Process(target=_score_in_child, args=(sender,))
        child.start()
    sender.close()
    assert receiver.poll(WAIT), "the forked child did not answer (a pool inherited from the parent would hang it)"
    assert receiver.recv() == (ITEMS[0]["expected"]["numeric"]["score"], True)
    child.join()
    assert child.exitcode == 0


def test_what_the_scoring_call_raises_is_raised_in_the_awaiting_coroutine() -> None:
    def broken() -> None:
        raise ValueError("a scorer bug")

    def exhausted() -> None:
        raise StopIteration

    with pytest.raises(ValueError, match="a scorer bug"):
        asyncio.run(offload.offloaded(broken))
    with pytest.raises(RuntimeError, match="StopIteration"):  # asyncio cannot raise StopIteration itself
        asyncio.run(offload.offloaded(exhausted))
    with pytest.raises(AdapterInputError, match="no gold"):
        asyncio.run(adapter.compute_score_async("progexec/finqa", "Answer: 1", None, {}))


class CountingSelector(selectors.DefaultSelector):
    """The event loop's selector, counting its turns: the loop polls it exactly once per turn."""

    turns = 0

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        self.turns += 1
        return super().select(timeout)


def test_a_gathered_batch_is_one_job_whose_answers_come_back_a_slice_per_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """verl gathers a whole batch at once: its calls reach the scoring thread as one job, and even when every answer
    is ready before the loop looks (the loop is held still meanwhile) it resumes at most a slice of them per turn,
    so its other tasks run in between. Before, each answer was a callback of its own and all ran in one turn."""
    slice_size, items = 4, ITEMS[:24]
    jobs: list[int] = []
    submit = offload.ScoringThread.submit
    monkeypatch.setattr(offload.ScoringThread, "submit", lambda self, job: (jobs.append(len(job.calls)),
                                                                            submit(self, job))[1])
    first_call, all_answered = threading.Event(), threading.Event()
    real = adapter.compute_score
    answered: list[int] = []

    def counted(*args: Any, **kwargs: Any) -> dict[str, Any]:
        first_call.set()
        try:
            return real(*args, **kwargs)
        finally:
            answered.append(1)
            if len(answered) == len(items):
                all_answered.set()

    monkeypatch.setattr(adapter, "compute_score", counted)
    selector = CountingSelector()

    async def batch() -> list[tuple[int, dict[str, Any]]]:
        async def one(item: dict[str, Any]) -> tuple[int, dict[str, Any]]:
            record = await adapter.compute_score_async(*_verl_args(item, "numeric"))
            return selector.turns, record

        with using(Limits(async_answers_per_slice=slice_size)):
            tasks = [asyncio.ensure_future(one(item)) for item in items]
        while not first_call.is_set():  # the job has reached the scoring thread
            await asyncio.sleep(0)
        assert all_answered.wait(WAIT)  # the loop stands still until every call has been judged
        return list(await asyncio.gather(*tasks))

    loop = asyncio.SelectorEventLoop(selector)
    try:
        got = loop.run_until_complete(batch())
    finally:
        loop.close()
    assert jobs == [len(items)]
    per_turn = Counter(turn for turn, _ in got)
    assert max(per_turn.values()) <= slice_size and len(per_turn) >= len(items) // slice_size
    assert [record for _, record in got] == [real(*_verl_args(item, "numeric")) for item in items]


def test_loops_in_two_threads_gathering_at_once_each_get_their_own_answers() -> None:
    barrier = threading.Barrier(2)
    got: dict[str, list[dict[str, Any]]] = {}

    def gather_in_a_loop(policy: str) -> None:
        async def batch() -> list[dict[str, Any]]:
            barrier.wait(WAIT)
            return list(await asyncio.gather(*(adapter.compute_score_async(*_verl_args(item, policy))
                                               for item in ITEMS)))

        got[policy] = asyncio.run(batch())

    threads = [threading.Thread(target=gather_in_a_loop, args=(policy,)) for policy in ("official", "helm")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    for policy in ("official", "helm"):
        assert [record["score"] for record in got[policy]] == [item["expected"][policy]["score"] for item in ITEMS]


def test_a_call_that_raises_in_a_gathered_batch_leaves_the_others_their_scores() -> None:
    async def batch() -> list[Any]:
        calls = [adapter.compute_score_async(*_verl_args(item, "numeric")) for item in ITEMS[:5]]
        calls.insert(2, adapter.compute_score_async("progexec/finqa", "Answer: 1", None, {}))
        return list(await asyncio.gather(*calls, return_exceptions=True))

    got = asyncio.run(batch())
    assert isinstance(got[2], AdapterInputError) and "no gold" in str(got[2])
    assert [record["score"] for record in got[:2] + got[3:]] == [item["expected"]["numeric"]["score"]
                                                                 for item in ITEMS[:5]]


def test_a_loop_closed_with_answers_pending_leaves_the_thread_serving_the_next_loop() -> None:
    started, release = threading.Event(), threading.Event()

    def held() -> str:
        started.set()
        assert release.wait(WAIT)
        return "late"

    async def until_started() -> None:
        asyncio.ensure_future(asyncio.gather(offload.offloaded(held), offload.offloaded(str, "never awaited")))
        while not started.is_set():
            await asyncio.sleep(0)

    loop = asyncio.new_event_loop()
    with warnings.catch_warnings():  # the pending tasks are destroyed with their loop, as the test means
        warnings.simplefilter("ignore", ResourceWarning)
        loop.run_until_complete(until_started())
        loop.close()
    release.set()  # the thread now answers a closed loop: it must drop the answers and carry on
    source, completion, truth, extra = _verl_args(ITEMS[0], "numeric")
    assert asyncio.run(adapter.compute_score_async(source, completion, truth, extra))["score"] == \
        ITEMS[0]["expected"]["numeric"]["score"]


def test_a_turn_left_unsent_by_a_stopped_loop_is_neither_joined_by_another_loop_nor_lost() -> None:
    first = asyncio.new_event_loop()
    submitted: list[asyncio.Future[str]] = []

    def submit_as_the_loop_stops() -> None:
        submitted.append(offload.submit(str.upper, "sent when its loop runs again"))
        first.stop()  # the loop ends with this turn, before the call is sent (at its next turn)

    try:
        first.call_soon(submit_as_the_loop_stops)
        first.run_forever()
        pending = submitted[0]
        assert not pending.done()
        source, completion, truth, extra = _verl_args(ITEMS[0], "numeric")  # another loop in the same thread: a call
        # that joined the first loop's turn would be answered on that loop, and this one would wait in vain
        call = adapter.compute_score_async(source, completion, truth, extra)
        assert asyncio.run(asyncio.wait_for(call, WAIT))["score"] == ITEMS[0]["expected"]["numeric"]["score"]
        assert first.run_until_complete(pending) == "SENT WHEN ITS LOOP RUNS AGAIN"
    finally:
        first.close()
