"""``progexec reward INPUT [--policy P] [--out FILE]``: judge a JSON Lines file of completions.

Each input line ``{"id", "completion", "gold": {...}, "policy"?}`` gives one output line, in
order, with the typed result (see :mod:`progexec.reward.batch`). The input is read by the one
reader path (:mod:`progexec.readers`: a path or ``-``, gzip, BOM, ``max_input_bytes``,
``max_line_chars``, blank lines skipped, a bad line is a ``bad_input`` line with its number) and
refused (exit 2) when it is not reward inputs (JSON Lines or a JSON list). Records are scored in chunks of
``--chunk-size`` on any engine.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator
from itertools import chain
from dataclasses import replace
from functools import partial

from ..inputkinds import JUDGED_RECORDS, REWARD_INPUTS, judge
from ..jsonrecords import Record, input_shape, iter_raw_lines, line_record
from ..parallel import Engine, ParallelOptions, PerItem, chunked, parallel_map
from ..core.errors import InputError, OptionError
from ..reward.batch import LineChunk, score_line_chunk
from ..runner import prepare
from ..textchunks import TextChunk, chunk_records, list_chunks
from ..textsource import open_source
from ..reward.gold import parse_policy
from ..reward.model import Policy
from .common import EXIT_OK, add_batch_options, open_output, progress_for, write_summary
from .parallel_args import add_parallel_arguments, parallel_options
from ..core.plural import plural
from ..core.limits import DEFAULT_LIMITS, current

NAME = "reward"
HELP = "score model completions against gold records (JSON Lines in, one typed reward per line out)"
EXIT_CODES = "exit codes: 0 every line judged (unusable lines as bad_input records), 2 usage or input error"

CHUNK_LINES = DEFAULT_LIMITS.reward_chunk_lines
"""Input lines scored per chunk (the unit a parallel runner would send to a worker)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", help='JSON Lines (or a JSON list) of {"id", "completion", "gold", "policy"?} (.gz too); '
                                      "- for stdin")
    parser.add_argument("--policy", choices=[policy.value for policy in Policy],
                        help="the policy for lines whose line and gold name none (default numeric)")
    parser.add_argument("--out", metavar="FILE", help="write JSON Lines here instead of standard output")
    parser.add_argument("--summary", metavar="FILE",
                        help="also write the run's summary as one JSON document (format_version, meta, counts)")
    parser.add_argument("--quiet", action="store_true", help="no summary on stderr")
    add_batch_options(parser)
    limits = current()
    add_parallel_arguments(parser, chunk_size=None, chunk_help=(  # scale-out: --jobs, --engine, --ray-address
        f"input lines per task (default {limits.reward_chunk_lines}; {limits.reward_ray_chunk_lines} with --engine "
        "ray, where a task costs milliseconds)"))


def chunk_lines(options: ParallelOptions, given: int | None) -> int:
    """Input lines per chunk: ``--chunk-size`` when given, else ``reward_ray_chunk_lines`` on Ray (a task there
    costs milliseconds) and ``reward_chunk_lines`` elsewhere."""
    if given is not None:
        return given
    limits = current()
    return limits.reward_ray_chunk_lines if options.engine is Engine.RAY else limits.reward_chunk_lines


Chunk = LineChunk | TextChunk
"""What a worker is sent: raw lines, or a JSON list's elements as text; never decoded records."""


def read_chunks(path: str, size: int = CHUNK_LINES) -> Iterator[Chunk]:
    """The input in chunks of ``size`` lines, through the one reader path, as the workers get it: JSON Lines as
    raw text (:data:`~progexec.reward.batch.LineChunk`), a JSON list as its elements' text
    (:class:`~progexec.textchunks.TextChunk`); the parent decodes only the first records, to judge the input. A
    refused or unreadable input is a usage error."""
    try:
        opened = open_source(path)
    except InputError as error:
        raise OptionError(str(error)) from None
    try:
        head = opened.peek()
        if input_shape(opened) == "list":  # elements as text, read by the workers (chunk_records)
            yield from list_chunks(opened, size, REWARD_INPUTS)
            return
        lines = iter_raw_lines(opened)
        seen: list[str | None] = []
        window: list[Record] = []
        for text in lines:  # the first records are decoded here too: the input is judged before any output
            seen.append(text)
            record = line_record(text, len(seen))
            if record is not None:
                window.append(record)
                if len(window) >= JUDGED_RECORDS:
                    break
        judge(opened.name, "lines", window, REWARD_INPUTS, head)
        first = 1
        for chunk in chunked(chain(seen, lines), size):
            yield first, [_over_long(first + offset) if text is None else text for offset, text in enumerate(chunk)]
            first += len(chunk)
    except InputError as error:
        raise OptionError(str(error)) from None
    finally:
        opened.close()


def _over_long(number: int) -> Record:
    """The reader's record for line ``number``, over ``max_line_chars`` (skipped, not read)."""
    record = line_record(None, number)
    assert record is not None  # an over-long line is always a record
    return record


def _score_chunk_text(default: Policy | None, chunk: Chunk) -> tuple[str, dict[str, int]]:
    """One chunk (raw lines or a list's elements) to its output text and status counts (one string back per
    chunk)."""
    return score_line_chunk(chunk_records(chunk) if isinstance(chunk, TextChunk) else chunk, default)


def _head(chunk: Chunk | None) -> LineChunk | list[Record]:
    """The first line (or record) of the input: what the workers' warm-up scores."""
    if chunk is None:
        return []
    if isinstance(chunk, tuple):
        return chunk[0], chunk[1][:1]
    return chunk_records(replace(chunk, entries=chunk.entries[:1]))[:1]


def _warm_up(head: LineChunk | list[Record], default: Policy | None) -> None:
    """Score the input's first line once and drop the result: what a scorer loads on its first use (a tenth of a
    second) is then loaded before the workers are forked, once, not by each of them."""
    prepare()
    score_line_chunk(head, default)


def run(args: argparse.Namespace) -> int:
    try:
        default = parse_policy(args.policy) if args.policy else None
    except InputError as error:
        raise OptionError(str(error)) from None
    chunks = read_chunks(args.input, chunk_lines(parallel_options(args), args.chunk_size))
    first = next(chunks, None)  # the input is judged (and refused) before the output is opened
    out = open_output(args.out)
    statuses: Counter[str] = Counter()
    progress = progress_for(args, None, NAME, [args.input])
    options = parallel_options(args)
    try:  # one chunk is one task; a worker sends back one string and its status counts
        warm_up = partial(_warm_up, _head(first), default)
        for text, counts in parallel_map(PerItem(partial(_score_chunk_text, default)), _chained(first, chunks),
                                         replace(options, chunk_size=1), prepare=warm_up):
            out.write(text)
            statuses.update(counts)
            progress.update(sum(statuses.values()))
    finally:
        progress.close()
        if out is not sys.stdout:
            out.close()
    counts = dict(sorted(statuses.items()))
    write_summary(args, [args.input], {"command": NAME, "records": sum(statuses.values()), "statuses": counts})
    if not args.quiet:
        summary = ", ".join(f"{name} {count}" for name, count in counts.items())
        print(f"reward: {plural(sum(statuses.values()), 'line')} ({summary or 'none'})", file=sys.stderr)
    return EXIT_OK


def _chained(first: Chunk | None, rest: Iterator[Chunk]) -> Iterator[Chunk]:
    if first is not None:
        yield first
        yield from rest
