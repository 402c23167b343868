"""A TAT-QA score as each output shows it: the ``--json`` record, the official script's printout with the table
and the reasons, and score.md. ``progexec score`` writes them; a library caller gets the same text."""

from __future__ import annotations

from typing import Any

from ...core.plural import plural
from ...records import FORMAT_VERSION
from .scoring import TatqaScore

__all__ = ["score_markdown", "score_record", "score_text"]


def score_record(result: TatqaScore, gold: str, pred: str, meta: dict[str, Any] | None) -> dict[str, Any]:
    """The ``--json`` object of a TAT-QA score."""
    return {"format_version": FORMAT_VERSION, **({"meta": meta} if meta is not None else {}), "dialect": "tatqa",
            "gold": gold, "pred": pred, **result.summary()}


def score_text(result: TatqaScore) -> str:
    """The official script's printout (figures x 100, 2 places), the table, and the reasons."""
    lines = ["----", f"Exact-match accuracy {result.em * 100:.2f}", f"F1 score {result.f1 * 100:.2f}",
             f"Scale score {result.scale * 100:.2f}", f"{result.em * 100:.2f}   &   {result.f1 * 100:.2f}", "----",
             f"exact floats: exact match {result.em!r}, F1 {result.f1!r}, scale score {result.scale!r} "
             f"over {plural(result.count, 'question')}"]
    sources = sorted({source for _, source in result.cells})
    lines += ["", f"{'answer type':<12} " + " ".join(f"{source:>24}" for source in sources)]
    for kind in sorted({kind for kind, _ in result.cells}):
        cells = []
        for source in sources:
            cell = result.cells.get((kind, source))
            cells.append(f"{'-':>24}" if cell is None else f"{f'{cell.count} EM {cell.em:.4f} F1 {cell.f1:.4f}':>24}")
        lines.append(f"{kind:<12} " + " ".join(cells))
    lines += ["", "reasons: " + ", ".join(f"{label} {count}" for label, count in result.reasons().items())]
    if result.aborted:
        lines.append(f"the official script would stop: {result.aborted}")
    return "\n".join(lines) + "\n"


def score_markdown(result: TatqaScore, gold: str, pred: str) -> str:
    """score.md: the three measures with the official printout, the answer type x source table, the reasons."""
    lines = ["# TAT-QA score", "", f"Gold `{gold}`, predictions `{pred}`: {plural(result.count, 'question')}.", "",
             "| measure | value | official printout |", "|---|---|---|",
             f"| exact match | {result.em!r} | {result.em * 100:.2f} |", f"| F1 | {result.f1!r} | {result.f1 * 100:.2f} |",
             f"| scale score | {result.scale!r} | {result.scale * 100:.2f} |", "",
             "| answer type | answer source | questions | EM | F1 |", "|---|---|---|---|---|"]
    lines += [f"| {kind} | {source} | {cell.count} | {cell.em:.6f} | {cell.f1:.6f} |"
              for (kind, source), cell in sorted(result.cells.items())]
    lines += ["", "| reason | questions |", "|---|---|"]
    lines += [f"| `{label}` | {count} |" for label, count in result.reasons().items()]
    if result.aborted:
        lines += ["", f"The official script would stop: {result.aborted}"]
    return "\n".join(lines) + "\n"
