"""``progexec score-python --gold FILE --pred DIR_OR_FILE...``: run model-written Python in the sandbox and score it.

The gold file decides the dataset (``--dataset`` overrides): FinanceMath or DocMath-Eval
(records with ``question_id`` and ``python_solution``; many models in one run, a leaderboard)
or MathQA-Python (``{id, answer}`` gold, one ``{id, code}`` prediction file).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..datasets.mathqa.sandbox import default_jobs, require_isolation
from ..datasets.mathqa.score_python import DEFAULT_REL_TOL, ItemKind, Line, gold_items, predictions, read_records, score
from ..core.errors import InputError, OptionError, SetupError
from ..datasets.pysolution.datasets import DATASETS, MATHQA_PYTHON, Dataset, detect
from ..datasets.pysolution.pool import Budget
from ..datasets.pysolution.scoring import load_records
from ..core.registry import solution_commands
from ..readers import Record
from ..inputkinds import MATHQA_PYTHON_PREDICTIONS, PYTHON_SOLUTION_GOLD
from ..records import dumps
from .common import EXIT_OK, add_batch_options, command_meta, json_document, note_written, progress_for, write_text
from ..core.limits import current

NAME = "score-python"
HELP = ("run model-written Python (FinanceMath / DocMath-Eval / FinanceReasoning program-of-thought, MathQA-Python) "
        "in a bubblewrap sandbox and score it: a leaderboard with the official and the strict rule")
EXIT_CODES = ("exit codes: 0 scored (wrong and failing solutions included), 2 usage or input error (bad options, "
              "no usable gold, a prediction file of another kind, no sandbox without --unsafe-no-isolation)")
PRED_SUFFIXES = (".json", ".jsonl", ".json.gz", ".jsonl.gz")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--gold", required=True, metavar="FILE",
                        help="gold file: FinanceMath/DocMath-Eval/FinanceReasoning records (question_id, "
                             "python_solution, ...) or MathQA-Python items ({id, answer}); JSON list, JSON Lines, "
                             "gzip or -")
    parser.add_argument("--pred", nargs="+", metavar="DIR_OR_FILE",
                        help="prediction files in the official shape, or directories of them (*.json, *.jsonl, "
                             "*.json.gz); the model name is the file name up to its first dot. FinanceReasoning: "
                             "MODEL/evaluation.json or MODEL/inference.json, named by the folder. MathQA-Python: "
                             "one file of {id, code}")
    parser.add_argument("--check-gold", action="store_true",
                        help="FinanceReasoning: run every gold python_solution in the sandbox and judge it against "
                             "its own ground_truth by the official rule (no --pred)")
    parser.add_argument("--dataset", choices=sorted(DATASETS), default=None,
                        help="the dataset (default: detected from the gold records)")
    parser.add_argument("--json", action="store_true", help="print the full result as JSON")
    parser.add_argument("--by-topic", action="store_true", help="per-topic rows under each model (FinanceMath)")
    parser.add_argument("--divergences", action="store_true",
                        help="print the divergence report: official-correct answers strict rejects, by class")
    parser.add_argument("--out", metavar="DIR", default=None,
                        help="write leaderboard.json, items.jsonl, leaderboard.txt and the HTML pages "
                             "(index.html, one page per model) into DIR")
    parser.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                        help="CPU seconds per solution, and the alarm its CPU time plus its time.sleep calls "
                             "may not pass (default 3, the official alarm, or --limit solution_cpu_seconds and "
                             "solution_alarm_seconds; whole CPU seconds in effect)")
    parser.add_argument("--rel-tol", type=float, default=DEFAULT_REL_TOL, metavar="R",
                        help=f"MathQA-Python: relative tolerance (default {DEFAULT_REL_TOL:g}; see docs/mathqa.md)")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                        help="wall-clock backstop per solution (default 30, or --limit solution_wall_seconds; "
                             "MathQA-Python: the whole limit per snippet, default 10)")
    parser.add_argument("--memory-mb", type=int, default=None, metavar="MB",
                        help="address-space limit per solution (default 2048 for FinanceMath/DocMath-Eval, which "
                             "includes the preloaded libraries; 1024 for MathQA-Python)")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help=f"solutions run in parallel (FinanceMath/DocMath-Eval: N light workers and N/2 "
                             f"heavy ones, default 4 per core, {4 * default_jobs()}: a solution's time is mostly "
                             f"its worker's fork and pipe round trip; MathQA-Python: processes, default one per "
                             f"core, {default_jobs()})")
    parser.add_argument("--unsafe-no-isolation", action="store_true",
                        help="DANGEROUS: run the solutions without the OS sandbox when bubblewrap is unavailable "
                             "(only in-process checks and rlimits; model code can then read files, see this "
                             "process and signal it). Only for code you trust")
    add_batch_options(parser)


def prediction_files(entries: list[str]) -> list[str]:
    """The prediction files named: files as given, directories expanded to their prediction files (sorted)."""
    files: list[str] = []
    for entry in entries:
        path = Path(entry)
        if entry != "-" and path.is_dir():
            found = sorted(str(child) for child in path.iterdir()
                           if child.is_file() and child.name.endswith(PRED_SUFFIXES))
            if not found:
                raise OptionError(f"{entry}: no prediction files (*.json, *.jsonl, *.json.gz) in this directory")
            files += found
        elif entry != "-" and not path.exists():
            raise OptionError(f"{entry}: no such file or directory")
        else:
            files.append(entry)
    return files


def _dataset(args: argparse.Namespace, records: list[Record]) -> tuple[Dataset, list[Record]]:
    """The dataset of the gold records (read once: the gold may be standard input)."""
    if args.dataset is not None:
        return DATASETS[args.dataset], records
    for record in records:
        found = detect(record.value) if record.error is None else None
        if found is not None:
            return found, records
    if args.gold != "-":  # the readers' refusal names what the file is and what was wanted
        try:
            read_records(args.gold, PYTHON_SOLUTION_GOLD)
        except InputError as error:
            raise OptionError(str(error)) from None
    raise OptionError(f"{args.gold}: no record in a known shape (FinanceMath/DocMath-Eval: question_id and "
                     "python_solution; MathQA-Python: id and answer); pass --dataset")


class _Tools:
    """What a dataset's own scorer borrows from the command: metadata, a progress line, written files named."""

    def meta(self, args: argparse.Namespace, inputs: Sequence[str]) -> dict[str, Any]:
        return command_meta(args, inputs)

    def progress(self, args: argparse.Namespace) -> Any:
        return progress_for(args, None, "score-python")

    def write_text(self, path: Path, text: str) -> Path:
        return write_text(path, text)


