"""``progexec conformance export DIR``: the check-evaluator suite as data files a port can run alone.

Files (``V`` = :data:`SUITE_VERSION`):

* ``finqa-conformance-vV.jsonl`` — one case per line: ``id``, ``family``, ``dialect``,
  ``program`` (text), ``tokens`` (the official token list), ``table``, ``expected``
  (``{"valid", "value"}``, value a number, ``"yes"``, ``"no"``, null, or ``"inf"``/``"-inf"``/``"nan"``);
* ``finqa-conformance-vV.txt`` — the same, decTest style, one line per case:
  ``id | program | table | expected`` (program and table as JSON with ``|`` escaped, so
  splitting on ``" | "`` is safe; expected ``invalid``, ``yes``, ``no``, ``n/a`` or the value's
  shortest round-trip decimal);
* ``finqa-conformance-vV-flat.jsonl`` — the cases with a flat form: ``id``, the nine
  ``run_flat`` arguments, ``expected`` (``status``, ``present``, ``value``, ``is_bool``, ``bool_value``);
* ``README.md`` — the format, the counts and the licences of the embedded data.

Byte-identical for the same arguments.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Optional

from ...grammar.tokens import official_tokenize
from ...core.verdict import OfficialVerdict
from .cases import EvalCase, suite
from .protocol import FlatVerdict, Protocol, flat_payload, prepare, raw_payload, reference

SUITE_VERSION = 1
"""Raised whenever a case's expected answer or the file format changes."""


