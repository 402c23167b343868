"""verl training rows from the embedded FinQA, ConvFinQA and MathQA corpora, as Parquet or JSON Lines.

A row is what verl's RL dataset reads: ``data_source``, ``prompt`` (chat messages), ``ability``,
``reward_model`` (``style`` and ``ground_truth``, the gold answer as text: ``str(exe_ans)``, or the
correct option letter for MathQA) and ``extra_info`` (the rest of the gold record — table,
program, dialect, options, problem, policy — plus the item's id, split and question). Every row
has the same keys, so a Parquet file has one schema. The embedded FinQA and ConvFinQA corpora
hold no question text; ``--questions`` joins it from the official dataset files by id.

    python -m progexec.integrations.verl_rows --dataset finqa --split test --out finqa_test.parquet
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import json
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core.errors import InputError
from ..core.registry import dataset_names, rows_builders
from ..reward import Policy
from ..rows import VERL_CORPUS_KEYS, Questions, RowsSpec
from ..core.plural import plural

EXTRA_KEYS = VERL_CORPUS_KEYS
"""The keys of every row's ``extra_info``, in order (None where a dataset has no such field)."""


def _verl_builders() -> dict[str, RowsSpec]:
    """The rows builders that build embedded-corpus verl rows, by dataset, in the registry's order."""
    builders = {spec.name: spec for spec in rows_builders() if spec.verl_rows is not None}
    return {name: builders[name] for name in dataset_names() if name in builders}


def iter_rows(dataset: str, splits: Iterable[str], policy: Policy = Policy.NUMERIC,
              questions: Questions | None = None) -> Iterator[dict[str, Any]]:
    """The rows of ``dataset``'s ``splits``, in split order then corpus order."""
    builders = _verl_builders()
    if dataset not in builders:
        raise InputError(f"unknown dataset {dataset!r}; one of {', '.join(builders)}")
    spec = builders[dataset]
    assert spec.verl_rows is not None
    for split in splits:
        if split not in spec.verl_splits:
            raise InputError(f"{dataset} has no split {split!r}; one of {', '.join(spec.verl_splits)}")
        yield from spec.verl_rows(spec, split, policy, questions or {})


def load_questions(path: Path) -> dict[str, list[str]]:
    """Questions by id from an official FinQA file (``qa.question``) or ConvFinQA file
    (``annotation.dialogue_break``), plain or gzipped JSON."""
    try:
        raw = path.read_bytes()
        data = json.loads(gzip.decompress(raw) if path.suffix == ".gz" else raw)
    except (OSError, ValueError) as error:
        raise InputError(f"cannot read questions from {path}: {error}") from None
    if not isinstance(data, list):
        raise InputError(f"{path}: a questions file is a JSON list of items")
    found: dict[str, list[str]] = {}
    for item in data:
        if not isinstance(item, Mapping) or not isinstance(item.get("id"), str):
            continue  # an id-less item cannot be joined; counted by the caller as a row without a question
        turns = (item.get("annotation") or {}).get("dialogue_break")
        question = (item.get("qa") or {}).get("question")
        if isinstance(turns, list) and all(isinstance(turn, str) for turn in turns):
            found[item["id"]] = list(turns)
        elif isinstance(question, str):
            found[item["id"]] = [question]
    return found


def write_jsonl(rows: Iterable[dict[str, Any]], path: Path) -> int:
    """Write one JSON object per line; returns the row count."""
    count = 0
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
    return count


def write_parquet(rows: Iterable[dict[str, Any]], path: Path) -> int:
    """Write a Parquet file (needs pyarrow: ``pip install 'progexec[parquet]'``); returns the row count."""
    try:
        pa = importlib.import_module("pyarrow")
        pq = importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise InputError("Parquet output needs pyarrow: pip install 'progexec[parquet]' (or write .jsonl)") from None
    table = pa.Table.from_pylist(list(rows))
    pq.write_table(table, path)
    return int(table.num_rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, prog="python -m progexec.integrations.verl_rows",
                                     description="write verl RL rows from the embedded corpora")
    parser.add_argument("--dataset", required=True, choices=sorted(_verl_builders()))
    parser.add_argument("--split", action="append", metavar="SPLIT",
                        help="a split to include (repeatable; default: the dataset's first split)")
    parser.add_argument("--policy", default=Policy.NUMERIC.value, choices=[p.value for p in Policy])
    parser.add_argument("--questions", action="append", type=Path, default=[], metavar="FILE",
                        help="an official FinQA/ConvFinQA JSON file to take the question text from (repeatable)")
    parser.add_argument("--out", required=True, type=Path, help="FILE.parquet or FILE.jsonl")
    args = parser.parse_args(argv)
    try:
        questions: dict[str, list[str]] = {}
        for path in args.questions:
            questions.update(load_questions(path))
        splits = args.split or [_verl_builders()[args.dataset].verl_splits[0]]
        rows = list(iter_rows(args.dataset, splits, Policy(args.policy), questions))
        args.out.parent.mkdir(parents=True, exist_ok=True)
        writer = write_parquet if args.out.suffix == ".parquet" else write_jsonl
        count = writer(rows, args.out)
    except (InputError, OSError) as error:
        print(f"verl_rows: {error}", file=sys.stderr)
        return 2
    missing = sum(row["extra_info"]["question"] is None for row in rows)
    print(f"verl_rows: wrote {plural(count, 'row')} to {args.out}"
          + (f"; {missing} have no question text (pass --questions)" if missing else ""), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
