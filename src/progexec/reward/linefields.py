"""A reward input line read field by field, its ``gold`` kept as JSON text (with the ``fast`` extra).

Every completion of one prompt carries the same gold, so in an RL batch a gold repeats: kept as the
JSON text it was written as (msgspec's ``Raw``), it is a cache key as it stands, and a repeated gold
is neither decoded nor walked to build a key. :func:`line_fields` gives the other fields with the
values :func:`progexec.jsonrecords.decode` would give them, and applies only where that reader takes
msgspec's value for the whole line: each field decodes with msgspec's full decoder, the line holds
nothing that may be a lone surrogate, and it opens too few brackets to reach any decoder's depth
limit. Elsewhere it gives None, and the caller reads the line the standard way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..jsoncodec import fast_decoder
from ..jsonrecords import suspect_unicode

MAX_OPENERS = 200
"""A line opening more brackets (``[`` or ``{``, inside strings too) is left to the standard reader: far below
the depth where a decoder stops (about 1,000), so a field decodes alone exactly when the whole line does."""

_Decoders = tuple[Callable[[str], dict[str, Any]], Callable[[Any], Any]]
_UNSET: Any = object()
_DECODERS: _Decoders | None = _UNSET


def _decoders() -> _Decoders | None:
    """msgspec's decoder of a line as its fields' raw texts and its full decoder, or None without the fast decoder."""
    global _DECODERS
    if _DECODERS is _UNSET:
        if fast_decoder() is None:
            _DECODERS = None
        else:
            import msgspec

            _DECODERS = (msgspec.json.Decoder(dict[str, msgspec.Raw]).decode, msgspec.json.Decoder().decode)
    return _DECODERS


def line_fields(text: str) -> tuple[dict[str, Any], bytes | None] | None:
    """The line's fields but ``gold``, decoded, and the gold's JSON text (None without one); None when the line
    is not read this way (see the module docstring)."""
    decoders = _decoders()
    if decoders is None or text.count("[") + text.count("{") > MAX_OPENERS or suspect_unicode(text):
        return None
    raw_fields, decode = decoders
    try:
        raws = raw_fields(text)
        fields = {name: decode(raw) for name, raw in raws.items() if name != "gold"}
    except Exception:  # not an object, not JSON, or a value msgspec does not read: the standard reader decides
        return None
    gold = raws.get("gold")
    return fields, None if gold is None else bytes(gold)


def decode_gold(text: bytes) -> Any:
    """A gold's JSON text (from :func:`line_fields`) decoded by msgspec's full decoder; raises where it does not read it."""
    decoders = _decoders()
    assert decoders is not None  # a gold text comes from line_fields, which needs the decoders
    return decoders[1](text)
