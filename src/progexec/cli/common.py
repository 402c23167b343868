"""Shared CLI pieces: exit codes, JSON output helpers, progress on stderr."""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from ..core.errors import OptionError
from ..core.limits import Limits, current, from_assignments
from .progress import Progress as Progress

EXIT_OK = 0
EXIT_DIVERGENCE = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3


def internal_error(error: BaseException) -> int:
    print(f"progexec: internal error: {type(error).__name__}: {error} (rerun with --debug for a traceback)",
          file=sys.stderr)
    return EXIT_INTERNAL


_WRITTEN: list[str] = []


def note_written(path: str | Path) -> None:
    """Record a file the command wrote: ``main`` names it on stderr when the command ends."""
    _WRITTEN.append(str(path))


def write_text(path: str | Path, text: str) -> Path:
    """Write ``text`` to ``path`` (UTF-8, ``\\n`` line ends, parent folders created) and record it with
    :func:`note_written`; OptionError naming the path when it cannot be written."""
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="\n")
    except OSError as error:
        raise OptionError(f"cannot write {target}: {error.strerror or error}") from None
    note_written(target)
    return target


def take_written() -> list[str]:
    """The files recorded since the last call (and forget them)."""
    paths = list(_WRITTEN)
    _WRITTEN.clear()
    return paths


def open_output(path: str | None) -> TextIO:
    """``--out FILE`` (recorded with :func:`note_written`) or standard output."""
    if path is None or path == "-":
        return sys.stdout
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "w", encoding="utf-8", newline="\n")
    except OSError as error:
        raise OptionError(f"cannot write {path}: {error}") from None
    note_written(path)
    return handle


SUGGESTION_CUTOFF = 0.75
"""How alike a typo and a known name must be (difflib's ratio, leading dashes left out) to be suggested:
``--no-progres`` gets ``--no-progress``, ``--jsn`` gets ``--json``, ``--bogus`` gets nothing."""


def closest(name: str, known: Sequence[str]) -> str | None:
    """The known name closest to a misspelled one, when it is close (else None); options are compared
    without their leading dashes, which would otherwise make any two options look alike."""
    bare = {option.lstrip("-"): option for option in known if option.lstrip("-")}
    match = difflib.get_close_matches(name.lstrip("-"), list(bare), n=1, cutoff=SUGGESTION_CUTOFF)
    return bare[match[0]] if match else None


def suggestion(name: str, known: Sequence[str]) -> str:
    """``"; did you mean X?"`` for a misspelled name close to a known one, or nothing."""
    close = closest(name, known)
    return f"; did you mean {close!r}?" if close else ""


def verdict(text: str, ok: bool) -> None:
    """The final one-line verdict on stderr: green or red on a terminal, plain when piped or NO_COLOR is set."""
    colour = sys.stderr.isatty() and not os.environ.get("NO_COLOR")
    mark = "PASS" if ok else "FAIL"
    if colour:
        print(f"\033[1;{32 if ok else 31}m{mark}\033[0m {text}", file=sys.stderr)
    else:
        print(f"{mark} {text}", file=sys.stderr)


def add_batch_options(parser: argparse.ArgumentParser) -> None:
    """The option every batch command adds: ``--no-progress`` (``--limit`` is on every command, from main)."""
    parser.add_argument("--no-progress", action="store_true", help="no progress line on stderr (it shows only "
                        "on a terminal anyway)")


def add_check_options(parser: argparse.ArgumentParser, chunk: int) -> None:
    """The options check-rounder and check-evaluator share: suite seed, JSON / JUnit output, chunk size, progress."""
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="suite seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    parser.add_argument("--junit", metavar="FILE", help="also write a JUnit XML file")
    parser.add_argument("--chunk", type=int, default=chunk, metavar="N", help=f"cases per chunk (default {chunk})")
    progress = parser.add_mutually_exclusive_group()
    progress.add_argument("--progress", dest="progress", action="store_true", default=None,
                          help="show progress on stderr (default: when stderr is a terminal)")
    progress.add_argument("--no-progress", dest="progress", action="store_false")


def limits_from(args: argparse.Namespace) -> Limits:
    """The Limits of a command's ``--limit`` options (exit 2 with the bound named when one is bad)."""
    try:
        return from_assignments(getattr(args, "limit", None))
    except OptionError as error:
        raise OptionError(str(error)) from None


def progress_for(args: argparse.Namespace, total: int | None, label: str,
                 inputs: Sequence[str | Path] | None = None) -> Progress:
    """A Progress line honouring ``--no-progress``; ``inputs`` (paths, ``-``) give it their size in bytes, or
    the item count of embedded corpus names."""
    enabled = False if getattr(args, "no_progress", False) else None
    if inputs and total is None and all(str(source) in _corpus_names() for source in inputs):
        return Progress(_corpus_size(inputs) if enabled is None else None, label, enabled)
    return Progress(total, label, enabled, inputs=inputs)


def _corpus_names() -> tuple[str, ...]:
    from ..corpus import CORPUS_NAMES

    return CORPUS_NAMES


def _corpus_size(names: Sequence[str | Path]) -> int | None:
    """The number of items of embedded corpora (counted only when a progress line is drawn)."""
    if not sys.stderr.isatty():
        return None
    from ..corpus import corpus_items

    return sum(1 for name in names for _ in corpus_items(str(name)))


OUTPUT_OPTIONS = ("--out", "--items", "--summary", "--junit", "--jobs", "-j", "--engine", "--ray-address",
                  "--chunk-size")
"""Options (with a value) that say where output goes or how the work is spread, never what it gives: left out
of ``meta.arguments``, so that two runs writing elsewhere or on more processes give the same bytes."""
QUIET_FLAGS = ("--no-progress", "--progress", "--quiet", "--debug")
"""Flags that change nothing in a JSON output, left out of ``meta.arguments`` too."""


def reproducible_arguments(argv: Sequence[str] | None) -> list[str] | None:
    """The command line less :data:`OUTPUT_OPTIONS` (and their values) and :data:`QUIET_FLAGS`."""
    if argv is None:
        return None
    kept: list[str] = []
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word in OUTPUT_OPTIONS:
            skip = True
        elif word not in QUIET_FLAGS and not word.startswith(tuple(f"{option}=" for option in OUTPUT_OPTIONS)):
            kept.append(word)
    return kept


def command_meta(args: argparse.Namespace, inputs: Sequence[str]) -> dict[str, Any]:
    """The ``meta`` of a command's JSON output: progexec, Python, the arguments (less where the output goes),
    each input's SHA-256, the limits."""
    from ..meta import run_meta

    return run_meta(list(inputs), reproducible_arguments(getattr(args, "argv", None)), current())


def json_document(args: argparse.Namespace, inputs: Sequence[str], body: dict[str, Any]) -> dict[str, Any]:
    """A command's JSON document: ``format_version``, ``meta``, then ``body``."""
    from ..records import document

    return document(body, command_meta(args, inputs))


def write_summary(args: argparse.Namespace, inputs: Sequence[str], body: dict[str, Any]) -> None:
    """``--summary FILE``: the run's summary as one JSON document (the JSON Lines output stays one record per item)."""
    path = getattr(args, "summary", None)
    if not path:
        return
    from ..records import dumps

    out = open_output(path)
    try:
        out.write(dumps(json_document(args, inputs, body)) + "\n")
    finally:
        if out is not sys.stdout:
            out.close()
