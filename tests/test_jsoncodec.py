"""The ``fast`` extra's JSON decoding gives exactly the standard library's values and errors.

``jsoncodec.loads`` and ``jsoncodec.raw_decoder`` must agree with ``json.loads`` and
``json.JSONDecoder().raw_decode`` (the readers' reference, which the corpora's gold tests pin) on
every value, by ``repr`` (``-0.0``, ``1`` against ``1.0``, integers of any size), and must raise the
same exception type where the standard library raises. Skipped without msgspec.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

pytest.importorskip("msgspec")

from progexec import jsoncodec  # noqa: E402
from progexec.corpus import corpus_items  # noqa: E402
from progexec.readers import read  # noqa: E402

from .test_batch_integrity import hostile_lines  # noqa: E402

DATA = Path(__file__).parent / "data"

TRICKY = ['{"a": 1, "a": 2}', "[1e400]", "[-1e400]", "[-0]", "[-0.0]", '["\\ud800"]', '["\\udc80x"]', "[NaN]",
          "[Infinity]", "[1" + "0" * 30 + "]", "[18446744073709551616]", "[-9223372036854775809]",
          "[1" + "0" * 4400 + "]", "[1E2]", "[1e-400]", '["a\\u0000b"]', " [1] ", "[4.9e-324]", "[01]", "[1.]",
          '{"k": "\u2028"}', "", "  ", "[", '{"a" 1}', "[1,]", '"\\x"', "tru", "[true, false, null]",
          '{"x": [[["deep"]]]}', "1 2", '["\ud800"]', "[123456789012345678901234567890.5]"]


def _outcome(function: object, text: str) -> str:
    try:
        return repr(function(text))  # type: ignore[operator]
    except Exception as error:  # the exception's type is part of the contract
        return f"raises {type(error).__name__}"


@pytest.mark.parametrize("text", TRICKY)
def test_tricky_texts_decode_as_the_standard_library_does(text: str) -> None:
    assert jsoncodec.fast_decoder() is not None
    assert _outcome(jsoncodec.loads, text) == _outcome(json.loads, text)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=20)


@settings(max_examples=400, deadline=None)
@given(json_values, st.booleans())
def test_generated_documents_decode_identically(value: object, ascii_only: bool) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert _outcome(jsoncodec.loads, text) == _outcome(json.loads, text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(["id", "program", "x"]), json_values, min_size=1, max_size=3),
                min_size=1, max_size=5), st.sampled_from([", ", ",", " ,\n "]))
def test_list_elements_are_cut_where_the_standard_library_cuts_them(elements: list[object], separator: str) -> None:
    text = "[" + separator.join(json.dumps(element) for element in elements) + "]"
    fast, standard = jsoncodec.raw_decoder(), json.JSONDecoder().raw_decode
    position = 1
    for _ in elements:
        got, want = fast(text, position), standard(text, position)
        assert repr(got) == repr(want)
        position = want[1]
        while text[position] in " ,\n":
            position += 1


def test_readers_give_the_same_items_with_and_without_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    lines = hostile_lines(200, seed=11)  # hostile lines mixed with real programs, as tests/test_determinism.py does
    for item in list(corpus_items("finqa:dev"))[:200]:
        lines.append(json.dumps({"id": item.id, "program": item.program, "table": item.table,
                                 "exe_ans": item.gold}).encode("utf-8"))
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_bytes(b"\n".join(lines) + b"\n")
    listed = tmp_path / "finqa.json"  # a FinQA-style list, decoded element by element
    listed.write_text(json.dumps([{"id": item.id, "table": item.table, "qa": {"program": item.program,
                                                                              "exe_ans": item.gold}}
                                  for item in list(corpus_items("finqa:test"))[:300]]), encoding="utf-8")
    sources = [str(mixed), str(listed), str(DATA / "report_small.jsonl"), str(DATA / "score_small" / "gold.json")]
    fast = [repr(list(read(source))) for source in sources]
    monkeypatch.setattr(jsoncodec, "FAST", None)
    assert fast == [repr(list(read(source))) for source in sources]
