"""``score-python`` for a FinanceReasoning gold file: the runs of ``--pred`` scored, or ``--check-gold``.

Prediction layout (the repository's): ``--pred DIR`` is searched for ``MODEL/evaluation.json`` or
``MODEL/inference.json`` (gzip too; ``evaluation.json`` preferred, it carries the recorded CoT
answers), the run named by its folder (its path under DIR when two runs of one mode share a name);
other JSON files beside them (the repository's ``raw_*_outputs``, ``results``) are not runs. A
directory without such folders, and a file named on its own, is a run named by its file name
without ``.json[.gz]``, ``.evaluation`` or ``.inference``. The folder, not FinanceMath's "file name up to the first dot",
names a model, so ``llama3.1-…`` and ``llama3.3-…`` stay two models.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Protocol

from collections.abc import Sequence

from ...core.errors import OptionError as OptionError, InputError
from ..mathqa.sandbox import default_jobs
from ...isolation.bwrap import IsolationUnavailable
from ..pysolution.scoring import load_records
from ...readers import Record
from .goldcheck import check_gold
from .report import divergence_text, document, gold_document, gold_text, pages, table
from .scoring import Run, gold_questions, run_mode, score_runs

class Tools(Protocol):
    """What the ``score-python`` command lends a dataset's own scorer: run metadata, a progress line and the
    naming of written files (the command layer's, which a dataset module does not import)."""

    def meta(self, args: argparse.Namespace, inputs: Sequence[str]) -> dict[str, Any]: ...

    def progress(self, args: argparse.Namespace) -> Any: ...

    def write_text(self, path: Path, text: str) -> Path: ...


RUN_FILES = ("evaluation.json", "evaluation.json.gz", "inference.json", "inference.json.gz")
SUFFIXES = (".json.gz", ".jsonl.gz", ".json", ".jsonl")


def is_gold(records: list[Record]) -> bool:
    """Whether the gold records are FinanceReasoning's (``python_solution`` beside ``source`` and ``context``)."""
    for record in records:
        value = record.value
        if record.error is None and isinstance(value, dict):
            return all(key in value for key in ("question_id", "python_solution", "ground_truth", "source", "context"))
    return False


def _file_name(path: Path) -> str:
    name = path.name
    for suffix in SUFFIXES:
        if name.endswith(suffix):
            name = name[:-len(suffix)]
            break
    for tail in (".evaluation", ".inference"):
        if name.endswith(tail):
            return name[:-len(tail)]
    return name


def _named(path: Path, base: Path | None) -> tuple[str, str]:
    """A run's name (its folder, or its file name) and its longer name (its path under ``base``)."""
    short = path.parent.name if path.name in RUN_FILES else _file_name(path)
    if base is None:
        return short, short
    relative = path.parent.relative_to(base).as_posix() if path.parent != base else ""
    if path.name in RUN_FILES:
        return short, relative or short
    return short, f"{relative}/{short}" if relative else short


def prediction_files(entries: list[str]) -> list[tuple[str, str, str]]:
    """(run name, longer name, file) for every prediction named; a folder's evaluation.json wins over its
    inference.json."""
    found: list[tuple[str, str, str]] = []
    for entry in entries:
        path = Path(entry)
        if entry == "-":
            found.append(("-", "-", entry))
        elif path.is_dir():
            chosen: dict[Path, Path] = {}
            others: list[Path] = []
            for child in sorted(path.rglob("*")):
                if not child.is_file():
                    continue
                if child.name in RUN_FILES:
                    best = chosen.get(child.parent)
                    if best is None or RUN_FILES.index(child.name) < RUN_FILES.index(best.name):
                        chosen[child.parent] = child
                elif child.name.endswith(SUFFIXES):
                    others.append(child)
            files = sorted(chosen.values()) if chosen else sorted(others)  # the layout's folders, when there are any
            if not files:
                raise OptionError(f"{entry}: no prediction files (MODEL/evaluation.json, MODEL/inference.json, "
                                 "*.json, *.json.gz) in this directory")
            found += [(*_named(file, path), str(file)) for file in files]
        elif not path.exists():
            raise OptionError(f"{entry}: no such file or directory")
        else:
            found.append((*_named(path, None), entry))
    return found


def run(args: argparse.Namespace, gold: list[Record], tools: Tools) -> int:
    """Score ``--pred`` (or check the golds with ``--check-gold``) and print or write the outputs."""
    jobs = args.jobs or 4 * default_jobs()
    questions, problems = gold_questions(gold)
    if not questions:
        raise OptionError(f"{args.gold}: no usable FinanceReasoning gold question (each needs a 'question_id'); "
                         + "; ".join(problems[:3]))
    if getattr(args, "check_gold", False):
        return _check(args, gold, jobs, tools)
    if not args.pred:
        raise OptionError("--pred is required (or pass --check-gold)")
    files = prediction_files(args.pred)
    loaded = []
    for name, longer, path in files:
        try:
            records = load_records(path)
        except InputError as error:
            raise OptionError(str(error)) from None
        mode = run_mode(records)
        if mode == "pot" and "cot" in Path(path).parts[:-1]:
            raise OptionError(f"{path}: a chain-of-thought run without recorded answers (result.extracted_answer); "
                             "the official evaluation extracts them with an LLM: pass its evaluation.json")
        loaded.append((name, longer, path, mode, records))
    shared = {(name, mode) for name, _, _, mode, _ in loaded
              if sum(1 for other, _, _, again, _ in loaded if (other, again) == (name, mode)) > 1}
    runs: list[Run] = []
    seen: dict[tuple[str, str], str] = {}
    for name, longer, path, mode, records in loaded:
        chosen = longer if (name, mode) in shared else name  # a model is named by its folder unless two share it
        if (chosen, mode) in seen:
            raise OptionError(f"two prediction files name the same model {chosen!r} ({mode}): {seen[(chosen, mode)]} "
                             f"and {path}")
        seen[(chosen, mode)] = path
        runs.append(Run(chosen, records))
    progress = tools.progress(args)
    timeout = args.timeout  # None: the official 10 s (official_pot_timeout_seconds)
    try:
        models, problems, isolation = score_runs(gold, runs, jobs=jobs, unsafe_no_isolation=args.unsafe_no_isolation,
                                                 progress=progress.update, timeout=timeout)
    except IsolationUnavailable as error:
        raise OptionError(str(error)) from None
    finally:
        progress.close()
    if isolation.startswith("none"):
        print(f"score-python: WARNING: model code ran WITHOUT isolation ({isolation})", file=sys.stderr)
    meta = tools.meta(args, [args.gold, *(path for _, _, path in files)])
    if args.out is not None:
        out = Path(args.out)
        tools.write_text(out / "leaderboard.json", _json(document(models, problems, isolation, meta, with_items=False)))
        tools.write_text(out / "items.jsonl", "".join(
            json.dumps(item.record(with_code=True), ensure_ascii=False, allow_nan=False) + "\n"
            for model in models for item in model.items + model.unknown))
        tools.write_text(out / "leaderboard.txt", table(models, problems, isolation, by_source=True)
                         + divergence_text(models))
        for name, page in pages(models, isolation):
            tools.write_text(out / name, page)
    if args.json:
        print(json.dumps(document(models, problems, isolation, meta), ensure_ascii=False, allow_nan=False))
    else:
        sys.stdout.write(table(models, problems, isolation, by_source=args.by_topic))
        if args.divergences:
            sys.stdout.write(divergence_text(models))
    return 0


def _json(doc: dict[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False, allow_nan=False, indent=1) + "\n"


def _check(args: argparse.Namespace, gold: list[Record], jobs: int, tools: Tools) -> int:
    progress = tools.progress(args)
    try:
        checks, problems, isolation = check_gold(gold, jobs=jobs, unsafe_no_isolation=args.unsafe_no_isolation,
                                                 progress=progress.update)
    except IsolationUnavailable as error:
        raise OptionError(str(error)) from None
    finally:
        progress.close()
    meta = tools.meta(args, [args.gold])
    doc = gold_document(checks, problems, isolation, meta)
    if args.out is not None:
        out = Path(args.out)
        tools.write_text(out / "gold_check.json", _json(doc))
        tools.write_text(out / "gold_check.txt", gold_text(checks, problems, isolation))
    if args.json:
        print(json.dumps(doc, ensure_ascii=False, allow_nan=False))
    else:
        sys.stdout.write(gold_text(checks, problems, isolation))
    return 0
