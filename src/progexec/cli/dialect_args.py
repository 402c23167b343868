"""``--dialect NAME`` for the batch commands: run every item under one registered dialect."""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Iterator
from dataclasses import replace

from ..core.registry import get_dataset, dataset_names as dialect_names, get_dataset as get_dialect
from ..core.item import Item
from ..core.errors import OptionError


def add_dialect_argument(parser: argparse.ArgumentParser, what: str = "every item") -> None:
    """The ``--dialect`` option: its choices are the registry's names."""
    parser.add_argument("--dialect", metavar="NAME", default=None,
                        help=f"run {what} under this dialect ({', '.join(dialect_names())}); default: the "
                             "dialect each input names (a dataset file's own, finqa for program records)")


def chosen_dialect(args: argparse.Namespace) -> str | None:
    """The ``--dialect`` asked for, checked against the registry (a usage error names the known ones)."""
    name = getattr(args, "dialect", None)
    if name is None:
        return None
    try:
        return get_dialect(name).name
    except OptionError as error:
        raise OptionError(str(error)) from None


def with_dialect(items: Iterable[Item], name: str | None) -> Iterator[Item]:
    """The items, each under dialect ``name`` when one is given (else as read)."""
    if name is None:
        yield from items
        return
    dataset = get_dataset(name)  # resolved once
    for item in items:
        yield item if item.dialect is dataset else replace(item, dialect=dataset)


__all__ = ["add_dialect_argument", "chosen_dialect", "with_dialect"]
