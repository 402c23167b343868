"""The three ``check-*`` commands read ``--python`` and ``--cmd`` the same way: a bad value exits 2 with an
error naming the option and what was wrong, before any port is started."""

from __future__ import annotations

import pytest

from progexec.cli import main

COMMANDS = ["check-rounder", "check-evaluator", "check-reward"]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(("argv", "message"), [
    (["--python", "nocolon"], "--python wants MODULE:FUNC, not 'nocolon'"),
    (["--python", "module:"], "--python wants MODULE:FUNC, not 'module:'"),
    (["--cmd", "   "], "--cmd is empty"),
    (["--cmd", "node 'unclosed"], "bad --cmd: No closing quotation"),
])
def test_a_bad_port_option_exits_2_naming_it(command: str, argv: list[str], message: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, *argv, "--cases", "5"]) == 2
    assert message in capsys.readouterr().err


def test_the_parallel_rounder_check_reads_cmd_the_same_way(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-rounder", "--cmd", "node 'unclosed", "--cases", "5", "--jobs", "2"]) == 2
    assert "bad --cmd: No closing quotation" in capsys.readouterr().err
