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
