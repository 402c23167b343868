"""docs/harnesses.md and the README say how many harness tasks ship and how lm-eval lists them, and are right.

The tasks are the YAML files of ``progexec/integrations/lm_eval``; the docs must give their number in
words and list each one, and the installed lm-eval (CI installs it) must list exactly them by each
documented form: the ``TaskManager`` API, and the command line of this lm-eval release.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import progexec.integrations.lm_eval as task_folder

ROOT = Path(__file__).resolve().parent.parent
HARNESSES = (ROOT / "docs" / "harnesses.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")
NUMBERS = {5: "five", 6: "six", 7: "seven", 8: "eight"}


def shipped() -> list[str]:
    names = []
    for path in sorted(Path(task_folder.TASK_DIR).glob("*.yaml")):
        match = re.search(r"^task: (\S+)$", path.read_text(encoding="utf-8"), re.M)
        assert match is not None and match.group(1) == path.stem, path
        names.append(match.group(1))
    return names


def test_the_docs_count_and_list_every_shipped_task() -> None:
    tasks = shipped()
    assert "progexec_tatqa_answer" in tasks
    word = NUMBERS[len(tasks)]
    assert f"progexec ships {word} tasks" in HARNESSES
    assert f"{word.capitalize()} tasks — " in README
    for other in set(NUMBERS.values()) - {word}:
        assert f"ships {other} tasks" not in HARNESSES and f"{other.capitalize()} tasks — " not in README
    table = HARNESSES.split("## The tasks", 1)[1].split("\n## ", 1)[0]
    assert sorted(re.findall(r"^\| `(progexec_\w+)` \|", table, re.M)) == tasks
    listed = re.search(r"prints\s+`(\[.*?\])`", HARNESSES, re.S)
    assert listed is not None and eval(" ".join(listed.group(1).split())) == tasks  # the documented output


def _task_names(text: str) -> set[str]:
    return set(re.findall(r"\bprogexec_\w+", text))


def test_the_task_manager_form_lists_exactly_the_shipped_tasks() -> None:
    pytest.importorskip("lm_eval")
    command = re.search(r"^python -c '(.*?)'\s+# any 0.4.x$", HARNESSES, re.M | re.S)
    assert command is not None
    done = subprocess.run([sys.executable, "-c", command.group(1)], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert done.returncode == 0, done.stderr[-2000:]
    assert eval(done.stdout.strip().splitlines()[-1]) == shipped()


def test_the_command_line_form_of_this_lm_eval_lists_the_shipped_tasks() -> None:
    pytest.importorskip("lm_eval")
    program = shutil.which("lm-eval") or shutil.which("lm_eval")
    if program is None:
        pytest.skip("lm-eval's command is not on PATH")
    has_ls = " ls " in subprocess.run([program, "--help"], capture_output=True, text=True, timeout=600).stdout
    documented = "lm-eval ls tasks --include_path" if has_ls else "lm_eval --tasks list --include_path"
    assert f'{documented} "$TASKS"' in HARNESSES
    argv = ["ls", "tasks"] if has_ls else ["--tasks", "list"]
    done = subprocess.run([program, *argv, "--include_path", str(task_folder.TASK_DIR)], capture_output=True,
                          text=True, timeout=1200, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert done.returncode == 0, done.stderr[-2000:]
    assert _task_names(done.stdout) == set(shipped())