def run(args: argparse.Namespace) -> int:
    if not args.rel_tol >= 0 or (args.timeout is not None and not args.timeout > 0) \
            or (args.jobs is not None and args.jobs <= 0) \
            or (args.memory_mb is not None and args.memory_mb <= 0) \
            or (args.time_limit is not None and not args.time_limit > 0):
        raise OptionError("--rel-tol must be >= 0 and --time-limit, --timeout, --memory-mb, --jobs positive")
    try:
        records = load_records(args.gold)
    except InputError as error:
        raise OptionError(str(error)) from None
    if args.dataset is None:
        for own in solution_commands():  # a dataset with its own scorer (FinanceReasoning)
            if own.is_gold(records):
                try:
                    return int(own.run(args, records, _Tools()))
                except OptionError as error:
                    raise OptionError(str(error)) from None
    if args.check_gold or not args.pred:
        raise OptionError("--check-gold is for datasets with their own gold check (FinanceReasoning); other "
                         "datasets need --pred")
    dataset, gold = _dataset(args, records)
    if dataset is MATHQA_PYTHON:
        return _run_mathqa(args, [Line(record.number, record.value, record.error) for record in gold])
    return _run_pot(args, dataset, gold)


def _run_pot(args: argparse.Namespace, dataset: Dataset, gold: list[Record]) -> int:
    from ..datasets.pysolution.html_page import write_pages
    from ..datasets.pysolution.report import divergence_text, document, table
    from ..datasets.pysolution.scoring import model_name, score_runs
    files = prediction_files(args.pred)
    names = [model_name(path) for path in files]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise OptionError(f"two prediction files name the same model: {', '.join(repeated)}")
    try:
        runs = [(name, load_records(path)) for name, path in zip(names, files)]
    except InputError as error:
        raise OptionError(str(error)) from None
    base = Budget.current()
    cpu = args.time_limit if args.time_limit is not None else base.cpu_seconds
    budget = Budget(cpu_seconds=cpu, wall_seconds=max(args.timeout or base.wall_seconds, cpu + 1),
                    memory_bytes=args.memory_mb * 1024 * 1024 if args.memory_mb else base.memory_bytes,
                    alarm_seconds=args.time_limit if args.time_limit is not None else base.alarm_seconds)
    progress = progress_for(args, None, "score-python")  # counts distinct solutions run (identical code runs once)
    try:
        leaderboard = score_runs(dataset, gold, runs, jobs=args.jobs or 4 * default_jobs(), budget=budget,
                                 unsafe_no_isolation=args.unsafe_no_isolation, progress=progress.update)
    except SetupError as error:
        raise OptionError(str(error)) from None
    except InputError as error:
        raise OptionError(f"{args.gold}: {error}") from None
    finally:
        progress.close()
    if leaderboard.isolation.startswith("none"):
        print(f"score-python: WARNING: model code ran WITHOUT isolation ({leaderboard.isolation})", file=sys.stderr)
    meta = command_meta(args, [args.gold, *files])
    if args.out is not None:
        out = Path(args.out)
        full = document(leaderboard, meta, with_items=False)
        write_text(out / "leaderboard.json", json.dumps(full, ensure_ascii=False, allow_nan=False, indent=1) + "\n")
        write_text(out / "items.jsonl", "".join(
            json.dumps(item.record(with_code=True), ensure_ascii=False, allow_nan=False) + "\n"
            for model in leaderboard.models for item in model.items + model.unknown))
        write_text(out / "leaderboard.txt", table(leaderboard, by_topic=True) + divergence_text(leaderboard))
        try:
            pages = write_pages(leaderboard, out)
        except OSError as error:
            raise OptionError(f"cannot write the pages to {out}: {error.strerror or error}") from None
        for page in pages:
            note_written(page)
    if args.json:
        print(json.dumps(document(leaderboard, meta), ensure_ascii=False, allow_nan=False))
    else:
        sys.stdout.write(table(leaderboard, by_topic=args.by_topic))
        if args.divergences:
            sys.stdout.write(divergence_text(leaderboard))
    return EXIT_OK


