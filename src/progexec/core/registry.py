"""Finding a :class:`~progexec.core.dataset.Dataset` by name: the built-in ones, entry points, and ``register``.

The built-in table is :data:`progexec.datasets.BUILTIN`; a third-party distribution adds a dataset through
the entry point group ``progexec.datasets`` (``name = "package.module:RECORD"``), the way pytest plugins
register. Both are read by name at run time (``importlib``), so this bottom layer imports nothing above it and
a dataset module is imported only when its name is first looked up (``import progexec`` stays cheap).
"""

from __future__ import annotations

import copyreg
import difflib
import importlib
import os
import sys
import threading
from collections.abc import Callable
from typing import Any

from .dataset import Dataset
from .errors import OptionError

BUILTIN_PACKAGE = "progexec.datasets"
"""The package whose ``BUILTIN`` maps each built-in dataset name to ``module:attribute`` of its record."""

ENTRY_POINT_GROUP = "progexec.datasets"
"""The entry point group a third-party dataset registers in: ``name = "module:RECORD"``."""


UnknownDialectError = OptionError
"""A dataset name no registry entry has (an :class:`OptionError`)."""


_LOADED: dict[str, Dataset] = {}
_ADDED: dict[str, str] = {}
_LOCK = threading.Lock()
_PLUGINS: dict[str, str] | None = None
_FORMATS: list[tuple[str, Callable[[dict[str, Any]], bool], str]] = []


def _builtin() -> dict[str, str]:
    table = importlib.import_module(BUILTIN_PACKAGE).BUILTIN
    assert isinstance(table, dict)
    return table


def _declares_group() -> bool:
    """Whether any distribution on ``sys.path`` declares the entry point group: a look at each one's
    ``entry_points.txt`` (about a millisecond), so that a process with no third-party dataset never imports
    ``importlib.metadata`` (tens of milliseconds of every command's start-up)."""
    marker = f"[{ENTRY_POINT_GROUP}]".encode()
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.endswith((".dist-info", ".egg-info")):
                try:
                    with open(os.path.join(entry or ".", name, "entry_points.txt"), "rb") as handle:
                        if marker in handle.read():
                            return True
                except OSError:
                    continue
    return False


