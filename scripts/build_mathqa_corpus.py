#!/usr/bin/env python3
"""Build the embedded MathQA files (package data) from the official MathQA release.

Reads ``test.json.gz``, ``dev.json.gz`` and ``challenge_test.json`` from the MathQA
data directory (default ``../shared/data/mathqa``) and writes
``src/progexec/data/mathqa_{test,dev,challenge_test}.json.gz``: the same JSON list of
records, in the official order, reduced to the fields progexec uses (``Problem``,
``options``, ``correct``, ``annotated_formula``, ``linear_formula``, ``category``;
the free-text ``Rationale`` is dropped to keep the package small). gzip is written
with mtime 0 so rebuilding gives identical bytes.

Usage: python scripts/build_mathqa_corpus.py [MATHQA_DIR]
"""

from __future__ import annotations

import gzip
import io
import json
import sys
from pathlib import Path

FIELDS = ("Problem", "options", "correct", "annotated_formula", "linear_formula", "category")
SPLITS = {"test": ("test.json.gz", 2985), "dev": ("dev.json.gz", 4475),
          "challenge_test": ("challenge_test.json", 604)}
OUT = Path(__file__).resolve().parent.parent / "src" / "progexec" / "data"


def read(path: Path) -> list[dict[str, object]]:
    """A MathQA file as a list of records."""
    raw = path.read_bytes()
    if path.suffix == ".gz":
        raw = gzip.decompress(raw)
    data = json.loads(raw.decode("utf-8"))
    if not isinstance(data, list):
        raise SystemExit(f"{path}: not a JSON list")
    return data


def write(path: Path, records: list[dict[str, object]]) -> None:
    """Deterministic gzip of the JSON list (one record per line, mtime 0)."""
    text = "[\n" + ",\n".join(json.dumps(record, ensure_ascii=False) for record in records) + "\n]\n"
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=9) as handle:
        handle.write(text.encode("utf-8"))
    path.write_bytes(buffer.getvalue())


def main(argv: list[str]) -> int:
    source = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parents[2] / "shared" / "data" / "mathqa"
    for split, (name, expected) in SPLITS.items():
        records = read(source / name)
        if len(records) != expected:
            raise SystemExit(f"{name}: {len(records)} records, expected {expected}")
        reduced = [{field: record.get(field) for field in FIELDS} for record in records]
        target = OUT / f"mathqa_{split}.json.gz"
        write(target, reduced)
        print(f"{target.relative_to(OUT.parent.parent.parent)}: {len(reduced)} records, {target.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
