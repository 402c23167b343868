"""CONTRIBUTING.md's worked examples run as written: each Python block in a fresh interpreter."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8"), re.S)


def test_every_section_has_its_example() -> None:
    assert len(BLOCKS) == 4  # a dataset, an op, a scorer, a reporter


@pytest.mark.parametrize("block", BLOCKS, ids=["dataset", "op", "scorer", "reporter"][:len(BLOCKS)])
def test_the_example_runs(block: str, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True, cwd=tmp_path, env=env,
                          timeout=600)
    assert done.returncode == 0, done.stderr