def _plugins() -> dict[str, str]:
    """Name -> ``module:attribute`` of every installed distribution's ``progexec.datasets`` entry point."""
    global _PLUGINS
    if _PLUGINS is None:
        found: dict[str, str] = {}
        if _declares_group():
            import importlib.metadata

            found = {point.name: point.value for point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
        with _LOCK:
            _PLUGINS = found
    return _PLUGINS


def reset_plugins() -> None:
    """Forget the entry points read so far (after installing a distribution, or in a test)."""
    global _PLUGINS
    with _LOCK:
        _PLUGINS = None
        _FORMATS.clear()
        for name in [name for name in _LOADED if name not in _builtin() and name not in _ADDED]:
            del _LOADED[name]


def register(dataset: Dataset) -> Dataset:
    """Add (or replace) a dataset entry at run time (its file shape, if it has one, is tried after the others');
    returns it."""
    with _LOCK:
        _LOADED[dataset.name] = dataset
        _ADDED[dataset.name] = ""
        _FORMATS.clear()
    return dataset


def dataset_names() -> tuple[str, ...]:
    """Every registered dataset name: built-in ones first (in the order commands list them), then entry points,
    then those added by :func:`register`."""
    names = dict.fromkeys(_builtin())
    names.update(dict.fromkeys(_plugins()))
    names.update(dict.fromkeys(_ADDED))
    return tuple(names)


def get_dataset(name: str) -> Dataset:
    """The record named ``name``; raises UnknownDialectError naming the known ones."""
    found = _LOADED.get(name)
    if found is not None:
        return found
    where = _builtin().get(name) or _plugins().get(name) if isinstance(name, str) else None
    if not where:
        known = dataset_names()
        close = difflib.get_close_matches(str(name), list(known), n=1) if isinstance(name, str) else []
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise UnknownDialectError(f"unknown dialect {name!r}{hint}; one of {', '.join(known)}")
    module, _, attribute = where.partition(":")
    entry = getattr(importlib.import_module(module), attribute)
    if not isinstance(entry, Dataset):
        raise UnknownDialectError(f"dataset {name!r}: {where} is not a progexec Dataset record")
    with _LOCK:
        _LOADED[name] = entry
    return entry


def corpus_names() -> tuple[str, ...]:
    """Every embedded corpus name (``finqa:test``, ...): the built-in table's, then each entry point dataset's
    ``corpora``."""
    names = list(importlib.import_module(BUILTIN_PACKAGE).CORPORA)
    for name in _plugins():
        names.extend(name_ for name_ in getattr(get_dataset(name), "corpora", ()) if name_ not in names)
    return tuple(names)


def _table(name: str) -> Any:
    return getattr(importlib.import_module(BUILTIN_PACKAGE), name)


def reward_dataset_names() -> tuple[str, ...]:
    """The datasets whose gold programs the reward runs, in the order messages list them: the built-in table's,
    then each entry point dataset with a ``reward_run``."""
    names: list[str] = list(_table("PROGRAM_REWARDS"))
    names.extend(name for name in _plugins() if name not in names and get_dataset(name).reward_run is not None)
    return tuple(names)


def sandboxed_reward_names() -> tuple[str, ...]:
    """Gold ``dialect`` names whose reward rule runs a completion's code in the sandbox (``serve`` never works
    their requests on its event loop): the built-in table's, then each entry point dataset marked ``sandboxed``."""
    names: list[str] = list(_table("SANDBOXED_REWARDS"))
    names.extend(name for name in _plugins() if name not in names and get_dataset(name).sandboxed)
    return tuple(names)


def solution_commands() -> tuple[Any, ...]:
    """The own ``score-python`` scorers of the datasets that have one (modules with ``is_gold`` and ``run``),
    imported when asked for: the built-in table's."""
    return tuple(importlib.import_module(where) for where in _table("SOLUTION_COMMANDS"))


def reward_rules() -> dict[str, str]:
    """Gold ``dialect`` -> ``module:function`` of a dataset's own reward rule (answers that are not programs):
    the built-in table's, then each entry point dataset's ``reward_rule``."""
    rules: dict[str, str] = dict(_table("REWARD_RULES"))
    for name in _plugins():
        rule = get_dataset(name).reward_rule
        if rule:
            rules.setdefault(name, rule)
    return rules


def file_formats() -> tuple[tuple[str, Callable[[dict[str, Any]], bool], str], ...]:
    """(dataset name, shape test, words) of every dataset file format, in the order they are tried: the built-in
    table's, then each entry point dataset's and each registered one's ``shape`` (read once)."""
    if not _FORMATS:
        found = list(_table("FORMATS"))
        for name in (*_plugins(), *_ADDED):
            dataset = get_dataset(name)
            if dataset.shape is not None and all(name != known for known, _, _ in found):
                found.append((name, dataset.shape, dataset.shape_words or f"records of {dataset.title}"))
        with _LOCK:
            if not _FORMATS:
                _FORMATS.extend(found)
    return tuple(_FORMATS)


def corpus_shortcuts() -> dict[str, tuple[str, ...]]:
    """``exec --corpus NAME``: the embedded corpora each name runs (the built-in table's; the first is the default)."""
    return dict(_table("CORPUS_SHORTCUTS"))


def corpus_file(name: str) -> str | None:
    """The package data file of a dataset's embedded corpora (``{split}`` to fill in), or None."""
    builtin: dict[str, str] = _table("CORPUS_FILES")
    if name in builtin:
        return builtin[name]
    if name in _plugins():
        return get_dataset(name).corpus_file or None
    return None


def _load(where: str) -> Any:
    module, _, attribute = where.partition(":")
    return getattr(importlib.import_module(module), attribute)


def rows_builders() -> tuple[Any, ...]:
    """Every dataset's rows builder (a ``progexec.rows.RowsSpec``), in the order official records are tried:
    the built-in table's, then each entry point dataset's ``rows``."""
    places = list(_table("ROWS").values())
    places.extend(get_dataset(name).rows for name in _plugins() if get_dataset(name).rows)
    return tuple(_load(where) for where in places)


def default_dataset() -> Dataset:
    """The dataset of a program that names none: the first built-in one (FinQA)."""
    return get_dataset(next(iter(_builtin())))


def _reduce(dataset: Dataset) -> tuple[Any, tuple[str]]:
    """A record is pickled by name: a worker process looks it up in its own registry."""
    return get_dataset, (dataset.name,)


copyreg.pickle(Dataset, _reduce)


def option_dataset_names() -> tuple[str, ...]:
    """The datasets answered by option letters (MathQA), without importing the others: the built-in table's,
    then each entry point or registered dataset with ``option_letters``."""
    names = list(_table("OPTION_DATASETS"))
    names.extend(name for name in (*_plugins(), *_ADDED) if name not in names and get_dataset(name).option_letters)
    return tuple(names)


def datasets() -> tuple[Dataset, ...]:
    """Every registered dataset's record, in :func:`dataset_names` order (imports each one)."""
    return tuple(get_dataset(name) for name in dataset_names())


__all__ = ["UnknownDialectError", "register", "dataset_names", "get_dataset", "datasets", "corpus_names", "option_dataset_names", "rows_builders", "corpus_shortcuts", "corpus_file", "file_formats", "default_dataset", "reward_dataset_names", "reward_rules", "sandboxed_reward_names", "solution_commands", "reset_plugins",
           "BUILTIN_PACKAGE", "ENTRY_POINT_GROUP"]
