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

from ..corpus import convfinqa_records, finqa_records
from ..errors import ProgexecError
from ..mathqa.corpus import mathqa_records
from ..reward import Policy
from .verl import DATA_SOURCE_DIALECTS
from ..plural import plural

SPLITS = {"finqa": ("test", "dev", "train"), "convfinqa": ("dev", "train"), "mathqa": ("test", "dev", "challenge_test")}
ABILITY = {"finqa": "finance", "convfinqa": "finance", "mathqa": "math"}
SOURCE = {dialect: source for source, dialect in DATA_SOURCE_DIALECTS.items()}
EXTRA_KEYS = ("id", "split", "index", "question", "table", "program", "dialect", "options", "problem", "policy")
"""The keys of every row's ``extra_info``, in order (None where a dataset has no such field)."""

Questions = Mapping[str, Sequence[str]]
"""Item id -> its questions (one for FinQA, one per turn for ConvFinQA)."""

INSTRUCTIONS = {
    Policy.OFFICIAL: {
        "finqa": "Answer with one program in the FinQA DSL (for example subtract(5829, 5735), divide(#0, 5735)) "
                 "on a line starting 'Program:'.",
        "mathqa": "Answer with one program in the MathQA DSL (for example add(n0,n1)|divide(#0,const_2)|) "
                  "on a line starting 'Program:'.",
    },
    Policy.NUMERIC: {
        "finqa": "Give the final answer as one number (or yes/no) on a line starting 'Answer:'.",
        "mathqa": "Give the letter of the correct option on a line starting 'Answer:'.",
    },
}


class RowsError(ProgexecError):
    """A dataset, split or questions file that cannot be turned into rows; the message names it."""


def _instruction(policy: Policy, dialect: str) -> str:
    table = INSTRUCTIONS.get(policy, INSTRUCTIONS[Policy.NUMERIC])
    return table["mathqa" if dialect == "mathqa" else "finqa"]


def _table_text(table: Sequence[Sequence[str]] | None) -> str:
    if not table:
        return ""
    return "Table:\n" + "\n".join("| " + " | ".join(row) + " |" for row in table) + "\n"


def _row(dialect: str, policy: Policy, extra: dict[str, Any], ground_truth: str, body: str) -> dict[str, Any]:
    content = f"{body}\n{_instruction(policy, dialect)}"
    return {
        "data_source": SOURCE[dialect],
        "prompt": [{"role": "user", "content": content}],
        "ability": ABILITY[dialect],
        "reward_model": {"style": "rule", "ground_truth": ground_truth},
        "extra_info": {key: extra.get(key) for key in EXTRA_KEYS},
    }


def _finqa(split: str, policy: Policy, questions: Questions) -> Iterator[dict[str, Any]]:
    for record in finqa_records():
        if record["split"] != split:
            continue
        question = next(iter(questions.get(record["id"], ())), None)
        body = _table_text(record["table"]) + (f"Question: {question}\n" if question else "")
        extra = {"id": record["id"], "split": split, "index": record["index"], "question": question,
                 "table": record["table"], "program": record["program"], "dialect": "finqa",
                 "policy": policy.value}
        yield _row("finqa", policy, extra, str(record["exe_ans"]), body)


def _convfinqa(split: str, policy: Policy, questions: Questions) -> Iterator[dict[str, Any]]:
    for record in convfinqa_records():
        if record["split"] != split:
            continue
        asked = list(questions.get(record["id"], ()))
        history = ""
        for turn, (program, gold) in enumerate(zip(record["turn_program"], record["exe_ans_list"])):
            question = asked[turn] if turn < len(asked) else None
            body = _table_text(record["table"]) + history + (f"Question: {question}\n" if question else "")
            extra = {"id": f"{record['id']}_{turn}", "split": split, "index": record["index"], "question": question,
                     "table": record["table"], "program": program, "dialect": "convfinqa", "policy": policy.value}
            yield _row("convfinqa", policy, extra, str(gold), body)
            if question:
                history += f"Earlier question: {question}\nIts result: {gold}\n"


def _mathqa(split: str, policy: Policy) -> Iterator[dict[str, Any]]:
    for index, record in enumerate(mathqa_records(split)):
        body = f"Problem: {record['Problem']}\nOptions: {record['options']}\n"
        extra = {"id": f"mathqa-{split}-{index}", "split": split, "index": index, "question": record["Problem"],
                 "program": record["linear_formula"], "dialect": "mathqa", "options": record["options"],
                 "problem": record["Problem"], "policy": policy.value}
        yield _row("mathqa", policy, extra, str(record["correct"]), body)


def iter_rows(dataset: str, splits: Iterable[str], policy: Policy = Policy.NUMERIC,
              questions: Questions | None = None) -> Iterator[dict[str, Any]]:
    """The rows of ``dataset``'s ``splits``, in split order then corpus order."""
    if dataset not in SPLITS:
        raise RowsError(f"unknown dataset {dataset!r}; one of {', '.join(SPLITS)}")
    for split in splits:
        if split not in SPLITS[dataset]:
            raise RowsError(f"{dataset} has no split {split!r}; one of {', '.join(SPLITS[dataset])}")
        if dataset == "finqa":
            yield from _finqa(split, policy, questions or {})
        elif dataset == "convfinqa":
            yield from _convfinqa(split, policy, questions or {})
        else:
            yield from _mathqa(split, policy)


def load_questions(path: Path) -> dict[str, list[str]]:
    """Questions by id from an official FinQA file (``qa.question``) or ConvFinQA file
    (``annotation.dialogue_break``), plain or gzipped JSON."""
    try:
        raw = path.read_bytes()
        data = json.loads(gzip.decompress(raw) if path.suffix == ".gz" else raw)
    except (OSError, ValueError) as error:
        raise RowsError(f"cannot read questions from {path}: {error}") from None
    if not isinstance(data, list):
        raise RowsError(f"{path}: a questions file is a JSON list of items")
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
        raise RowsError("Parquet output needs pyarrow: pip install 'progexec[parquet]' (or write .jsonl)") from None
    table = pa.Table.from_pylist(list(rows))
    pq.write_table(table, path)
    return int(table.num_rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, prog="python -m progexec.integrations.verl_rows",
                                     description="write verl RL rows from the embedded corpora")
    parser.add_argument("--dataset", required=True, choices=sorted(SPLITS))
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
        splits = args.split or [SPLITS[args.dataset][0]]
        rows = list(iter_rows(args.dataset, splits, Policy(args.policy), questions))
        args.out.parent.mkdir(parents=True, exist_ok=True)
        writer = write_parquet if args.out.suffix == ".parquet" else write_jsonl
        count = writer(rows, args.out)
    except (RowsError, OSError) as error:
        print(f"verl_rows: {error}", file=sys.stderr)
        return 2
    missing = sum(row["extra_info"]["question"] is None for row in rows)
    print(f"verl_rows: wrote {plural(count, 'row')} to {args.out}"
          + (f"; {missing} have no question text (pass --questions)" if missing else ""), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
