"""score-python hardening (MathQA-Python's per-snippet sandbox): nothing a snippet returns or raises ends the run,
and the sandbox's private /tmp is not writable, even with the in-process guard disarmed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from progexec.cli import main
from progexec.isolation import bwrap as bubblewrap
from progexec.datasets.mathqa.sandbox import SnippetKind, decode_result, run_snippet
from progexec.core.limits import DEFAULT_LIMITS

pytestmark = pytest.mark.skipif(not bubblewrap.status().available, reason="no bubblewrap isolation on this machine")

# the closure escape of tests/data/hostile_snippets.jsonl: the real import, and the audit hook disarmed
DISARM = ("real_import = [c.cell_contents for c in __import__.__closure__ if callable(c.cell_contents)][0]\n"
          "sys = real_import('sys')\nsys.modules['__main__']._audit.__code__ = (lambda event, args: None).__code__\n"
          "os = real_import('os')\n")
LIMITS = DEFAULT_LIMITS.with_(snippet_wall_seconds=10)


def test_a_lone_surrogate_in_an_exception_cannot_end_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "gold.jsonl").write_text("".join(json.dumps({"id": i, "answer": 2.0}) + "\n" for i in range(3)))
    snippets = ["raise ValueError('\\ud800')", "raise KeyError('\\udfff' * 3)", "answer = 2.0"]
    (tmp_path / "pred.jsonl").write_text("".join(json.dumps({"id": i, "code": code}) + "\n"
                                                 for i, code in enumerate(snippets)))
    assert main(["score-python", "--gold", str(tmp_path / "gold.jsonl"), "--pred", str(tmp_path / "pred.jsonl"),
                 "--json", "--no-progress"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert [item["kind"] for item in record["items"]] == ["error", "error", "correct"]
    assert "\\ud800" in record["items"][0]["reason"]
    assert main(["score-python", "--gold", str(tmp_path / "gold.jsonl"), "--pred", str(tmp_path / "pred.jsonl"),
                 "--no-progress"]) == 0   # the text output prints the reasons too
    capsys.readouterr()


def test_a_forged_surrogate_message_is_escaped() -> None:
    result = decode_result(b'{"kind": "error", "message": "x\\ud800y"}', 0)
    assert result.message == "x\\ud800y"
    result.message.encode("utf-8")


@pytest.mark.parametrize("action", [
    "fd = os.open('/tmp/planted', os.O_WRONLY | os.O_CREAT, 0o644)",
    "os.mkdir('/tmp/planted_dir')",
])
def test_tmp_is_read_only_even_without_the_guard(action: str) -> None:
    result = run_snippet(DISARM + action + "\nanswer = 1\n", LIMITS)
    assert result.kind is SnippetKind.FORBIDDEN, result
    assert "Read-only file system" in result.message or "EROFS" in result.message or "Errno 30" in result.message


_CTYPES = ("ctypes = real_import('ctypes')\nlibc = ctypes.CDLL(None, use_errno=True)\n"
           "def check(result, call):\n    if result < 0:\n        number = ctypes.get_errno()\n"
           "        raise OSError(number, os.strerror(number), call)\n")


@pytest.mark.parametrize("action", [
    "real_import('resource').prlimit(os.getppid(), real_import('resource').RLIMIT_CPU, (1, 1))",
    "os.setpriority(os.PRIO_PROCESS, os.getppid(), 19)",
    "os.setpriority(os.PRIO_USER, 0, 19)",
    "os.sched_setaffinity(os.getppid(), {0})",
    "os.kill(os.getppid(), 19)",
    "os.kill(-1, 9)",
    _CTYPES + "check(libc.shmget(0, 1 << 30, 0o1600), 'shmget')",
    _CTYPES + "check(libc.msgget(0x5EED, 0o1666), 'msgget')",
    _CTYPES + "check(libc.semget(0x5EED, 1, 0o1666), 'semget')",
])
def test_a_snippet_cannot_touch_another_process_or_leave_ipc_behind(action: str) -> None:
    """The kernel refuses it (the ``solution`` seccomp filter), even with the in-process guard disarmed."""
    result = run_snippet(DISARM + action + "\nanswer = 1\n", LIMITS)
    assert result.kind is SnippetKind.FORBIDDEN, result
    assert "Operation not permitted" in result.message, result