def _run_mathqa(args: argparse.Namespace, lines: list[Line]) -> int:
    if len(args.pred) != 1:
        raise OptionError("MathQA-Python takes one prediction file ({id, code})")
    gold = gold_items(lines)
    try:
        predicted = predictions(read_records(Path(args.pred[0]), MATHQA_PYTHON_PREDICTIONS))
    except InputError as error:
        raise OptionError(str(error)) from None
    if not any(item.problem is not ItemKind.BAD_INPUT for item in gold):
        raise OptionError(f"{args.gold}: no usable gold record (each needs an 'id' and a numeric 'answer')")
    try:
        isolation = require_isolation(args.unsafe_no_isolation)
    except SetupError as error:
        raise OptionError(str(error)) from None
    if not isolation.available:
        print(f"score-python: WARNING: running model code WITHOUT isolation ({isolation.reason}); "
              "it can read your files and signal this process", file=sys.stderr)
    base = current()
    limits = base.with_(snippet_wall_seconds=args.timeout or base.snippet_wall_seconds,
                        snippet_memory_bytes=args.memory_mb * 1024 * 1024 if args.memory_mb else base.snippet_memory_bytes)
    progress = progress_for(args, len(gold), "score-python")
    try:
        result = score(gold, predicted, args.rel_tol, limits, args.jobs or default_jobs(),
                       unsafe_no_isolation=args.unsafe_no_isolation,
                       isolation=isolation.describe(), progress=progress.update)
    finally:
        progress.close()
    if args.json:
        body = {key: value for key, value in result.record().items() if key != "format_version"}
        print(dumps(json_document(args, [args.gold, args.pred[0]], body)))
    else:
        print(f"score-python: {result.correct}/{result.n} correct, accuracy {result.accuracy:.4f} "
              f"(rel_tol {result.rel_tol:g}; isolation: {result.isolation})")
        wrong = [item for item in result.items if not item.correct]
        for item in wrong[:20]:
            print(f"  {item.id if item.id is not None else f'line {item.line}'}: {item.reason}")
        if len(wrong) > 20:
            print(f"  ... and {len(wrong) - 20} more (use --json for all)")
        for bad in result.bad_predictions[:20]:
            print(f"  prediction line {bad.line}: {bad.reason}")
    return EXIT_OK
