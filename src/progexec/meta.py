"""Run metadata for every JSON output: what made it (progexec, Python), from what (each input's SHA-256)
and under which limits (those that differ from the version's defaults) — nothing that differs between two identical runs (no time, host or path of the
output)."""

from __future__ import annotations

import hashlib
import platform
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from .core.limits import Limits, current
from .core.registry import corpus_file



def input_digest(source: str) -> dict[str, Any]:
    """``{"name", "sha256"}`` of one input: a file's bytes, an embedded corpus's package data, or
    ``"sha256": null`` for standard input (read once, as a stream)."""
    corpus, _, split = source.partition(":")
    if source == "-":
        return {"name": "-", "sha256": None}
    pattern = corpus_file(corpus)
    if pattern is not None and not Path(source).exists():
        resource = resources.files("progexec.data").joinpath(pattern.format(split=split or "test"))
        return {"name": source, "sha256": hashlib.sha256(resource.read_bytes()).hexdigest()}
    digest = hashlib.sha256()
    try:
        with open(source, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return {"name": source, "sha256": None}
    return {"name": source, "sha256": digest.hexdigest()}


def run_meta(inputs: Sequence[str], arguments: Sequence[str] | None = None,
             limits: Limits | None = None) -> dict[str, Any]:
    """The ``meta`` object of a JSON output."""
    from .core.version import __version__

    record: dict[str, Any] = {
        "progexec": __version__,
        "python": ".".join(platform.python_version_tuple()[:2]),
        "inputs": [input_digest(source) for source in inputs],
        "limits": (limits or current()).changed(),
    }
    if arguments is not None:
        record["arguments"] = list(arguments)
    return record


__all__ = ["input_digest", "run_meta"]
