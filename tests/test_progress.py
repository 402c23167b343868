"""The progress line: a total or percent and an ETA whenever the input's size is known, a count and a rate
when it is not, nothing with ``--no-progress`` or when stderr is not a terminal.

The line's text is checked from given counts (:func:`progress_line`, no clock), and each long-running
command is run with its stderr on a pseudo-terminal: the final line, drawn when the work ends whatever the
machine's speed, must show the whole input read (100%) of the files' size in bytes (compressed bytes of a
gzip file, as tqdm shows a file) or of the known item count.
"""

from __future__ import annotations

import gzip
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

from progexec import inputmeter
from progexec.cli.progress import progress_line
from progexec.textsource import open_source

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
PROGRAMS = DATA / "report_small.jsonl"
REWARDS = DATA / "rewards" / "handwritten.jsonl"
PREDICTIONS = DATA / "predictions" / "finqa_example_predictions.json.gz"


def test_the_line_with_a_known_input_size_has_the_percent_and_an_eta() -> None:
    line = progress_line("report", 800, 4.0, read=250_000, size=1_000_000)
    assert line == "report: 800 · 250.0 kB of 1.0 MB (25%, 200/s, ETA 12s)"
    assert progress_line("exec", 10, 2.0, read=2_000_000, size=2_000_000).endswith("(100%, 5/s, ETA 0s)")
    assert progress_line("exec", 0, 0.0, read=0, size=10) == "exec: 0 · 0 B of 10 B (0%, -/s, ETA ?)"


def test_the_line_with_a_known_item_count_has_the_total_percent_and_eta() -> None:
    assert progress_line("score", 500, 5.0, total=1000) == "score: 500/1,000 (50%, 100/s, ETA 5s)"
    assert progress_line("check-evaluator", 19_776, 7200.0, total=19_776).endswith("(100%, 3/s, ETA 0s)")
    assert progress_line("exec", 100, 100.0, total=7000).endswith("(1%, 1/s, ETA 1h55m)")  # 6,900 s to go


def test_the_line_without_a_size_has_a_count_and_a_rate() -> None:
    assert progress_line("report", 8001, 2.0) == "report: 8,001 (4,000/s, 2s)"


@pytest.mark.parametrize("compress", [False, True])
def test_the_meter_counts_the_bytes_read_of_the_file(tmp_path: Path, compress: bool) -> None:
    text = "".join(f'{{"id": "{n}", "program": "add({n}, 1)"}}\n' for n in range(3000)).encode()
    path = tmp_path / ("p.jsonl.gz" if compress else "p.jsonl")
    path.write_bytes(gzip.compress(text) if compress else text)
    assert inputmeter.size_of([path]) == path.stat().st_size
    assert inputmeter.size_of([path, "-"]) is None
    inputmeter.reset()
    source = open_source(path)
    while source.read():
        pass
    assert inputmeter.bytes_read() == path.stat().st_size  # compressed bytes of a gzip file: its size
    source.close()
    assert inputmeter.bytes_read() == path.stat().st_size


def on_a_terminal(argv: list[str], cwd: Path, stdin: Path | None = None) -> str:
    """Run ``progexec ARGV`` with stderr on a pseudo-terminal; what it wrote there."""
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    with open(stdin or os.devnull, "rb") as given:
        proc = subprocess.Popen([sys.executable, "-m", "progexec", *argv], stdin=given, stdout=subprocess.DEVNULL,
                                stderr=slave, cwd=cwd, env=env)
        os.close(slave)
        out = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the terminal's other end closed: the command ended
                break
            if not chunk:
                break
            out += chunk
        proc.wait(timeout=600)
    os.close(master)
    return out.decode("utf-8", "replace")


def final_line(err: str) -> str:
    """The last progress line drawn (each starts with a carriage return and ends by clearing the line)."""
    drawn: list[str] = re.findall(r"\r([^\r\n]*)\x1b\[K", err)
    assert drawn, err
    return drawn[-1]


def _gz(tmp_path: Path, source: Path) -> Path:
    target = tmp_path / (source.name + ".gz")
    target.write_bytes(gzip.compress(source.read_bytes()))
    return target


@pytest.mark.parametrize("command", ["exec", "report", "reward"])
@pytest.mark.parametrize("compress", [False, True])
def test_a_file_input_shows_the_bytes_read_of_its_size(tmp_path: Path, command: str, compress: bool) -> None:
    source = REWARDS if command == "reward" else PROGRAMS
    path = _gz(tmp_path, source) if compress else source
    size = path.stat().st_size
    out = ["--out", str(tmp_path / ("out" if command == "report" else "out.jsonl"))]
    line = final_line(on_a_terminal([command, str(path), *out], tmp_path))
    match = re.fullmatch(rf"{command}: [\d,]+ · (.+) of (.+) \(100%, [\d,]+/s, ETA 0s\)", line)
    assert match is not None, line
    shown = f"{size / 1000:.1f} kB" if size >= 1000 else f"{size} B"  # the file's size, as the line writes it
    assert match.group(1) == match.group(2) == shown, line


def test_standard_input_shows_a_count_and_a_rate(tmp_path: Path) -> None:
    line = final_line(on_a_terminal(["exec", "-", "--out", str(tmp_path / "o.jsonl")], tmp_path, stdin=PROGRAMS))
    lines = sum(1 for text in PROGRAMS.read_text(encoding="utf-8").splitlines() if text.strip())
    assert re.fullmatch(rf"exec: {lines:,} \([\d,]+/s, \d+s\)", line), line
    assert "%" not in line and "ETA" not in line


@pytest.mark.parametrize("argv, total", [
    (["score", "--gold", "finqa:test", "--pred", str(PREDICTIONS)], None),
    (["check-evaluator", "--python", "progexec.interp.official:official_verdict", "--cases", "300"], 300),
    (["check-rounder", "--python", "builtins:round", "--cases", "300"], 300),
    (["mathqa-python", "--split", "challenge_test", "--out", "m.jsonl"], 604),
    (["exec", "--corpus", "convfinqa", "--out", "c.jsonl"], 2028),
    (["check-reward", "--python", "progexec.integrations.verl:compute_score", "--signature", "verl", "--cases", "60"],
     None),  # the suite and the probes' calls
])
def test_a_known_item_count_shows_the_total(tmp_path: Path, argv: list[str], total: int | None) -> None:
    line = final_line(on_a_terminal(argv, tmp_path))
    match = re.fullmatch(r"[\w-]+: ([\d,]+)/([\d,]+) \(100%, [\d,]+/s, ETA 0s\)", line)
    assert match is not None, line
    assert match.group(1) == match.group(2) and (total is None or match.group(2) == f"{total:,}")


def test_no_progress_and_a_pipe_show_nothing(tmp_path: Path) -> None:
    err = on_a_terminal(["exec", str(PROGRAMS), "--no-progress", "--out", str(tmp_path / "o.jsonl")], tmp_path)
    assert "\x1b[K" not in err and "\r" not in err.replace("\r\n", "")
    piped = subprocess.run([sys.executable, "-m", "progexec", "exec", str(PROGRAMS), "--out", str(tmp_path / "p.jsonl")],
                           capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert piped.returncode in (0, 1) and "\x1b[K" not in piped.stderr and "/s" not in piped.stderr
