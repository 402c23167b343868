"""The ``--jobs``, ``--engine``, ``--ray-address`` and ``--chunk-size`` flags every batch command shares."""

from __future__ import annotations

import argparse

from ..parallel import DEFAULT_CHUNK_SIZE, Engine, ParallelOptions
from ..core.errors import OptionError


def add_parallel_arguments(parser: argparse.ArgumentParser, chunk_size: int | None = DEFAULT_CHUNK_SIZE,
                           chunk_help: str | None = None) -> None:
    """Add the scale-out flags to a batch command's parser (``chunk_size`` None: the command picks the size by
    engine, and ``chunk_help`` says how)."""
    group = parser.add_argument_group("scale-out (results are identical to a serial run, in input order)")
    group.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                       help="worker processes (default 1; with --engine ray, the CPUs of a local cluster)")
    group.add_argument("--engine", choices=[engine.value for engine in Engine], default=None,
                       help="serial, process (local worker processes) or ray (default: process when --jobs > 1)")
    group.add_argument("--ray-address", metavar="ADDRESS", default=None,
                       help="join this Ray cluster (implies --engine ray); without it, ray starts a local one")
    group.add_argument("--chunk-size", type=int, default=chunk_size, metavar="N",
                       help=chunk_help or f"items per task (default {chunk_size})")


def parallel_options(args: argparse.Namespace) -> ParallelOptions:
    """The options the flags mean; a bad combination is a usage error."""
    try:
        return ParallelOptions.resolve(args.engine, args.jobs, args.ray_address, args.chunk_size)
    except OptionError as error:
        raise OptionError(str(error)) from None
