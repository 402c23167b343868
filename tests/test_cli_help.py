"""The command line helps: each command's --help states its own exit codes, a misspelled option,
command or choice gets a suggestion, and every file a command writes is named on stderr."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from progexec.cli import COMMAND_MODULES, DEFAULT_EXIT_CODES, main

ROOT = Path(__file__).resolve().parent.parent
PREDICTIONS = ROOT / "tests" / "data" / "predictions" / "finqa_example_predictions.json.gz"


@pytest.mark.parametrize("command", list(COMMAND_MODULES))
def test_each_help_states_the_commands_own_exit_codes(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "exit codes: 0 " in text and "2 usage" in text and "3 internal error" in text
    assert " ".join(DEFAULT_EXIT_CODES.split()) not in text  # not the generic line


@pytest.mark.parametrize(("words", "hint"), [
    (["exec", "--ot", "x.jsonl"], "did you mean '--out'?"),
    (["score", "--gold", "finqa:test", "--perd", "p.json"], "did you mean '--pred'?"),
    (["reward", "in.jsonl", "--polcy", "numeric"], "did you mean '--policy'?"),
    (["serve", "--port", "0", "--workrs", "2"], "did you mean '--workers'?"),
    (["scroe"], "did you mean 'score'?"),
    (["reward", "in.jsonl", "--policy", "numerc"], "did you mean 'numeric'?"),
])
def test_a_misspelled_option_gets_a_suggestion(words: list[str], hint: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(words) == 2
    assert hint in capsys.readouterr().err


def test_a_word_with_no_close_option_gets_no_guess(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["exec", "--zzzzzzzz"]) == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: --zzzzzzzz" in err and "did you mean" not in err


def _programs(path: Path) -> Path:
    path.write_text(json.dumps({"id": "a", "program": "divide(3, 4)", "exe_ans": 0.75}) + "\n", encoding="utf-8")
    return path


def test_every_written_file_is_named_on_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    programs = _programs(tmp_path / "programs.jsonl")
    completions = tmp_path / "completions.jsonl"
    completions.write_text(json.dumps({"id": 1, "completion": "Answer: 3.5", "gold": {"answer": 3.5}}) + "\n",
                           encoding="utf-8")
    runs = [
        (["exec", str(programs), "--out", str(tmp_path / "exec.jsonl")], ["exec.jsonl"]),
        (["reward", str(completions), "--out", str(tmp_path / "rewards.jsonl")], ["rewards.jsonl"]),
        (["report", str(programs), "--out", str(tmp_path / "rep")],
         ["rep/report.json", "rep/report.md", "rep/report.html"]),
        (["score", "--gold", "finqa:test", "--pred", str(PREDICTIONS), "--out", str(tmp_path / "sc"),
          "--items", str(tmp_path / "items.jsonl")],
         ["sc/score.json", "sc/items.jsonl", "sc/score.md", "sc/score.html", "items.jsonl"]),
    ]
    for words, files in runs:
        assert main([*words, "--no-progress"] if words[0] != "reward" else words) in (0, 1)
        err = capsys.readouterr().err
        for name in files:
            assert (tmp_path / name).is_file()
            assert f"progexec {words[0]}: wrote {tmp_path / name}" in err, (words[0], name, err)


def test_conformance_export_names_its_files_on_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "export", str(tmp_path / "suite"), "--cases", "5"]) == 0
    err = capsys.readouterr().err
    written = sorted(path for path in (tmp_path / "suite").iterdir() if path.is_file())
    assert written and all(f"progexec conformance: wrote {path}" in err for path in written)