def _json_value(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def _text_value(verdict: OfficialVerdict) -> str:
    if not verdict.valid:
        return "invalid"
    if verdict.value is None:
        return "n/a"
    if isinstance(verdict.value, str):
        return verdict.value
    return repr(float(verdict.value))


def _field(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True).replace("|", "\\u007c")


def _flat_expected(result: FlatVerdict) -> dict[str, Any]:
    return {"status": result.status, "present": result.present, "value": _json_value(result.value),
            "is_bool": result.is_bool, "bool_value": result.bool_value}


def _case_record(case: EvalCase, verdict: OfficialVerdict) -> dict[str, Any]:
    return {"id": case.id, "family": case.family.value, "dialect": case.dialect, "program": case.program,
            "tokens": official_tokenize(case.program), "table": case.table,
            "expected": {"valid": verdict.valid, "value": _json_value(verdict.value) if verdict.valid else None}}


def export(directory: Path, suite_name: str = "all", cases: Optional[int] = None, seed: int = 0) -> dict[str, int]:
    """Write the files into ``directory``; returns the number of cases per file."""
    directory.mkdir(parents=True, exist_ok=True)
    stem = f"finqa-conformance-v{SUITE_VERSION}"
    counts = {f"{stem}.jsonl": 0, f"{stem}.txt": 0, f"{stem}-flat.jsonl": 0}
    families: dict[str, int] = {}
    with open(directory / f"{stem}.jsonl", "w", encoding="utf-8", newline="\n") as jsonl, \
            open(directory / f"{stem}.txt", "w", encoding="utf-8", newline="\n") as text, \
            open(directory / f"{stem}-flat.jsonl", "w", encoding="utf-8", newline="\n") as flat:
        text.write(f"-- finqa conformance suite v{SUITE_VERSION} (progexec): id | program | table | expected\n")
        for case in suite(suite_name, cases, seed):
            prepared = prepare(case, Protocol.JSONL)
            assert prepared is not None
            verdict = reference(prepared, Protocol.JSONL)
            assert isinstance(verdict, OfficialVerdict)
            jsonl.write(json.dumps(_case_record(case, verdict), ensure_ascii=True, allow_nan=False) + "\n")
            text.write(f"{case.id} | {_field(case.program)} | {_field(case.table)} | {_text_value(verdict)}\n")
            counts[f"{stem}.jsonl"] += 1
            counts[f"{stem}.txt"] += 1
            families[case.family.value] = families.get(case.family.value, 0) + 1
            lowered = prepare(case, Protocol.FLAT)
            if lowered is not None and lowered.flat is not None:
                result = reference(lowered, Protocol.FLAT)
                assert isinstance(result, FlatVerdict)
                record = {"id": case.id, **flat_payload(lowered.flat), "expected": _flat_expected(result)}
                flat.write(json.dumps(record, ensure_ascii=True, allow_nan=False) + "\n")
                counts[f"{stem}-flat.jsonl"] += 1
        for case in suite(suite_name, cases, seed, flat=True):
            if case.flat is None:
                continue
            lowered = prepare(case, Protocol.FLAT)
            assert lowered is not None
            result = reference(lowered, Protocol.FLAT)
            assert isinstance(result, FlatVerdict)
            flat.write(json.dumps({"id": case.id, **raw_payload(case.flat), "expected": _flat_expected(result)},
                                  ensure_ascii=True, allow_nan=False) + "\n")
            counts[f"{stem}-flat.jsonl"] += 1
            families[case.family.value] = families.get(case.family.value, 0) + 1
    (directory / "README.md").write_text(readme(stem, suite_name, seed, counts, families), encoding="utf-8")
    return counts


def readme(stem: str, suite_name: str, seed: int, counts: dict[str, int], families: dict[str, int]) -> str:
    rows = "\n".join(f"| `{family}` | {count:,} |" for family, count in sorted(families.items()))
    files = "\n".join(f"| `{name}` | {count:,} |" for name, count in counts.items())
    return f"""# FinQA evaluator conformance suite, version {SUITE_VERSION}

Written by `progexec conformance export` (suite `{suite_name}`, seed {seed}). Every case is a FinQA or
ConvFinQA program with its table and the answer the official evaluator gives (CPython on the system
C library), so a port in any language can check itself without Python.

| file | cases |
|---|---|
{files}

## Format

`{stem}.jsonl` — one JSON object per line:

* `id` — unique; `family` — what the case tests (below); `dialect` — `finqa` or `convfinqa`
  (ConvFinQA: a one-token program is a bare number; the constant rule needs `const_`);
* `program` — the program text; `tokens` — the official token list of that text (`EOF` last);
* `table` — a list of rows, each a list of strings, or null;
* `expected` — `{{"valid": bool, "value": ...}}`: value a number, `"yes"`, `"no"`, null (`n/a`), or
  `"inf"`, `"-inf"`, `"nan"`; `-0.0` is written `-0.0`. When `valid` is false the value is null.

A port passes a case when its validity equals `valid` and, when valid, its value equals `value`
bit for bit (a zero's sign may be treated as lesser; any nan equals any nan). Values that come
from `exp` may differ by one ulp on a C library whose `pow` is not correctly rounded.

`{stem}.txt` — the same cases, one per line: `id | program | table | expected`. Program and table
are JSON with every `|` written `\\u007c`, so splitting a line on `" | "` gives four fields;
`expected` is `invalid`, `yes`, `no`, `n/a` or the value as the shortest decimal that reads back
to the same double (`inf`, `-inf`, `nan` for non-finite values). Lines starting with `--` are comments.

`{stem}-flat.jsonl` — the cases that lower to the progexec flat contract: `ops`, `arg1_kind`,
`arg1_num`, `arg2_kind`, `arg2_num`, `table_values`, `table_offset`, `table_len`, `n_steps`
(non-finite numbers as strings), and `expected`: `status` (1400 ok, 1401-1419 a refusal),
`present`, `value`, `is_bool`, `bool_value`. The `flat_contract` family is only in this file: raw lists
that break one contract check each (lengths, op codes, argument kinds, references, row slices,
non-finite numbers), so a port of the contract is checked on every status code.

## Families

| family | cases |
|---|---|
{rows}

## Licences

The `gold_finqa` cases are the FinQA dataset's programs and tables — MIT License, Copyright (c) 2021
Zhiyu Chen; Zhiyu Chen et al., *FinQA: A Dataset of Numerical Reasoning over Financial Data*, EMNLP 2021.
The `gold_convfinqa` cases are ConvFinQA's turn programs and tables — MIT License, Copyright (c) 2022
Zhiyu Chen; Zhiyu Chen et al., *ConvFinQA: Exploring the Chain of Numerical Reasoning in Conversational
Finance Question Answering*, EMNLP 2022 (the dev turns via the Tomoro AI reformatting of the official
dev file). Keep these notices when you redistribute the files. The other families are generated by
progexec and are under progexec's MIT licence.
"""
