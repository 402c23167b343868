#!/usr/bin/env python3
"""One cold pass in a fresh process: each distinct program of a file executed once, CPU time printed as JSON.

Run by bench_speed.py, one child per side and run, so that nothing is cached from an earlier pass::

    python cold_child.py progexec FILE                 # runner.execute over the file's Items
    python cold_child.py official FILE DIR MODULE      # program_tokenization + eval_program from a checkout

Distinct means a distinct (program text, table) pair, the first one in file order. Reading the file and
importing are not timed; only the pass is (``time.process_time``).
"""

from __future__ import annotations

import importlib
import json
import sys
import time
from pathlib import Path
from typing import Any


def _official_pairs(path: Path) -> list[tuple[str, Any]]:
    """The distinct (program text, table) pairs of the file, the first of each in file order."""
    from official_driver import program_pairs  # beside this file: the official driver's reading of the file

    seen: set[str] = set()
    distinct = []
    for program, table in program_pairs(path):
        key = json.dumps([program, table])
        if key not in seen:
            seen.add(key)
            distinct.append((program, table))
    return distinct


def official(path: Path, directory: str, module: str) -> dict[str, Any]:
    sys.path.insert(0, directory)
    code = importlib.import_module(module)
    pairs = _official_pairs(path)
    started = time.process_time()
    for program, table in pairs:
        code.eval_program(code.program_tokenization(program), table)
    return {"n": len(pairs), "cpu": time.process_time() - started}


def progexec(path: Path) -> dict[str, Any]:
    from progexec.readers import read
    from progexec.runner import execute, prepare

    prepare()
    seen: set[str] = set()
    items = []
    for item in read(str(path)):
        key = json.dumps([item.program if isinstance(item.program, str) else list(item.program or ()),
                          item.table])
        if key not in seen:
            seen.add(key)
            items.append(item)
    started = time.process_time()
    for item in items:
        execute(item)
    return {"n": len(items), "cpu": time.process_time() - started}


if __name__ == "__main__":
    side, source = sys.argv[1], Path(sys.argv[2])
    result = progexec(source) if side == "progexec" else official(source, sys.argv[3], sys.argv[4])
    print(json.dumps(result))
