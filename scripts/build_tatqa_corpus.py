#!/usr/bin/env python3
"""Build the embedded TAT-QA corpora (package data) from the official TAT-QA files.

Reads ``tatqa_dataset_dev.json`` and ``tatqa_dataset_test_gold.json`` from a directory (default
``../shared/data/tatqa``; a checkout of NExTplusplus/TAT-QA works too: its ``dataset_raw/``) and
writes ``src/progexec/data/tatqa_dev.json.gz`` and ``tatqa_test.json.gz``: the
official bytes unchanged, gzipped with mtime 0 and no file name, so rebuilding gives identical bytes.
It checks the SHA-256 of each source (NExTplusplus/TAT-QA @ 870accc41953dcde885aabeb963d94aabdc0fbc3)
and its counts (contexts, questions, arithmetic questions) before writing.

Usage: python scripts/build_tatqa_corpus.py [TATQA_DIR]
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "progexec" / "data"
OUTPUTS = {"tatqa_dataset_dev.json": "tatqa_dev.json.gz", "tatqa_dataset_test_gold.json": "tatqa_test.json.gz"}
FILES = {
    "tatqa_dataset_dev.json": ("8da095a819af6db3c14877c6df2d4d29960e41d1a63dd1fa853507bd2a616af5", 278, 1668, 718),
    "tatqa_dataset_test_gold.json": ("c4d08418359c1d76468dec420ee748a37f48c06b63cb8ec2766f19d5d314b597", 277, 1663, 699),
}


def source_dir(argv: list[str]) -> Path:
    default = next((up / "shared" / "data" / "tatqa" for up in ROOT.parents
                    if (up / "shared" / "data" / "tatqa").is_dir()), Path("../shared/data/tatqa"))
    folder = Path(argv[1]) if len(argv) > 1 else default
    if (folder / "dataset_raw").is_dir():
        folder = folder / "dataset_raw"
    return folder


def check(name: str, raw: bytes) -> None:
    digest, contexts, questions, arithmetic = FILES[name]
    if hashlib.sha256(raw).hexdigest() != digest:
        raise SystemExit(f"{name}: SHA-256 {hashlib.sha256(raw).hexdigest()} is not the official file's {digest}")
    data = json.loads(raw.decode("utf-8"))
    found = (len(data), sum(len(c["questions"]) for c in data),
             sum(q["answer_type"] == "arithmetic" for c in data for q in c["questions"]))
    if found != (contexts, questions, arithmetic):
        raise SystemExit(f"{name}: {found} contexts/questions/arithmetic, expected {(contexts, questions, arithmetic)}")


def gzip_bytes(raw: bytes) -> bytes:
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=9) as handle:
        handle.write(raw)
    return buffer.getvalue()


def main(argv: list[str]) -> int:
    folder = source_dir(argv)
    for name in FILES:
        raw = (folder / name).read_bytes()
        check(name, raw)
        (OUT / OUTPUTS[name]).write_bytes(gzip_bytes(raw))
        print(f"{name}: sha256 {hashlib.sha256(raw).hexdigest()}, {len(raw)} bytes -> {OUTPUTS[name]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
