"""Bytes to text, once, bounded: the first step of every command's input path.

A source is a path, ``-`` (standard input) or bytes already in memory (a request body). gzip is
recognised by its magic bytes (so ``.gz`` works from a pipe too); other compressions are refused
by name. A UTF-8 byte-order mark is dropped; bytes that are not UTF-8 are kept as lone surrogates
(only the records holding them are refused). Decompression is bounded twice: by ``max_input_bytes``
in all, and by ``max_gzip_ratio`` (text bytes per compressed byte) once past
``gzip_ratio_after_bytes``, so a few MB of gzip cannot become minutes of work.
"""

from __future__ import annotations

import gzip
import io
import sys
from pathlib import Path
from typing import IO, Any, cast

from .core.errors import InputError
from .core.limits import Limits, current, DEFAULT_LIMITS
from . import inputmeter
from .core.plural import plural

CHUNK_CHARS = DEFAULT_LIMITS.read_chunk_chars
"""Characters read at a time from a stream."""

_OTHER_COMPRESSIONS = ((b"BZh", "bzip2"), (b"\xfd7zXZ\x00", "xz"), (b"\x28\xb5\x2f\xfd", "zstd"),
                       (b"PK\x03\x04", "zip"), (b"\x04\x22\x4d\x18", "lz4"))


class _CompressedCounter(io.RawIOBase):
    """The compressed side of a gzip input: counts the bytes the decompressor has taken."""

    def __init__(self, inner: IO[bytes]) -> None:
        self.inner, self.count = inner, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.inner.read(len(buffer))
        self.count += len(data)
        buffer[:len(data)] = data
        return len(data)


class _BoundedReader(io.RawIOBase):
    """The decompressed side: refuses more than ``max_input_bytes`` in all, and a gzip expansion over
    ``max_gzip_ratio`` once past ``gzip_ratio_after_bytes``."""

    def __init__(self, inner: IO[bytes], limits: Limits, name: str,
                 compressed: _CompressedCounter | None) -> None:
        self.inner, self.limits, self.name, self.compressed, self.count = inner, limits, name, compressed, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.inner.read(len(buffer))
        self.count += len(data)
        if self.count > self.limits.max_input_bytes:
            raise InputError(f"{self.name}: more than {plural(self.limits.max_input_bytes, 'byte')} after "
                             f"decompression "
                             "(max_input_bytes); refused (a compressed file that expands without bound?)",
                             source=self.name, bound="max_input_bytes")
        if self.compressed is not None and self.count > self.limits.gzip_ratio_after_bytes \
                and self.count > self.limits.max_gzip_ratio * max(self.compressed.count, 1):
            raise InputError(f"{self.name}: gzip data expanding more than {plural(self.limits.max_gzip_ratio, 'time')} "
                             f"({plural(self.count, 'byte')} from {self.compressed.count}; max_gzip_ratio); refused "
                             "as a decompression bomb", source=self.name, bound="max_gzip_ratio")
        buffer[:len(data)] = data
        return len(data)


class TextSource:
    """Decoded text of one input, read forward once, with a look-ahead for format detection."""

    def __init__(self, binary: IO[bytes], name: str, limits: Limits) -> None:
        self.name = name
        head = binary.peek(8)[:8] if hasattr(binary, "peek") else b""
        for magic, kind in _OTHER_COMPRESSIONS:
            if head.startswith(magic):
                if binary is not sys.stdin.buffer:
                    binary.close()
                raise InputError(f"{name}: {kind}-compressed data; progexec reads plain or gzip-compressed "
                                 "JSON / JSON Lines", source=name, seen=f"{kind}-compressed data")
        raw: IO[bytes] = binary
        compressed: _CompressedCounter | None = None
        self.compressed = head[:2] == b"\x1f\x8b"
        if self.compressed:
            compressed = _CompressedCounter(binary)
            raw = cast(IO[bytes], gzip.GzipFile(fileobj=io.BufferedReader(compressed), mode="rb"))
        counted = io.BufferedReader(_BoundedReader(raw, limits, name, compressed))
        self._stream = io.TextIOWrapper(counted, encoding="utf-8-sig", errors="surrogateescape", newline="\n")
        self._closers: list[IO[Any]] = [self._stream, binary]
        self._buffer = ""

    def peek(self, size: int = 65536) -> str:
        """Up to ``size`` characters from the current position, without consuming them."""
        while len(self._buffer) < size:
            chunk = self._read_raw(size)
            if not chunk:
                break
            self._buffer += chunk
        return self._buffer[:size]

    def read(self, size: int = CHUNK_CHARS) -> str:
        """Up to ``size`` characters ('' at the end)."""
        if self._buffer:
            taken, self._buffer = self._buffer[:size], self._buffer[size:]
            return taken
        return self._read_raw(size)

    def readline(self, limit: int) -> str:
        """One line with its ``\\n`` (split on ``\\n`` only); at most ``limit + 1`` characters."""
        if self._buffer:
            cut = self._buffer.find("\n", 0, limit + 1)
            end = cut + 1 if cut >= 0 else min(len(self._buffer), limit + 1)
            if cut >= 0 or end > limit:
                taken, self._buffer = self._buffer[:end], self._buffer[end:]
                return taken
            taken, self._buffer = self._buffer, ""
            return taken + self.readline(limit - len(taken)) if limit > len(taken) else taken
        try:
            return self._stream.readline(limit + 1)
        except (OSError, EOFError, gzip.BadGzipFile) as error:
            raise InputError(f"{self.name}: cannot be read ({error})") from None

    def _read_raw(self, size: int) -> str:
        try:
            return self._stream.read(size)
        except (OSError, EOFError, gzip.BadGzipFile) as error:
            raise InputError(f"{self.name}: cannot be read ({error})") from None

    def close(self) -> None:
        for handle in self._closers:
            if hasattr(handle, "raw"):
                inputmeter.closed(handle.raw)
            if handle is not sys.stdin.buffer:
                try:
                    handle.close()
                except OSError:
                    pass


def open_source(source: str | Path, limits: Limits | None = None) -> TextSource:
    """Open a path or ``-`` (standard input) as a :class:`TextSource`."""
    chosen = limits or current()
    if str(source) == "-":
        return TextSource(sys.stdin.buffer, "<stdin>", chosen)
    path = Path(source)
    try:
        binary = open(path, "rb")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file", source=str(path), seen="no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a file", source=str(path), seen="a directory") from None
    except OSError as error:
        raise InputError(f"{path}: cannot be read ({error.strerror})", source=str(path)) from None
    inputmeter.opened(binary.raw)  # a progress line shows the bytes read of the file's size
    return TextSource(binary, str(path), chosen)


def source_from_bytes(data: bytes, name: str = "<bytes>", limits: Limits | None = None) -> TextSource:
    """Bytes already in memory (a request body, a test's input) as a :class:`TextSource`: the same
    gzip, BOM, Unicode and size rules as a file."""
    return TextSource(io.BufferedReader(io.BytesIO(data)), name, limits or current())


def source_from_text(text: str, name: str = "<text>", limits: Limits | None = None) -> TextSource:
    """Text already decoded (lone surrogates kept, so the records holding them are refused as usual)."""
    return source_from_bytes(text.encode("utf-8", "surrogatepass"), name, limits)


__all__ = ["CHUNK_CHARS", "InputError", "TextSource", "open_source", "source_from_bytes", "source_from_text"]
