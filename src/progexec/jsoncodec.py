"""JSON decoding for the readers: the standard library's, or msgspec's (the ``fast`` extra) where it gives the same value.

With the ``fast`` extra installed (``pip install 'progexec[fast]'``), :func:`loads` and the list
decoder of :func:`raw_decoder` try msgspec's C decoder first and take its value only when it
succeeds; on any failure the standard library decodes the text, so every error, every message and
every value the standard library accepts and msgspec does not (``NaN``, ``1e400`` read as
infinity, an escaped lone surrogate such as ``"\\ud800"``) stays exactly what it was. Where msgspec
succeeds, its value equals the standard library's (strict JSON, correctly rounded floats, integers
of any size; tests/test_jsoncodec.py checks it on the corpora and on generated text). Without the
extra, or with ``PROGEXEC_JSON=stdlib`` in the environment, only the standard library runs.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any
from .core.limits import DEFAULT_LIMITS, current

Decoder = Callable[[str], Any]

_MAX_TRIES = DEFAULT_LIMITS.json_element_tries
"""Candidate element ends tried per list element before the standard library decides."""


def _fast_decoder() -> Decoder | None:
    if os.environ.get("PROGEXEC_JSON", "").strip().lower() == "stdlib":
        return None
    try:
        import msgspec
    except ImportError:
        return None
    decode: Decoder = msgspec.json.Decoder().decode
    return decode


_UNSET: Any = object()
FAST: Decoder | None = _UNSET
"""msgspec's decoder when the ``fast`` extra is installed (and not switched off), else None; looked up on the
first decode, not at import (importing msgspec costs more CPU than the rest of ``progexec exec``'s start-up)."""


def fast_decoder() -> Decoder | None:
    """:data:`FAST`, looked up once."""
    global FAST
    if FAST is _UNSET:
        FAST = _fast_decoder()
    return FAST


def loads(text: str) -> Any:
    """``json.loads(text)``: the same value, or the same exception."""
    fast = fast_decoder()
    if fast is not None:
        try:
            return fast(text)
        except Exception:  # anything msgspec refuses: the standard library decides, with its own error
            pass
    return json.loads(text)


_UNSET_SPLITTER: Any = object()
_SPLITTER: Callable[[str], list[Any]] | None = _UNSET_SPLITTER


def list_splitter() -> Callable[[str], list[Any]] | None:
    """msgspec's check of a JSON list that builds no element: the list's elements as raw byte strings (their
    ``len`` is their size in bytes), or an exception where the text is not one strict JSON list; None without
    the fast decoder. What a parallel run uses to cut a JSON list into runs of whole elements cheaply."""
    global _SPLITTER
    if _SPLITTER is _UNSET_SPLITTER:
        _SPLITTER = None
        if fast_decoder() is not None:
            import msgspec

            _SPLITTER = msgspec.json.Decoder(list[msgspec.Raw]).decode
    return _SPLITTER


def raw_decoder() -> Callable[[str, int], tuple[Any, int]]:
    """A function like ``json.JSONDecoder().raw_decode``: the value starting at a position and where it ends.

    With the fast decoder, an object element of a list is cut where the next element with the same
    first key begins (``}, {"pre_text":`` in a FinQA file): if msgspec decodes exactly that slice, the
    slice is one complete JSON value, so it ends where the standard library's scan would end it.
    """
    standard = json.JSONDecoder().raw_decode

    def raw_decode(text: str, position: int) -> tuple[Any, int]:
        fast = fast_decoder()
        if fast is not None and text.startswith('{"', position):
            key_end = text.find('"', position + 2, position + 256)
            if key_end > 0:
                head = text[position:key_end + 1]
                start = position + len(head)
                for _ in range(current().json_element_tries):
                    following = text.find(head, start)
                    if following < 0:
                        break
                    end = text.rfind("}", position, following) + 1
                    between = text[end:following]
                    if end > position and between.strip(" \t\r\n") == ",":
                        try:
                            return fast(text[position:end]), end
                        except Exception:  # not one complete value: the head was inside this element
                            pass
                    start = following + 1
        return standard(text, position)

    return raw_decode


__all__ = ["FAST", "fast_decoder", "list_splitter", "loads", "raw_decoder"]
