"""``check-reward`` fails a reward function that leaves processes or threads running, naming what it left, as
``check-rounder`` and ``check-evaluator`` fail such a port: a daemon double-forked per call, a never-ending thread
per call (daemon or not). A helper thread started once and reused is no leak."""

from __future__ import annotations

import json

import pytest

from progexec.cli import main

LEAKS = "tests.reward_leaks"


def run(capsys: pytest.CaptureFixture[str], function: str) -> tuple[int, dict[str, object], str]:
    """check-reward on 20 cases (no probes, no class fails the run): the exit, the JSON report, the text verdict."""
    argv = ["check-reward", "--python", f"{LEAKS}:{function}", "--cases", "20", "--probe-cases", "0",
            "--fail-on", "none"]
    code = main([*argv, "--json"])
    report = json.loads(capsys.readouterr().out)
    assert main(argv) == code
    return code, report, capsys.readouterr().out


def test_a_daemon_per_call_fails_the_run_naming_the_processes(capsys: pytest.CaptureFixture[str]) -> None:
    code, report, text = run(capsys, "daemon_per_call_reward")
    assert code == 1 and report["passed"] is False
    leaks = report["leaks"]
    assert isinstance(leaks, list) and len(leaks) == 1
    assert "left 20 process(es) running after it exited" in leaks[0] and "daemon_p" in leaks[0]
    assert text.startswith("FAIL ") and "left running: " in text.splitlines()[0]


@pytest.mark.parametrize("function, name", [("thread_per_call_reward", "leaky-watcher"),
                                            ("lingering_thread_reward", "leaky-lingerer")])
def test_a_thread_per_call_fails_the_run_naming_the_threads(function: str, name: str,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, report, text = run(capsys, function)
    assert code == 1 and report["passed"] is False
    leaks = report["leaks"]
    assert isinstance(leaks, list) and len(leaks) == 1
    assert "left 20 threads running after its calls (1 after its first call" in leaks[0] and name in leaks[0]
    assert "left running by the function (fails the run):" in text


def test_a_helper_thread_started_once_is_no_leak(capsys: pytest.CaptureFixture[str]) -> None:
    code, report, _ = run(capsys, "one_pool_reward")
    assert code == 0 and report["passed"] is True and report["leaks"] == []
