"""``execution_line`` writes exactly the bytes of ``dumps(execution_record(...))``, the one record shape.

Checked on every embedded FinQA, ConvFinQA and MathQA item, on the hostile snippets and bad inputs
of tests/data, and on generated programs with refusals, non-finite values and odd ids.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings, strategies as st

from progexec.datasets import get_dataset
from progexec.corpus import corpus_items
from progexec.core.item import Item
from progexec.readers import read
from progexec.record_line import execution_line
from progexec.records import dumps, execution_record
from progexec.runner import execute

from .strategies import programs, tables
from .test_batch_integrity import hostile_lines

DATA = Path(__file__).parent / "data"


def _same(item: Item) -> None:
    execution = execute(item)
    assert execution_line(execution) == dumps(execution_record(execution))


def test_every_corpus_item() -> None:
    for name in ("finqa", "convfinqa", "mathqa:test"):
        for item in corpus_items(name):
            _same(item)


def test_hostile_and_bad_inputs(tmp_path: Path) -> None:
    lines = hostile_lines(200, seed=5)  # mixed with real programs, as tests/test_determinism.py does
    for item in list(corpus_items("finqa:dev"))[:200]:
        lines.append(json.dumps({"id": item.id, "program": item.program, "table": item.table,
                                 "exe_ans": item.gold}).encode("utf-8"))
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    items = list(read(str(path))) + list(read(str(DATA / "report_small.jsonl")))
    assert len(items) > 400
    for item in items:
        _same(item)


@settings(max_examples=300, deadline=None)
@given(programs(), st.one_of(st.none(), tables()), st.sampled_from(["finqa", "convfinqa"]),
       st.one_of(st.none(), st.floats(allow_nan=True), st.sampled_from(["yes", "no", "n/a", "é\u2028\"\\"])),
       st.text(max_size=8), st.booleans(), st.sampled_from(["", "divide(1, 0)", "exp(10, 400)", "add(1e308, 1e308)",
                                                            "greater(1, 2)", "add(x, 1)", "nan"]))
def test_generated(program: object, table: list[list[str]] | None, dialect: str, gold: float | str | None,
                   item_id: str, use_text: bool, text: str) -> None:
    body = text if use_text else program.to_text()  # type: ignore[attr-defined]
    _same(Item(item_id, body, table, gold, gold is not None, dialect=get_dataset(dialect)))
