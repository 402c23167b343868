"""``progexec exec`` on a MathQA file: one JSON line per problem, in input order.

``sniff_mathqa(path)`` returns the records when the file is a MathQA file (and None
otherwise), so the FinQA code path never sees MathQA input; ``exec_mathqa`` writes
the lines and a summary on stderr.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from .execute import Semantics, execute_all, is_mathqa
from ..inputs import InputError, read_text


def sniff_mathqa(path: Path) -> list[Any] | None:
    """The records of ``path`` when it is a MathQA JSON list, else None (other formats, JSONL, bad JSON)."""
    try:
        text = read_text(path)
    except InputError:
        return None
    if not text.lstrip().startswith("["):
        return None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    return data if is_mathqa(data) else None


def exec_mathqa(records: Sequence[Any], out: TextIO, quiet: bool = False,
                semantics: Semantics = Semantics.PROGEXEC) -> int:
    """Write one JSON line per problem to ``out`` under ``semantics``; return the number written."""
    statuses: Counter[str] = Counter()
    matched = selected = 0
    for result in execute_all(records, semantics=semantics):
        out.write(json.dumps(result.record(), ensure_ascii=False, allow_nan=False) + "\n")
        statuses[result.outcome.status.label] += 1
        matched += bool(result.match)
        selected += result.option is not None and result.option == result.correct
    if not quiet:
        by_status = ", ".join(f"{name} {count}" for name, count in sorted(statuses.items()))
        print(f"exec: {len(records)} MathQA problems, {semantics.value} semantics ({by_status}); {matched} within 1% of the correct option; "
              f"{selected} select the correct option", file=sys.stderr)
    return len(records)
