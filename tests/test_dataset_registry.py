"""The dataset registry: built-in records by name, a third-party dataset through the ``progexec.datasets``
entry point group (as pytest plugins register), and records that travel to worker processes by name."""

from __future__ import annotations

import importlib.metadata
import pickle
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import progexec
from progexec.core import registry
from progexec.core.registry import UnknownDialectError, dataset_names, get_dataset

PLUGIN = textwrap.dedent('''
    """A third-party dataset: FinQA's program language under another name, with a file shape of its own."""
    from dataclasses import replace

    from progexec.datasets.finqa import FINQA
    from progexec.readers import make_item

    def _reader(record, stem):
        yield make_item(record.value["key"], record.value["formula"], None, record.value.get("gold"), TOY,
                        record.where)

    TOY = replace(FINQA, name="toyqa", title="ToyQA", reader=_reader, corpus=None,
                  shape=lambda value: "formula" in value and "key" in value, shape_words="ToyQA records (with formula)")
''')


@pytest.fixture
def toy_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """An installed distribution on ``sys.path`` declaring ``toyqa = toy_dataset:TOY`` in the entry point group,
    as ``pip install`` leaves it (its ``.dist-info`` with METADATA and entry_points.txt)."""
    (tmp_path / "toy_dataset.py").write_text(PLUGIN, encoding="utf-8")
    info = tmp_path / "toy_dataset-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-dataset\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{registry.ENTRY_POINT_GROUP}]\ntoyqa = toy_dataset:TOY\n",
                                           encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.reset_plugins()
    assert "toyqa" in {point.name for point in importlib.metadata.entry_points(group=registry.ENTRY_POINT_GROUP)}
    yield
    monkeypatch.undo()
    registry.reset_plugins()
    sys.modules.pop("toy_dataset", None)


def test_the_builtin_datasets_in_the_order_commands_list_them() -> None:
    assert dataset_names()[:5] == ("finqa", "convfinqa", "mathqa", "multihiertt", "tatqa")
    assert get_dataset("convfinqa").bare_numbers and not get_dataset("finqa").bare_numbers  # ConvFinQA's spec


def test_an_unknown_name_is_an_option_error_naming_the_known_ones() -> None:
    with pytest.raises(UnknownDialectError, match=r"unknown dialect 'finqaa' \(did you mean 'finqa'\?\); one of finqa"):
        get_dataset("finqaa")


def test_a_record_is_pickled_by_name_and_comes_back_as_the_registered_one() -> None:
    item = next(iter(progexec.read("finqa:test")))
    assert pickle.loads(pickle.dumps(item.dialect)) is get_dataset("finqa")
    assert pickle.loads(pickle.dumps(item)) == item


@pytest.mark.usefixtures("toy_plugin")
def test_an_entry_point_dataset_is_found_by_name_and_listed() -> None:
    assert "toyqa" in dataset_names() and get_dataset("toyqa").title == "ToyQA"
    # its program language is FinQA's: the interpreter runs it without naming it
    assert progexec.run("subtract(5829, 5735), divide(#0, 5735)", dialect="toyqa").official.value == 0.01639


@pytest.mark.usefixtures("toy_plugin")
def test_an_entry_point_dataset_s_files_are_read_by_its_own_reader(tmp_path: Path) -> None:
    source = tmp_path / "toy.json"
    source.write_text('[{"key": "t1", "formula": "add(1, 2)", "gold": 3}, {"key": "t2", "formula": "add(2, 2)", '
                      '"gold": 5}]', encoding="utf-8")
    executions = [progexec.execute(item) for item in progexec.read(source)]
    assert [(e.item.id, e.item.dialect.name, e.match) for e in executions if e.item is not None] == [
        ("t1", "toyqa", True), ("t2", "toyqa", False)]


def test_without_the_entry_point_the_name_is_unknown() -> None:
    registry.reset_plugins()
    with pytest.raises(UnknownDialectError):
        get_dataset("toyqa")
