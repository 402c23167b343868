"""Small text that must not mislead: no abbreviated options, suggestions only when close, counts that agree.

argparse's ``allow_abbrev`` would take ``report --no-progres`` for ``--no-progress``: a typo could change
what runs, so every parser (each subcommand's, each script's) refuses abbreviations. A misspelled option
gets a suggestion only when one is close to it (``--bogus`` gets none). Every message that formats a
count with a noun goes through :func:`progexec.plural.plural` (``1 question``, never ``1 questions``).
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

from progexec.cli import COMMAND_MODULES, build_parser, main
from progexec.cli.common import closest
from progexec.datasets.multihiertt import score_records
from progexec.core.plural import plural, plural_of

ROOT = Path(__file__).resolve().parent.parent
PARSER = build_parser()


def _parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    found = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                found += _parsers(sub)
    return found


def _long_options(command: str) -> list[str]:
    return sorted({option for action in PARSER.commands[command]._actions for option in action.option_strings
                   if option.startswith("--") and option not in ("--help", "--debug", "--limit")})


def test_every_parser_of_the_command_line_refuses_abbreviations() -> None:
    parsers = _parsers(PARSER)
    assert len(parsers) > len(COMMAND_MODULES)  # the top parser, every command, conformance's export
    assert all(parser.allow_abbrev is False for parser in parsers)


def test_every_script_and_benchmark_parser_refuses_abbreviations() -> None:
    sources = [*ROOT.glob("scripts/*.py"), *ROOT.glob("benchmarks/*.py"), *ROOT.glob("src/progexec/**/*.py")]
    made = 0
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "ArgumentParser":
                made += 1
                flag = {keyword.arg: keyword.value for keyword in node.keywords}.get("allow_abbrev")
                assert isinstance(flag, ast.Constant) and flag.value is False, \
                    f"{path.relative_to(ROOT)}:{node.lineno} builds a parser that takes abbreviations"
    assert made > 10


@pytest.mark.parametrize("command", [name for name in COMMAND_MODULES if "--no-progress" in _long_options(name)])
def test_an_abbreviated_option_is_an_error_with_the_option_suggested(command: str,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, "--no-progres", "input.jsonl"]) == 2
    err = capsys.readouterr().err
    assert "--no-progres" in err and "did you mean '--no-progress'?" in err


@pytest.mark.parametrize("command", list(COMMAND_MODULES))
def test_every_abbreviation_of_every_option_is_refused(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    options = _long_options(command)
    for option in options:
        prefix = option[:-1]
        if len(prefix) < 4 or any(other == prefix for other in options):
            continue
        assert main([command, prefix]) == 2, f"{command} {prefix}"
        err = capsys.readouterr().err
        assert "did you mean" not in err or f"did you mean '{option}'?" in err or closest(prefix, options), err


@pytest.mark.parametrize("command", list(COMMAND_MODULES))
@pytest.mark.parametrize("typo", ["--bogus", "--xyz", "--foo", "--nothing-like-this", "--q"])
def test_a_word_far_from_every_option_gets_no_suggestion(command: str, typo: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, typo]) == 2
    err = capsys.readouterr().err
    assert "did you mean" not in err, err


@pytest.mark.parametrize("command", list(COMMAND_MODULES))
def test_a_one_letter_slip_in_any_option_is_suggested(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    options = _long_options(command)
    for option in options:
        if len(option) < 7:
            continue
        typo = option[:4] + option[5:]  # one letter dropped
        if typo in options:
            continue
        assert main([command, typo]) == 2
        hint = re.search(r"did you mean '([^']+)'\?", capsys.readouterr().err)
        assert hint is not None and hint.group(1) in options, f"{command} {typo}"


def test_plural_agrees_with_the_count() -> None:
    assert [plural(n, "question") for n in (0, 1, 2)] == ["0 questions", "1 question", "2 questions"]
    assert plural(1, "worker process") == "1 worker process" and plural(3, "worker process") == "3 worker processes"
    assert plural(12345, "case", grouped=True) == "12,345 cases"
    assert (plural_of("has", 1), plural_of("has", 2), plural_of("gets", 1), plural_of("gets", 5)) == \
        ("has", "have", "gets", "get")


def test_one_question_the_official_script_would_stop_on_is_one_question() -> None:
    gold = [{"uid": "c", "qa": {"answer": 2.0, "program": "add(1, 1)"}}]
    result = score_records(gold, [])  # no prediction: MultiHiertt's evaluate.py stops on a KeyError
    assert result.would_abort == ("c",)
    assert result.headline().endswith("the official script would stop on 1 question")
    assert result.table()[0].startswith("n = 1 gold question ")


def test_one_program_is_one_program(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    programs = tmp_path / "one.jsonl"
    programs.write_text('{"id": "a", "program": "divide(3, 4)", "exe_ans": 0.75}\n', encoding="utf-8")
    assert main(["exec", str(programs), "--no-progress", "--out", str(tmp_path / "out.jsonl")]) == 0
    err = capsys.readouterr().err
    assert "exec: 1 program (ok 1)" in err and "1 programs" not in err
    assert main(["report", str(programs), "--no-progress", "--out", str(tmp_path / "rep")]) == 0
    text = capsys.readouterr()
    assert "1 programs" not in text.out + text.err


COUNTED = re.compile(r"\{(?![^{}]*name)[^{}]*\}\s+(?:gold |answer |worker )?(?:programs|questions|items|cases|records|rows|lines"
                     r"|answers|predictions|problems|samples|models|failures|bytes|characters|digits|steps|ids|files"
                     r"|queries|prompts|labels|results|completions|rewards|times|bits|spans)\b|\}\s*\w+\(s\)")
STANDALONE = {"datasets/mathqa/sandbox_child.py", "checker/pychild.py", "checker/reward/child.py"}
"""Children run alone (in a sandbox or a bare interpreter): they import nothing from progexec."""


def test_every_counted_noun_in_a_message_goes_through_the_plural_helper() -> None:
    found = []
    for path in sorted((ROOT / "src" / "progexec").rglob("*.py")):
        if path.relative_to(ROOT / "src" / "progexec").as_posix() in STANDALONE:
            continue
        for token in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
            if token.type == tokenize.STRING and re.match(r"[rRbB]?[fF]", token.string) and COUNTED.search(token.string):
                found.append(f"{path.relative_to(ROOT)}:{token.start[0]}: {token.string[:80]}")
    assert not found, "\n".join(found)
