"""verl rows written as Parquet read back as the same rows, with one schema for every dataset."""

from __future__ import annotations

from pathlib import Path

import pytest

from progexec.integrations.verl_rows import iter_rows, main
from progexec.reward import Policy

pq = pytest.importorskip("pyarrow.parquet")


@pytest.mark.parametrize("dataset, split", [("finqa", "test"), ("convfinqa", "dev"), ("mathqa", "challenge_test")])
def test_parquet_round_trips_the_rows(tmp_path: Path, dataset: str, split: str) -> None:
    out = tmp_path / "rows.parquet"
    assert main(["--dataset", dataset, "--split", split, "--policy", "official", "--out", str(out)]) == 0
    read = pq.read_table(out).to_pylist()
    written = list(iter_rows(dataset, [split], Policy.OFFICIAL))
    assert read == written
    again = tmp_path / "again.parquet"
    assert main(["--dataset", dataset, "--split", split, "--policy", "official", "--out", str(again)]) == 0
    assert again.read_bytes() == out.read_bytes()  # a rerun writes the same bytes


ROWS = Path(__file__).parent / "data" / "rows"


@pytest.mark.parametrize("target", ["verl", "trl", "openrlhf"])
def test_progexec_rows_parquet_is_the_jsonl_rows(tmp_path: Path, target: str) -> None:
    import json

    from progexec.cli import main as cli

    for name in ("finqa_test_3.json", "convfinqa_dev_2.json", "mathqa_test_3.json"):
        parquet, jsonl = tmp_path / f"{name}.parquet", tmp_path / f"{name}.jsonl"
        assert cli(["rows", str(ROWS / name), "--for", target, "--out", str(parquet)]) == 0
        assert cli(["rows", str(ROWS / name), "--for", target, "--out", str(jsonl)]) == 0
        assert pq.read_table(parquet).to_pylist() == [json.loads(line) for line in jsonl.read_text().splitlines()]
        again = tmp_path / "again.parquet"
        assert cli(["rows", str(ROWS / name), "--for", target, "--out", str(again)]) == 0
        assert again.read_bytes() == parquet.read_bytes()


def test_progexec_rows_parquet_mixes_number_and_yes_no_answers(tmp_path: Path) -> None:
    from progexec.cli import main as cli

    out = tmp_path / "finqa.parquet"
    assert cli(["rows", "finqa:test", "--for", "trl", "--out", str(out)]) == 0
    answers = pq.read_table(out).column("answer").to_pylist()
    assert "yes" in answers and "94.0" in answers
