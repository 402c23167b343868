"""``progexec reward INPUT [--policy P] [--out FILE]``: judge a JSON Lines file of completions.

Each input line ``{"id", "completion", "gold": {...}, "policy"?}`` gives one output line, in
order, with the typed result (see :mod:`progexec.reward.batch`); a bad line is a ``bad_input``
line with its number. The file is read in chunks of :data:`CHUNK_LINES` lines.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from functools import partial
from pathlib import Path

from ..parallel import PerItem, parallel_map
from ..reward.batch import score_chunk
from ..reward.gold import GoldRecordError, parse_policy
from ..reward.model import Policy
from .common import EXIT_OK, UsageError, open_output
from .parallel_args import add_parallel_arguments, parallel_options

NAME = "reward"
HELP = "score model completions against gold records (JSON Lines in, one typed reward per line out)"

CHUNK_LINES = 1000
"""Input lines scored per chunk (the unit a parallel runner would send to a worker)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", help='a JSON Lines file of {"id", "completion", "gold", "policy"?}; - for stdin')
    parser.add_argument("--policy", choices=[policy.value for policy in Policy],
                        help="the policy for lines whose line and gold name none (default numeric)")
    parser.add_argument("--out", metavar="FILE", help="write JSON Lines here instead of standard output")
    parser.add_argument("--quiet", action="store_true", help="no summary on stderr")
    add_parallel_arguments(parser, chunk_size=CHUNK_LINES)  # scale-out: --jobs, --engine, --ray-address


def read_chunks(path: str, size: int = CHUNK_LINES) -> Iterator[tuple[int, list[bytes]]]:
    """(first line number, raw lines without their newline) chunks of a file; decoding is per line, later."""
    try:
        handle = sys.stdin.buffer if path == "-" else Path(path).open("rb")
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        chunk: list[bytes] = []
        first = 1
        for number, raw in enumerate(handle, start=1):
            chunk.append(raw[:-1] if raw.endswith(b"\n") else raw)
            if len(chunk) >= size:
                yield first, chunk
                first, chunk = number + 1, []
        if chunk:
            yield first, chunk
    finally:
        if handle is not sys.stdin.buffer:
            handle.close()


def _score_chunk(default: Policy | None, chunk: tuple[int, list[bytes]]) -> tuple[str, dict[str, int]]:
    """One read chunk to its output text and status counts (module level, so worker processes can
    unpickle it; one string back per chunk, so nothing is pickled per line)."""
    first, lines = chunk
    return score_chunk(lines, first, default)


def run(args: argparse.Namespace) -> int:
    try:
        default = parse_policy(args.policy) if args.policy else None
    except GoldRecordError as error:
        raise UsageError(str(error)) from None
    options = parallel_options(args)
    chunks = read_chunks(args.input, options.chunk_size)
    out = open_output(args.out)
    statuses: Counter[str] = Counter()
    try:  # one read chunk is one task: --chunk-size lines each, scored by the same function on any engine
        for text, counts in parallel_map(PerItem(partial(_score_chunk, default)), chunks,
                                         replace(options, chunk_size=1)):
            out.write(text)
            statuses.update(counts)
    finally:
        if out is not sys.stdout:
            out.close()
    if not args.quiet:
        summary = ", ".join(f"{name} {count}" for name, count in sorted(statuses.items()))
        print(f"reward: {sum(statuses.values())} lines ({summary or 'none'})", file=sys.stderr)
    return EXIT_OK
