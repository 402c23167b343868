"""Every ``console`` block of the README and docs/ is run from the repository root: each ``$ progexec ...``
line's output (standard output, or standard output then standard error) must be the lines written under it, byte for byte, so
a documented command cannot drift from what it prints."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_BLOCK = re.compile(r"```console\n(.*?)```", re.DOTALL)


def _examples() -> list[tuple[str, str, str]]:
    """``(where, command line, expected output)`` for every ``$ progexec`` line of every console block."""
    found: list[tuple[str, str, str]] = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for block in _BLOCK.findall(path.read_text(encoding="utf-8")):
            command: str | None = None
            output: list[str] = []
            for line in block.splitlines():
                if line.startswith("$ "):
                    if command is not None:
                        found.append((path.name, command, "\n".join(output)))
                    command, output = line[2:], []
                else:
                    output.append(line)
            if command is not None:
                found.append((path.name, command, "\n".join(output)))
    return [example for example in found if example[1].startswith("progexec ")]


EXAMPLES = _examples()


def test_the_docs_have_console_examples() -> None:
    assert len(EXAMPLES) >= 4


@pytest.mark.parametrize("where, command, expected", EXAMPLES, ids=[f"{w}:{c[:60]}" for w, c, _ in EXAMPLES])
def test_console_example_prints_what_the_docs_say(where: str, command: str, expected: str) -> None:
    words = shlex.split(command)
    result = subprocess.run([sys.executable, "-m", "progexec", *words[1:]], capture_output=True, text=True,
                            timeout=300, cwd=ROOT)
    shown = expected.rstrip("\n")  # a block shows standard output, or all the terminal shows (stderr after it)
    assert shown in (result.stdout.rstrip("\n"), (result.stdout + result.stderr).rstrip("\n")), \
        (where, command, result.stdout[-500:], result.stderr[-500:])
