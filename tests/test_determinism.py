"""Determinism (issue 7): the same input gives byte-identical `exec` and `report` outputs across runs
and across PYTHONHASHSEED values (set iteration order, dict order from sets, hash-keyed caches)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from progexec.datasets.finqa import finqa_items

from .test_batch_integrity import hostile_lines


@pytest.fixture(scope="module")
def mixed_input(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Hostile lines and real FinQA programs with their tables and gold answers."""
    lines = hostile_lines(300, seed=99)
    for item in list(finqa_items())[:300]:
        lines.append(json.dumps({"id": item.id, "program": item.program, "table": item.table,
                                 "exe_ans": item.gold}).encode("utf-8"))
    path = tmp_path_factory.mktemp("determinism") / "mixed.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _run(args: list[str], seed: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    return subprocess.run([sys.executable, "-m", "progexec", *args], capture_output=True, env=env, cwd=cwd,
                          timeout=600)


def test_exec_output_is_byte_identical_across_hash_seeds(mixed_input: Path, tmp_path: Path) -> None:
    outputs = []
    for seed in ("0", "1", "987654321", "0"):
        result = _run(["exec", str(mixed_input)], seed, tmp_path)
        assert result.returncode in (0, 1), result.stderr[-1000:]
        outputs.append((result.stdout, result.stderr))
    assert len(outputs[0][0].splitlines()) == 600
    assert all(output == outputs[0] for output in outputs[1:])


def test_report_files_are_byte_identical_across_hash_seeds(mixed_input: Path, tmp_path: Path) -> None:
    contents = []
    for index, seed in enumerate(("0", "424242", "0")):
        out = tmp_path / f"r{index}"
        result = _run(["report", str(mixed_input), "--out", str(out), "--json"], seed, tmp_path)
        assert result.returncode == 0, result.stderr[-1000:]
        contents.append({name: (out / name).read_bytes() for name in ("report.json", "report.md", "report.html")}
                        | {"stdout": result.stdout})
    assert all(content == contents[0] for content in contents[1:])
