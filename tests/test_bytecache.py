"""Every long-lived cache is bounded by estimated bytes (a ``Limits`` field), whatever its entries' count, and never
changes an answer: the compiled programs (tests/test_compiled.py), the memo tables and the gold caches."""

from __future__ import annotations

from progexec.core.bytecache import CHAR_BYTES, ENTRY_OVERHEAD, ByteCache, text_size
from progexec.core.arithmetic import official_str_to_num
from progexec.core.limits import DEFAULT_LIMITS, using
from progexec.reward import batch
from progexec.reward.core import score_completion


def test_the_oldest_entries_go_first_once_over_the_bound() -> None:
    cache: ByteCache[str, int] = ByteCache()
    for index in range(10):
        assert cache.put(f"k{index}", index, 100, max_bytes=350)
        assert cache.total <= 350
    assert list(cache.entries) == ["k7", "k8", "k9"]
    assert not cache.put("huge", 0, 351, max_bytes=350)  # larger than the whole bound: never kept
    assert cache.put("k10", 10, 100, max_bytes=1000, max_entries=2) and list(cache.entries) == ["k9", "k10"]


def test_a_memo_table_holds_its_bound_in_bytes() -> None:
    """A literal of 10,000 characters is ~20 KB of key: with a 100 KB bound at most five are kept at once."""
    official_str_to_num.cache_clear()
    bound = 100_000
    with using(DEFAULT_LIMITS.with_(max_memo_bytes=bound)):
        for digit in range(1, 10):
            text = str(digit) * 10_000
            assert official_str_to_num(text) == float(text)  # the answer is the uncached one
            assert official_str_to_num.cache.total <= bound
    assert len(official_str_to_num.cache) == bound // text_size("1" * 10_000)
    official_str_to_num.cache_clear()


def test_the_reward_gold_cache_holds_its_bound_in_bytes() -> None:
    batch._CACHE.clear()
    table = [["", "2019"]] + [[f"row {index}", f"{index}.5"] for index in range(100)]
    golds = [{"answer": float(seed + 10), "table": table, "question": f"q{seed:02d}"} for seed in range(30)]
    bound = 5 * batch.gold_bytes(golds[0])
    with using(DEFAULT_LIMITS.with_(max_cached_gold_bytes=bound)):
        for seed, gold in enumerate(golds):
            record = batch.cached_gold(gold)
            assert score_completion(f"Answer: {seed + 10}", record).score == 1.0
            assert batch._CACHE.total <= bound
    assert len(batch._GOLDS) == 5
    batch._CACHE.clear()


def test_a_text_entry_is_counted_by_its_characters() -> None:
    assert text_size("abc", "de") == ENTRY_OVERHEAD + 5 * CHAR_BYTES
