"""The bad-input corpus (tests/data/bad_inputs.txt): every line gets its typed status, a message,
the step and argument it names, and the official verdict the SPEC predicts.

Expected values are written in the data file from the SPEC (§1, §2, §6 and docs/robustness.md);
the official column is also cross-checked with the independent reference (tests/reference_impl.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from progexec.datasets import get_dataset
from progexec.readers import read
from progexec.runner import execute
from progexec.core.execution import Execution
from progexec.interp.run import execute_text, execute_tokens

from .reference_impl import ref_tokenize, reference_eval

CORPUS = Path(__file__).parent / "data" / "bad_inputs.txt"


def _cases() -> list[tuple[str, str, Any, Any, str, int | None, int | None, str]]:
    cases = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("--"):
            continue
        fields = [field.strip() for field in line.split(" | ")]
        assert len(fields) == 8, f"malformed corpus line: {line[:80]}"
        case_id, form, raw_input, raw_table, status, step, arg, official = fields
        table = None if raw_table == "-" else json.loads(raw_table)
        cases.append((case_id, form, json.loads(raw_input), table, status,
                      None if step == "-" else int(step), None if arg == "-" else int(arg), official))
    return cases


CASES = _cases()


def test_corpus_is_present_and_ids_are_unique() -> None:
    ids = [case[0] for case in CASES]
    assert len(ids) >= 120, "the bad-input corpus is missing or truncated"
    assert len(ids) == len(set(ids))


def _build(spec: dict[str, Any], table: Any) -> tuple[str, Any, Any]:
    """Expand a ``build`` input: (form, program, table)."""
    if "tokens" in spec:
        return "tokens", list(spec["tokens"]) * spec["token_times"] + ["EOF"], table
    text = spec["prefix"] + spec["repeat"] * spec["times"] + spec["suffix"]
    if "cell" in spec:
        table = json.loads(json.dumps(table).replace("CELL", spec["cell"] * spec["cell_times"]))
    return spec.get("as", "text"), text, table


def _run(form: str, program: Any, table: Any, tmp_path: Path) -> tuple[Execution, list[str] | None]:
    """Execute one case; for ``line`` cases through the batch loader, as `progexec exec` does."""
    if form == "text":
        return execute_text(program, table, get_dataset("finqa")), ref_tokenize(program)
    if form == "tokens":
        return execute_tokens(program, table, get_dataset("finqa")), list(program)
    assert form == "line"
    path = tmp_path / "case.jsonl"
    # a good first line makes the file JSON Lines (a one-line file holding one JSON document is read
    # as a whole-file format, where `[1, 2]` is a usage error rather than an item)
    path.write_text('{"id": "first", "program": "add(1, 2)"}\n' + program + "\n", encoding="utf-8",
                    errors="surrogatepass")
    items = list(read(path))
    assert len(items) == 2, "a batch line must give exactly one item"
    item = items[1]
    assert item.id, "every item has an id (line-N when the line has none)"
    if "\"id\"" not in program:
        assert item.id == "line-2"
    tokens = None
    if item.error is None and isinstance(item.program, str):
        tokens = ref_tokenize(item.program)
    elif item.error is None and isinstance(item.program, list):
        tokens = item.program
    return execute(item), tokens


@pytest.mark.parametrize(("case_id", "form", "raw", "table", "status", "step", "arg", "official"), CASES,
                         ids=[case[0] for case in CASES])
def test_bad_input(case_id: str, form: str, raw: Any, table: Any, status: str, step: int | None,
                   arg: int | None, official: str, tmp_path: Path) -> None:
    if form == "build":
        form, raw, table = _build(raw, table)
    execution, tokens = _run(form, raw, table, tmp_path)
    outcome = execution.outcome
    assert outcome.status.label == status, (case_id, outcome)
    if status != "ok":
        assert not outcome.present and outcome.value is None
        assert outcome.message, f"{case_id}: a refusal must say why"
        assert (outcome.step, outcome.arg) == (step, arg), (case_id, outcome)
        if step is not None:
            where = outcome.where()
            assert where.startswith(f"step {step}") and (arg is None or f"argument {arg}" in where)
    if status == "syntax_error" and execution.error is not None:
        assert execution.error.line >= 1 and execution.error.column >= 1  # the position stands in for a step
    if official != "-":
        assert execution.official.valid is (official == "valid"), (case_id, execution.official)
        if tokens is not None:
            assert reference_eval(tokens, table).valid is (official == "valid"), case_id
