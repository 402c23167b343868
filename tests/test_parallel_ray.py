"""The ray engine on a local cluster (num_cpus=2) gives exactly the serial results, in order."""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from pathlib import Path

import pytest

from progexec.parallel import Engine, ParallelOptions, PerItem, parallel_map, run_stats

ray = pytest.importorskip("ray")
pytestmark = pytest.mark.ray

PARSE: PerItem[str, int] = PerItem(int)
GOLD_SET = Path(__file__).parent / "data" / "rewards" / "convfinqa_sonnet.jsonl.gz"
ITEMS = [str(n * 7919 % 10007) for n in range(5003)]


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_a_local_ray_cluster_matches_serial_and_is_left_running(cluster: None) -> None:
    options = ParallelOptions(Engine.RAY, jobs=2, chunk_size=250)
    stats = run_stats(options)
    got = list(parallel_map(PARSE, ITEMS, options, stats))
    assert got == list(parallel_map(PARSE, ITEMS))
    assert got == [int(text) for text in ITEMS]
    assert stats.chunks == 21 and stats.items == len(ITEMS)
    assert ray.is_initialized()  # a cluster the run did not start is not the run's to stop


def test_an_exception_in_a_ray_task_surfaces_as_its_own_type(cluster: None) -> None:
    with pytest.raises(ValueError, match="invalid literal"):
        list(parallel_map(PARSE, ["1", "x"], ParallelOptions(Engine.RAY, jobs=2)))


def test_progexec_reward_on_ray_writes_the_serial_bytes(cluster: None, tmp_path: Path) -> None:
    from progexec.cli import main

    lines = gzip.decompress(GOLD_SET.read_bytes()).decode("utf-8").splitlines()[:300]
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    serial, on_ray = tmp_path / "serial.jsonl", tmp_path / "ray.jsonl"
    assert main(["reward", str(source), "--quiet", "--out", str(serial)]) == 0
    assert main(["reward", str(source), "--quiet", "--out", str(on_ray), "--engine", "ray", "--jobs", "2",
                 "--chunk-size", "64"]) == 0
    assert on_ray.read_bytes() == serial.read_bytes()
    assert len(serial.read_bytes().splitlines()) == 300


def _docs_ray_example() -> str:
    text = (Path(__file__).resolve().parent.parent / "docs" / "reward-integrations.md").read_text(encoding="utf-8")
    marker = text.index("<!-- ray-example: executed by tests/test_parallel_ray.py -->")
    start = text.index("```python\n", marker) + len("```python\n")
    return text[start:text.index("```\n", start)]


def test_the_docs_ray_example_of_score_batch_gives_progexec_rewards_records(
        cluster: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from progexec.cli import main

    lines = gzip.decompress(GOLD_SET.read_bytes()).decode("utf-8").splitlines()  # 1,490 completions: two tasks of 1,000 lines
    (tmp_path / "completions.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    exec(compile(_docs_ray_example(), "docs/reward-integrations.md", "exec"), namespace)  # noqa: S102
    assert main(["reward", "completions.jsonl", "--policy", "numeric", "--quiet", "--out", "cli.jsonl"]) == 0
    written = [json.loads(line) for line in (tmp_path / "cli.jsonl").read_text(encoding="utf-8").splitlines()]
    assert namespace["records"] == written and len(written) == len(lines) > 1000
    expected = [json.loads(line)["expected"]["numeric"]["score"] for line in lines]
    assert namespace["rewards"] == expected
    assert namespace["first_rewards"] == [1.0]  # subtract(5829, 5735) = 94.0


def test_async_ray_actors_gathering_compute_score_async_get_the_gold_sets_scores(cluster: None) -> None:
    """A reward-loop actor (verl's RewardLoopWorker is an async Ray actor) gathers a whole batch on its own event
    loop, in its own thread: two such actors at once, each with two batches in flight, get every score."""
    import json

    @ray.remote
    class RewardActor:
        async def scores(self, rows: list[tuple[str, str, str, dict[str, str]]]) -> list[float]:
            import asyncio

            from progexec.integrations.verl import compute_score_async

            return [record["score"] for record in await asyncio.gather(*(compute_score_async(*row) for row in rows))]

    items = [json.loads(line) for line in gzip.decompress(GOLD_SET.read_bytes()).decode("utf-8").splitlines()[:400]]
    rows = [("progexec/convfinqa", item["completion"], str(item["gold"]["answer"]),
             {"program": item["gold"]["program"], "policy": "numeric"}) for item in items]
    actors = [RewardActor.remote() for _ in range(2)]  # type: ignore[attr-defined]
    halves = [rows[:200], rows[200:]]
    calls = [actor.scores.remote(half) for actor in actors for half in halves]
    expected = [item["expected"]["numeric"]["score"] for item in items]
    assert [score for got in ray.get(calls) for score in got] == expected * 2
