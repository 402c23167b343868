"""The parallel map: every engine gives the serial results, in order, bounded, failures named."""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator

import pytest

from progexec.parallel import (
    IN_FLIGHT_PER_WORKER, Engine, ParallelError, ParallelOptions, PerItem, chunked, parallel_map, run_stats,
)

PARSE: PerItem[str, int] = PerItem(int)
ITEMS = [str(n * 7919 % 10007) for n in range(10_007)]  # not a multiple of any chunk size used


def test_chunked_keeps_every_item_in_order() -> None:
    chunks = list(chunked(iter(range(10)), 4))
    assert chunks == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert list(chunked([], 3)) == []


@pytest.mark.parametrize("engine", [Engine.SERIAL, Engine.PROCESS])
def test_results_match_the_plain_map_in_input_order(engine: Engine) -> None:
    options = ParallelOptions(engine, jobs=2, chunk_size=333)
    stats = run_stats(options)
    got = list(parallel_map(PARSE, ITEMS, options, stats))
    assert got == [int(text) for text in ITEMS]
    assert stats.items == len(ITEMS) and stats.chunks == math.ceil(len(ITEMS) / 333)
    assert stats.record()["engine"] == engine.value


def test_empty_input_gives_no_results() -> None:
    assert list(parallel_map(PARSE, [], ParallelOptions(Engine.PROCESS, jobs=2))) == []


def test_input_is_read_lazily_with_bounded_chunks_in_flight() -> None:
    consumed = [0]

    def source() -> Iterator[str]:
        for text in ITEMS:
            consumed[0] += 1
            yield text

    options = ParallelOptions(Engine.PROCESS, jobs=2, chunk_size=100)
    results = parallel_map(PARSE, source(), options)
    assert next(results) == int(ITEMS[0])
    assert consumed[0] <= 100 * IN_FLIGHT_PER_WORKER * 2
    results.close()  # stopping early shuts the pool down without reading the rest
    assert consumed[0] < len(ITEMS)


def test_an_exception_in_the_chunk_function_propagates_unchanged() -> None:
    with pytest.raises(ValueError, match="invalid literal"):
        list(parallel_map(PARSE, ["1", "x"], ParallelOptions(Engine.PROCESS, jobs=2)))


def dedupe(chunk: list[int]) -> list[int]:
    return sorted(set(chunk))


def test_a_chunk_that_comes_back_short_is_an_error_not_a_silent_drop() -> None:
    with pytest.raises(ParallelError, match="chunk 0 .3 items. came back with 2 results"):
        list(parallel_map(dedupe, [1, 1, 2]))


def test_resolve_reads_the_cli_flags() -> None:
    assert ParallelOptions.resolve().engine is Engine.SERIAL
    assert ParallelOptions.resolve(jobs=4).engine is Engine.PROCESS
    assert ParallelOptions.resolve(ray_address="127.0.0.1:6379").engine is Engine.RAY
    assert ParallelOptions.resolve("serial", jobs=1).in_flight == 1
    with pytest.raises(ParallelError, match="unknown engine 'threads'"):
        ParallelOptions.resolve("threads")
    with pytest.raises(ParallelError, match="jobs must be between"):
        ParallelOptions(Engine.PROCESS, jobs=0)
    with pytest.raises(ParallelError, match="needs the ray engine"):
        ParallelOptions(Engine.PROCESS, jobs=2, ray_address="127.0.0.1:6379")


def test_the_ray_engine_without_ray_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # makes "import ray" fail as if it were not installed
    with pytest.raises(ParallelError, match=r"progexec\[ray\]"):
        list(parallel_map(PARSE, ["1"], ParallelOptions(Engine.RAY, jobs=1)))
