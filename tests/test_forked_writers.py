"""A ``--jobs`` report writes its pages side by side in forked processes: the same files, the same errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from progexec.cli import main
from progexec.cli.forked_writers import write_all

SMALL = Path(__file__).parent / "data" / "report_small.jsonl"


def test_a_page_that_cannot_be_written_is_the_serial_usage_error(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    errors = []
    for jobs in ("1", "2"):
        out = tmp_path / jobs
        (out / "report.html").mkdir(parents=True)  # written by a forked process under --jobs 2
        assert main(["report", str(SMALL), "--out", str(out), "--jobs", jobs]) == 2
        errors.append(capsys.readouterr().err.replace(str(out), "OUT"))
    assert errors[0] == errors[1] and "cannot write the report to OUT" in errors[0] and "report.html" in errors[0]


def test_the_first_failure_is_raised_and_the_files_before_it_are_written(tmp_path: Path) -> None:
    def text(model: str, path: Path) -> None:
        path.write_text(model, encoding="utf-8")

    def broken(model: str, path: Path) -> None:
        raise OSError(f"no room for {path.name}")

    paths = [tmp_path / name for name in ("a", "b", "c")]
    with pytest.raises(OSError, match="no room for b"):
        write_all("page", [(text, paths[0]), (broken, paths[1]), (text, paths[2])], side_by_side=True)
    assert paths[0].read_text(encoding="utf-8") == "page"
