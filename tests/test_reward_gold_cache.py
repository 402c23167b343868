"""The reward batch's cache of parsed gold records never changes a result.

Golds that Python's ``==`` would confuse (``1`` / ``1.0`` / ``True``, ``0.0`` / ``-0.0``), golds that
differ in one field only (a ``unit``, a ``policy``, one table cell), and golds that cannot be parsed are
judged in one chunk, each twice, right after each other; every output line must equal the one
``score_completion`` gives on the raw gold (the cache-free path, which tests/test_reward_core.py pins).
"""

from __future__ import annotations

import json

from progexec.jsonrecords import decode
from progexec.reward import batch
from progexec.reward.core import score_completion

TABLE = [["", "2019"], ["revenue", "$ 94"], ["cost", "12"]]
GOLDS: list[object] = [
    {"answer": 1}, {"answer": 1.0}, {"answer": True}, {"answer": 0.0}, {"answer": -0.0},
    {"answer": 94.0, "table": TABLE}, {"answer": 94.0, "table": TABLE, "unit": "million"},
    {"answer": 94.0, "table": [["", "2019"], ["revenue", "$ 95"], ["cost", "12"]]},
    {"answer": 94.0, "program": "table_max(revenue, none)", "table": TABLE, "policy": "official"},
    {"answer": 94.0, "program": "table_max(revenue, none)", "table": TABLE, "policy": "numeric"},
    {"answer": "yes"}, {"answer": "no"}, "0.5", '{"answer": 0.5}', {"answer": 1.0, "table": [[1, 2]]},
    {"answer": [1]}, {"answer": float("nan")}, {"program": "add(1, 2)"}, {"answer": 3, "options": "a ) 3 , b ) 4"},
]
COMPLETIONS = ["The answer is $94 million.", "Answer: 1", "Answer: yes", "Answer: -0", "Program: table_max(revenue, none)"]


def test_cached_golds_give_the_uncached_results() -> None:
    batch._GOLDS.clear()
    lines: list[str] = []
    expected: list[dict[str, object]] = []
    for completion in COMPLETIONS:
        for gold in GOLDS:
            for _ in range(2):
                lines.append(json.dumps({"id": len(lines), "completion": completion, "gold": gold}))
                record = score_completion(completion, gold).record()  # type: ignore[arg-type]
                expected.append({"id": len(lines) - 1, "line": len(lines), **record})
    text, counts = batch.score_chunk([decode(line, number, f"line {number}") for number, line in enumerate(lines, 1)])
    got = [json.loads(line) for line in text.splitlines()]
    assert [json.dumps(a) for a in got] == [json.dumps(b) for b in expected]
    assert sum(counts.values()) == len(lines)
    assert batch._GOLDS  # the cache was used
