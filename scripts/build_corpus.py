#!/usr/bin/env python3
"""Build the embedded gold corpora (package data) from the public datasets in ``../shared/data``.

Writes, deterministically (sorted keys, gzip mtime 0):
  src/progexec/data/finqa.jsonl.gz      one line per executable FinQA gold program
  src/progexec/data/convfinqa.jsonl.gz  one line per ConvFinQA conversation (official-format turns)

Run from the repository root:  python scripts/build_corpus.py [--data ../shared/data]
Only this script reads the shared data; the package never does at run time.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "progexec" / "data"


def _load(path: Path) -> Any:
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            return json.load(handle)
    return json.loads(path.read_text(encoding="utf-8"))


def _write_jsonl_gz(path: Path, rows: list[dict[str, Any]]) -> None:
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=9) as handle:
        for row in rows:
            handle.write((json.dumps(row, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8"))
    path.write_bytes(buffer.getvalue())


def finqa_rows(data: Path) -> tuple[list[dict[str, Any]], int]:
    """Every FinQA gold program that can be executed (a table op needs its table)."""
    rows: list[dict[str, Any]] = []
    skipped = 0
    for split, name in (("test", "test.json"), ("dev", "dev.json"), ("train", "train.json.gz")):
        for index, item in enumerate(_load(data / "finqa" / name)):
            program = item["qa"]["program"]
            if item.get("table") is None and "table_" in program:
                skipped += 1
                continue
            rows.append({
                "id": item.get("id") or f"{split}-{index}",
                "split": split,
                "index": index,
                "program": program,
                "table": item.get("table"),
                "exe_ans": item["qa"]["exe_ans"],
            })
    return rows, skipped


def convfinqa_rows(data: Path) -> list[dict[str, Any]]:
    """ConvFinQA conversations with turn programs and answers (dev, and train where annotated)."""
    rows: list[dict[str, Any]] = []
    sources = (("dev", data / "convfinqa" / "dev.json"), ("train", data / "convfinqa" / "train_partial.json.gz"))
    for split, path in sources:
        for index, item in enumerate(_load(path)):
            annotation = item.get("annotation")
            if not annotation or item.get("table") is None:
                continue
            rows.append({
                "id": item["id"],
                "split": split,
                "index": index,
                "table": item["table"],
                "turn_program": annotation["turn_program"],
                "exe_ans_list": annotation["exe_ans_list"],
            })
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    finqa, skipped = finqa_rows(args.data)
    _write_jsonl_gz(OUT / "finqa.jsonl.gz", finqa)
    conv = convfinqa_rows(args.data)
    _write_jsonl_gz(OUT / "convfinqa.jsonl.gz", conv)
    turns = sum(len(row["turn_program"]) for row in conv)
    print(f"finqa: {len(finqa)} programs ({skipped} train table programs skipped: no table in the public copy)")
    print(f"convfinqa: {len(conv)} conversations, {turns} turns")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
