#!/usr/bin/env python3
"""Build ``src/progexec/data/finqa_final_values.txt.gz``: the unrounded final value of every
embedded FinQA gold program, the "corpus" family of ``progexec check-rounder``.

Each gold program is run under the official float64 arithmetic (``Float64``) and the final
value *before* ``round(x, 5)`` (``outcome.raw``) is kept; boolean answers and refusals are
skipped. One line per program, in corpus order: ``<float.hex()> <id>``. Deterministic output
(gzip mtime 0), so rebuilding gives identical bytes.

Run from the repository root after ``scripts/build_corpus.py``:  python scripts/build_rounder_cases.py
"""

from __future__ import annotations

import gzip
import io
from pathlib import Path

from progexec.corpus import finqa_records
from progexec.grammar import parse_program
from progexec.core.arithmetic import Float64
from progexec.interp.evaluate import evaluate

OUT = Path(__file__).resolve().parent.parent / "src" / "progexec" / "data" / "finqa_final_values.txt.gz"


def final_values() -> list[tuple[float, str]]:
    """(raw final float, program id) for every numeric gold program, in corpus order."""
    values = []
    for record in finqa_records():
        outcome = evaluate(parse_program(record["program"]), Float64(), record["table"])
        if outcome.present and isinstance(outcome.raw, float):
            values.append((outcome.raw, str(record["id"])))
    return values


def main() -> None:
    values = final_values()
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=9) as handle:
        handle.write(b"# unrounded final float of each FinQA gold program: <float.hex()> <id>\n")
        for value, ident in values:
            handle.write(f"{value.hex()} {ident}\n".encode("utf-8"))
    OUT.write_bytes(buffer.getvalue())
    print(f"wrote {len(values)} values to {OUT}")


if __name__ == "__main__":
    main()
