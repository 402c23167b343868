"""Text to records: JSON Lines, JSON lists and whole documents, losing nothing.

Every unusable record (not JSON, a 5,000-digit integer, nesting 100,000 deep, over
``max_line_chars``, invalid Unicode) is a :class:`Record` with an ``error`` and its place
(``line 3`` / ``item 3``); reading goes on after it:

* JSON Lines are split on ``\\n`` only (U+2028 may sit raw inside a JSON string); blank lines are
  not records; a line over ``max_line_chars`` is skipped chunk by chunk, never held whole.
* A JSON list is decoded one element at a time. A bad element is one error record, and reading
  resynchronises and goes on with the next element: on the line's end when the list has one element per
  line; else on the next ``,`` then ``{`` at bracket depth 0 whose object decodes, or the end
  :class:`ElementScanner` finds (brackets matched tolerantly, a raw newline ends a broken string),
  whichever comes first, so one stray quote cannot absorb the next element. An unreadable stretch is one
  error record per element it holds, told by its separators, each with the count. An element over
  ``max_line_chars`` is skipped without holding it.
* A document read whole (one JSON object over several lines) is bounded by ``max_line_chars``,
  like the one record it is.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, cast

from .jsoncodec import fast_decoder, list_splitter, loads, raw_decoder
from .core.limits import Limits, current, DEFAULT_LIMITS
from .textsource import CHUNK_CHARS, TextSource, source_from_text
from .core.errors import InputError
from .core.plural import plural


@dataclass(frozen=True, slots=True)
class Record:
    """One decoded JSON value with where it came from (``line 3`` / ``item 3``), or why it could not be."""

    number: int
    where: str
    value: Any = None
    error: str | None = None
    text: str | None = field(default=None, compare=False, repr=False)
    """The element's JSON text as read, kept only when asked (:func:`iter_json_list`'s ``texts``)."""


_SUSPECT_UNICODE = re.compile(r"\\[uU][dD][89a-fA-F]|[\ud800-\udfff]")
_ESCAPED_SURROGATE = re.compile(r"\\[uU][dD][89a-fA-F]")
_RAW_SURROGATE = re.compile("[\ud800-\udfff]")


def suspect_unicode(text: str) -> bool:
    """``_SUSPECT_UNICODE.search(text)`` in two C scans instead of a regex alternation tried at every
    character: an escaped surrogate needs a backslash, a raw one a character that is not ASCII."""
    if "\\" in text and _ESCAPED_SURROGATE.search(text):
        return True
    return not text.isascii() and _RAW_SURROGATE.search(text) is not None
_NOT_UTF8 = re.compile("[\udc80-\udcff]")

INVALID_UNICODE_ERROR = ("holds text that is not valid Unicode (a lone surrogate such as \\ud800, "
                         "or bytes that are not UTF-8)")


def holds_invalid_unicode(value: Any) -> bool:
    """True when ``value`` holds a string that is not valid Unicode text (a lone surrogate such as
    JSON's ``"\\ud800"``): it could not be written to any UTF-8 output, so the record is refused whole."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    except (TypeError, ValueError, RecursionError):
        return False
    return False


def decode(text: str, number: int, where: str) -> Record:
    """One JSON text as a Record; every way it can fail is the Record's error, never an exception."""
    try:
        value = loads(text)  # the fast extra's decoder where it gives json.loads's value, else json.loads
    except RecursionError:
        return Record(number, where, error=f"{where} is nested too deeply to read")
    except json.JSONDecodeError as error:
        if _NOT_UTF8.search(text):
            return Record(number, where, error=f"{where} holds bytes that are not UTF-8 and is not JSON")
        return Record(number, where, error=f"{where} is not JSON ({error.msg} at column {error.colno})")
    except ValueError as error:  # e.g. an integer of more than 4,300 digits
        return Record(number, where, error=f"{where} cannot be read: {error}")
    if suspect_unicode(text) and holds_invalid_unicode(value):
        return Record(number, where, error=f"{where} {INVALID_UNICODE_ERROR}")
    return Record(number, where, value)


# ---------------------------------------------------------------- JSON Lines

def iter_raw_lines(source: TextSource, limits: Limits | None = None) -> Iterator[str | None]:
    """Every line's text, undecoded, in order (without its ``\n`` or ``\r\n``; blank lines too, so the n-th
    item is line n); None for a line over ``max_line_chars``, which is skipped, not read whole."""
    bound = (limits or current()).max_line_chars
    while True:
        line = source.readline(bound)
        if not line:
            return
        if len(line) > bound and not line.endswith("\n"):
            while line and not line.endswith("\n"):  # skip the rest of the over-long line, chunk by chunk
                line = source.readline(CHUNK_CHARS)
            yield None
            continue
        yield line.removesuffix("\n").removesuffix("\r")


def line_record(text: str | None, number: int, limits: Limits | None = None) -> Record | None:
    """Line ``number`` of :func:`iter_raw_lines` as its Record; None for a blank line (not a record)."""
    where = f"line {number}"
    if text is None:
        bound = (limits or current()).max_line_chars
        return Record(number, where, error=f"{where} is over {plural(bound, 'character')} (max_line_chars)")
    return decode(text, number, where) if text.strip() else None


def iter_json_lines(source: TextSource, limits: Limits | None = None) -> Iterator[Record]:
    """One Record per non-blank line, in order; a line over ``max_line_chars`` is refused, not read whole."""
    for number, text in enumerate(iter_raw_lines(source, limits), start=1):
        record = line_record(text, number, limits)
        if record is not None:
            yield record


# ---------------------------------------------------------------- JSON lists

_OUTSIDE = re.compile(r'["\[\]{},]')
_INSIDE = re.compile(r'["\\\n]')
_NEXT_OPENS = re.compile(r"[ \t\r\n]*\{")
_STACK_CAP = DEFAULT_LIMITS.max_json_stack
_SPACE = re.compile(r"[ \t\r\n]*")


class ElementScanner:
    """Finds where one element of a JSON list ends (the ``,`` or ``]`` after it), fed text chunk by chunk.

    Tolerant by design, to resynchronise after a broken element: a closer that does not match the
    innermost opener closes back to the nearest one it matches (``{"x":[}`` is one element), a ``]``
    with no ``[`` open closes the list, a stray ``}`` is ignored, a raw newline ends a string (JSON
    strings never hold one), and a comma followed by ``{`` directly inside the element's own object
    (where a key must come) ends an element that was never closed. Memory is bounded: past ``_STACK_CAP`` openers only a count is kept.
    """

    def __init__(self) -> None:
        self.stack: list[str] = []
        self.open = {"[": 0, "{": 0}
        self.uncounted = 0
        self.in_string = False
        self.escape = False

    def feed(self, text: str, start: int, stop: int | None = None) -> int | None:
        """The index in ``text`` where the element ends, or None when it goes on past ``text`` (past ``stop``)."""
        index, size = start, len(text) if stop is None else stop
        while index < size:
            if self.in_string:
                if self.escape:
                    self.escape, index = False, index + 1
                    continue
                match = _INSIDE.search(text, index, size)
                if match is None:
                    return None
                index = match.end()
                if match.group() == "\\":
                    self.escape = True
                else:
                    self.in_string = False
                continue
            match = _OUTSIDE.search(text, index, size)
            if match is None:
                return None
            token, index = match.group(), match.end()
            if token == '"':
                self.in_string = True
            elif token in "[{":
                self._push(token)
            elif token in "]}":
                if self._close("[" if token == "]" else "{") is False and token == "]":
                    return match.start()
            elif not self.uncounted and (not self.stack or (self.stack == ["{"] and _NEXT_OPENS.match(text, index))):
                return match.start()  # the separator; or, inside the element's own object, a comma followed
                # by an object where a key must come: the element was never closed and the next one starts
        return None

    def _push(self, opener: str) -> None:
        if len(self.stack) >= current().max_json_stack:
            self.uncounted += 1
            return
        self.stack.append(opener)
        self.open[opener] += 1

    def _close(self, opener: str) -> bool:
        """Close back to the nearest ``opener``; False when none is open."""
        if self.uncounted:
            self.uncounted -= 1
            return True
        if not self.open[opener]:
            return False
        while True:
            top = self.stack.pop()
            self.open[top] -= 1
            if top == opener:
                return True


class _ListText:
    """The unread text of a JSON list, refilled from its source as elements are taken."""

    def __init__(self, source: TextSource) -> None:
        self.source, self.text, self.position, self.at_end = source, "", 0, False
        self.base = 0  # how many characters of the list were dropped before ``text``: absolute = base + index
        self.before = "\n"  # the last character dropped that may not stand between elements ("\n": none yet)
        self.searched: tuple[int, int | None] = (-1, None)  # (where the last search for a readable element
        # stopped, where it found one or None), as absolute offsets: later broken elements reuse it

    def more(self) -> bool:
        chunk = self.source.read(max(CHUNK_CHARS, len(self.text) - self.position))
        if self.position:
            self.before = self.text[:self.position].rstrip(" \t\r[,")[-1:] or self.before
        self.base += self.position
        self.text, self.position = self.text[self.position:] + chunk, 0
        self.at_end = not chunk
        return bool(chunk)

    def skip_space(self) -> str:
        """Skip whitespace; the next character ('' at the end)."""
        while True:
            self.position = _SPACE.match(self.text, self.position).end()  # type: ignore[union-attr]
            if self.position < len(self.text) or not self.more():
                return self.text[self.position:self.position + 1]


_RAW_DECODE = raw_decoder()  # json.JSONDecoder().raw_decode, or the fast extra's where it gives the same value


def _element(reader: _ListText, number: int, bound: int, texts: bool = False) -> list[Record]:
    """The element starting at the reader's position, and the reader moved past it: one Record (carrying its
    text with ``texts``), or one per element of an unreadable stretch (see :func:`_resync`)."""
    where = f"item {number}"
    while True:
        error: str | None = None
        try:
            value, end = _RAW_DECODE(reader.text, reader.position)
        except RecursionError:
            error = f"{where} is nested too deeply to read"
        except json.JSONDecodeError as failure:
            error = f"{where} is not JSON ({failure.msg})"
        except ValueError as failure:  # an integer of more than 4,300 digits
            error = f"{where} cannot be read: {failure}"
        else:
            if end < len(reader.text) or reader.at_end:
                text = reader.text[reader.position:end]
                reader.position = end
                if len(text) > bound:
                    return [Record(number, where, error=f"{where} is over {plural(bound, 'character')} (max_line_chars)")]
                if suspect_unicode(text) and holds_invalid_unicode(value):
                    return [Record(number, where, error=f"{where} {INVALID_UNICODE_ERROR}")]
                return [Record(number, where, value, text=text if texts else None)]
        if error is not None:
            found = _resync(reader, bound)
            if found is not None:
                start, reader.position = reader.position, found
                return _unreadable(number, _elements_in(reader.text, start, found), error, tail=False)
            if reader.at_end:
                return _unreadable_rest(reader, number, error)
        if len(reader.text) - reader.position > bound:
            return [_skip(reader, number, where, bound)]
        if not reader.more() and error is None:
            reader.position = len(reader.text)
            return [Record(number, where, error=f"{where} is incomplete; the file ends inside it")]


def _line_end(text: str, start: int, complete: bool, dropped: str) -> int | None:
    """Where a broken element ends when the list has one element per line: the element starts its line
    (after ``[``, ``,`` or spaces; ``dropped`` is the last other character before ``text``) and the next line
    starts another element, ``,`` or ``]``. The end is the line's trailing comma (or its newline); None when
    the list is not laid out so (or more text is needed)."""
    before = start
    while before > 0 and text[before - 1] in " \t\r[,":  # only what may stand between elements, back to the line
        before -= 1
    if (text[before - 1] if before > 0 else dropped) != "\n":
        return None
    newline = text.find("\n", start)
    if newline < 0:
        return None
    following = _SPACE.match(text, newline).end()  # type: ignore[union-attr]
    if following == len(text) and not complete:
        return None
    if following < len(text) and text[following] not in "{],":
        return None
    line = text[start:newline].rstrip(" \t\r")
    return start + len(line) - 1 if line.endswith(",") else newline


_CANDIDATE_OR_BRACKET = re.compile(r",[ \t\r\n]*\{|[\[\]{}]")


def _candidates(text: str, start: int, end: int) -> Iterator[re.Match[str]]:
    """Every ``,`` then ``{`` in ``text[start:end]`` where one of the list's own elements may start: where
    every bracket still open is the ``{`` of an element (of the one at ``start``, or of an earlier
    candidate: a record never closed). Brackets are counted without telling strings apart (a stray quote
    makes that impossible) and matched tolerantly, as :class:`ElementScanner` matches them: a closer closes
    back to the nearest opener it matches, one with none open is ignored (so ``{"x":[}`` is closed), and an
    object inside a list inside an element (``"rows": [{...}, {...}]``) is never a candidate."""
    stack: list[str] = []  # "[", "{", or "E": the "{" of an element
    open_count = {"[": 0, "{": 0}
    nested = 0  # open brackets that are not an element's "{"
    for match in _CANDIDATE_OR_BRACKET.finditer(text, start, end):
        token = match.group()
        if token[0] == "," or (token == "{" and match.start() == start):
            if not nested:
                if token[0] == ",":
                    yield match
                stack.append("E")
                open_count["{"] += 1
                continue
            token = "{"
        if token in "[{":
            stack.append(token)
            open_count[token] += 1
            nested += 1
            continue
        opener = "[" if token == "]" else "{"
        if open_count[opener]:
            while True:
                top = stack.pop()
                open_count["{" if top == "E" else top] -= 1
                nested -= top != "E"
                if top == opener or (top == "E" and opener == "{"):
                    break


def _next_element(text: str, start: int, end: int, complete: bool) -> tuple[int | None, int]:
    """The first separator in ``text[start:end]`` after which an element decodes where the list's own
    elements start: a ``,`` then ``{`` at bracket depth 0 from ``start`` (:func:`_candidates`), whose object
    decodes and is followed by ``,`` or ``]``.
    Found by the ``{`` rather than by string state, so one stray quote cannot absorb the next element.
    Also where the search stopped: ``end``, the separator found, or one whose object runs past the text read
    so far (more text decides it)."""
    for match in _candidates(text, start, end):
        opener = match.end() - 1
        try:
            _, after = _RAW_DECODE(text, opener)
        except json.JSONDecodeError as failure:
            if not complete and (failure.pos >= len(text) - 1 or failure.msg.startswith("Unterminated string")):
                return None, match.start()  # it runs past the text read so far: more text decides
            continue
        except (RecursionError, ValueError):
            continue
        following = _SPACE.match(text, after).end()  # type: ignore[union-attr]
        if following < len(text) and text[following] in ",]":
            return match.start(), match.start()
        if following == len(text) and not complete:
            return None, match.start()
    return None, end


def _readable_after(reader: _ListText, start: int, bound: int) -> int | None:
    """:func:`_next_element` from ``start`` within ``bound``, reusing the reader's last search: a broken element
    before the readable one an earlier search found ends there too, and a search goes on where the last one
    stopped, so a run of broken elements is searched once (linear work)."""
    text, complete, base = reader.text, reader.at_end, reader.base
    end = min(len(text), start + bound + 1)
    stopped, found = reader.searched
    if found is not None and base + start < found <= base + len(text):
        return found - base
    begin = stopped - base if found is None and base + start < stopped <= base + end else start
    position, searched_to = _next_element(text, begin, end, complete)
    reader.searched = (base + searched_to, None if position is None else base + position)
    return position


def _resync(reader: _ListText, bound: int) -> int | None:
    """Where the broken element at the reader's position ends (the ``,`` or ``]`` after it), or None while
    more text is needed (or no element after it can be read). One element per line: its line. Otherwise the
    end :class:`ElementScanner` finds by matching brackets, if it comes before the next element that decodes
    (:func:`_readable_after`), else that element's separator."""
    text, start, complete = reader.text, reader.position, reader.at_end
    by_line = _line_end(text, start, complete, reader.before)
    if by_line is not None and by_line - start <= bound:
        return by_line
    found = _readable_after(reader, start, bound)
    if found is None and not complete and len(text) - start <= bound:
        return None  # no readable element in the text read so far: more text decides
    scanned = ElementScanner().feed(text, start, found)
    if scanned is None or scanned - start > bound:
        return found
    if found is None and complete:  # brackets end it, but is any element after it readable? (searched once)
        after, _ = _next_element(text, scanned, len(text), True)
        if after is None:
            return None  # no: the rest of the list is one unreadable stretch, every element of it counted
        reader.searched = (reader.base + after, reader.base + after)
    return scanned


def _elements_in(text: str, start: int, end: int) -> int:
    """How many elements ``text[start:end]`` holds, told by the ``,`` then ``{`` between them at bracket
    depth 0 (:func:`_candidates`)."""
    return 1 + sum(1 for _ in _candidates(text, start, end))


def _unreadable(number: int, count: int, error: str, tail: bool) -> list[Record]:
    """One error Record per element of an unreadable stretch, each saying how many could not be read."""
    if count == 1 and not tail:
        return [Record(number, f"item {number}", error=error)]
    last = number + count - 1
    span = f"item {number}" if count == 1 else f"items {number}-{last}"
    note = (f"; {span} ({count} element{'s' if count > 1 else ''}, told by their separators) could not be read"
            + ("; no element after them could be read" if tail else ""))
    return [Record(index, f"item {index}",
                   error=(error if index == number else f"item {index} could not be read (it follows item {number} in "
                                                               "one unreadable stretch)") + note)
            for index in range(number, last + 1)]


def _unreadable_rest(reader: _ListText, number: int, error: str) -> list[Record]:
    """The rest of the list when no later element can be read: one error Record per element it holds."""
    text, start = reader.text, reader.position
    closing = text.rstrip(" \t\r\n")
    end = len(closing) - 1 if closing.endswith("]") else len(text)
    reader.position = end
    return _unreadable(number, _elements_in(text, start, end), error, tail=True)


def _skip(reader: _ListText, number: int, where: str, bound: int) -> Record:
    """Skip an element over ``bound`` characters without holding it; one error record for it."""
    scanner = ElementScanner()
    error = f"{where} is over {plural(bound, 'character')} (max_line_chars)"
    while True:
        end_at = scanner.feed(reader.text, reader.position)
        if end_at is not None:
            reader.position = end_at
            return Record(number, where, error=error)
        reader.position = len(reader.text)
        if not reader.more():
            return Record(number, where, error=f"{error}; the file ends inside it")


@dataclass(frozen=True, slots=True)
class ElementRun:
    """``count`` consecutive elements of a JSON list, numbered from ``first``, as one text (the elements and the
    separators between them), each of which the element-at-a-time reader would read as a good Record: the fast
    decoder checked them in one pass (:func:`run_values` decodes them, to the standard library's values)."""

    first: int
    count: int
    text: str


def _safe(element: Any) -> bool:
    """True when an element that msgspec found to be strict JSON is surely one the standard library reads to the
    same value: it cannot hold an integer longer than the interpreter converts (``sys.get_int_max_str_digits``,
    4,300 digits by default, which msgspec would take) nor nest near the recursion limit (where the two decoders
    may stop at different depths). An element not surely safe is taken into a run only when msgspec decodes the
    run whole, which it does only where it gives the standard library's values."""
    depth = sys.getrecursionlimit() // 2
    if len(element) < 2 * depth and len(element) <= _int_digits():  # each level of nesting takes two bytes
        return True
    text = bytes(element)
    return len(text) <= _int_digits() and text.count(b"[") + text.count(b"{") < depth


def _int_digits() -> int:
    """The longest integer the interpreter converts from text (unbounded: the largest size)."""
    digits: int = getattr(sys, "get_int_max_str_digits", lambda: 4300)()
    return digits or sys.maxsize


RUN_RETRY_ELEMENTS = 64
"""Elements read one at a time after a run could not be taken, before a run is tried again (a failed try costs
one pass over the text read so far, so this bounds the cost of a list that does not split into runs)."""


def _run_end(text: str, start: int, limit: int, head: str, most: int) -> int | None:
    """Where the last whole element before ``limit`` (and before about ``most`` more elements) ends, told by the
    next element's first key (``head``, ``{"id"``) after ``,``: a guess, checked by the caller's decoding of the
    run."""
    following = start
    for _ in range(most):
        found = text.find(head, following + 1, limit)
        if found < 0:
            break
        following = found
    following = min(limit, following + len(head))
    for _ in range(current().json_element_tries):
        following = text.rfind(head, start + 1, following)
        if following < 0:
            return None
        end = text.rfind("}", start, following) + 1
        if end > start and text[end:following].strip(" \t\r\n") == ",":
            return end
    return None


def _suspect_position(text: str) -> int | None:
    """Where the first character that may make the text invalid Unicode is (:func:`_suspect_unicode`), if any."""
    found = [match.start() for match in (_ESCAPED_SURROGATE.search(text) if "\\" in text else None,
                                         None if text.isascii() else _RAW_SURROGATE.search(text)) if match]
    return min(found) if found else None


def _run(reader: _ListText, first: int, bound: int, most: int) -> ElementRun | None:
    """The whole elements from the reader's position to the last that ends in the text read so far (more is read
    when not even one does), and the reader moved past them; None where the fast decoder is absent or they do
    not make a run (then the caller reads one element at a time)."""
    split = list_splitter()
    if split is None or not reader.text.startswith('{"', reader.position):
        return None
    key_end = reader.text.find('"', reader.position + 2, reader.position + 256)
    if key_end < 0:
        return None
    head = reader.text[reader.position:key_end + 1]
    while True:
        text, start = reader.text, reader.position
        limit = min(len(text), start + bound)
        end = _run_end(text, start, limit, head, most)
        if end is not None or reader.at_end or len(text) - start > bound or not reader.more():
            break
    if end is None:
        return None
    suspect = _suspect_position(text[start:end])
    if suspect is not None:  # stop the run before it: that element is read alone, and judged
        end = _run_end(text, start, start + suspect, head, most) or start
        if end == start:
            return None
    body = text[start:end]
    try:
        elements = split("[" + body + "]")
        if not all(map(_safe, elements)):
            _decode_fast(body)
    except Exception:  # not a run of good elements: the element-at-a-time reader judges them
        return None
    reader.position = end
    return ElementRun(first, len(elements), body)


def run_values(run: ElementRun) -> list[Any]:
    """The values of a run's elements: those the element-at-a-time reader gives them."""
    values: list[Any] = loads("[" + run.text + "]")
    return values


def _decode_fast(body: str) -> None:
    """Decode a run's elements with the fast decoder alone: it raises wherever the standard library would decide
    (or refuse) instead."""
    fast = fast_decoder()
    assert fast is not None
    fast("[" + body + "]")


def iter_json_list(source: TextSource, limits: Limits | None = None, texts: bool = False) -> Iterator[Record]:
    """The elements of a top-level JSON list, one Record each, decoded one at a time; a bad element is
    one error Record and reading goes on with the next (see :class:`ElementScanner`). With ``texts``, each
    readable element's Record also carries its JSON text (what a parallel run sends its workers)."""
    return cast(Iterator[Record], _walk_list(source, limits, texts, None, 0))  # no runs: Records only


def iter_json_list_runs(source: TextSource, limits: Limits | None = None, one_at_a_time: int = 0,
                        most: int = 1000) -> Iterator[Record | ElementRun]:
    """:func:`iter_json_list` with texts, except that after the first ``one_at_a_time`` elements, runs of good
    elements come as one :class:`ElementRun` each where the fast decoder can check them in one pass, undecoded:
    what a parallel run cuts a list into for its workers, at a fraction of the cost of decoding it. A run holds
    at most about ``most`` elements."""
    return _walk_list(source, limits, True, one_at_a_time, most)


def _walk_list(source: TextSource, limits: Limits | None, texts: bool, runs_after: int | None,
               most: int) -> Iterator[Record | ElementRun]:
    bound = (limits or current()).max_line_chars
    reader = _ListText(source)
    if reader.skip_space() != "[":
        raise InputError(f"{source.name}: not a JSON list")
    reader.position += 1
    number = retry_at = 0
    while True:
        char = reader.skip_space()
        if not char:
            yield Record(number + 1, f"item {number + 1}", error=f"{source.name}: the list is not closed "
                                                                 "(the file ends inside it)")
            return
        if char == "]":
            reader.position += 1
            if reader.skip_space():
                yield Record(number + 1, f"after item {number}",
                             error=f"{source.name}: text after the end of the list (not read)")
            return
        if char == "," and number:
            reader.position += 1
            if reader.skip_space() == "]":
                continue  # a trailing comma: tolerated
        if runs_after is not None and number >= runs_after and number >= retry_at:
            run = _run(reader, number + 1, bound, most)
            if run is not None:
                number += run.count
                yield run
                continue
            retry_at = number + RUN_RETRY_ELEMENTS
        records = _element(reader, number + 1, bound, texts)
        number += len(records)
        yield from records


# ---------------------------------------------------------------- shapes and whole documents

def _list_head(head: str) -> bool:
    """A JSON list of records (or an empty list): ``[`` then ``{`` or ``]``. A first line ``[[[[...`` is
    left to JSON Lines, where each line is judged alone."""
    return head.startswith("[") and head[1:].lstrip(" \t\r\n")[:1] in ("{", "]")


def iter_records(source: TextSource, limits: Limits | None = None) -> tuple[str, Iterator[Record]]:
    """``("list", records)`` for a JSON list of objects, ``("lines", records)`` for JSON Lines (where each
    line is judged alone, so a first line ``[[[[...`` is one bad record, not the whole file)."""
    if input_shape(source) == "list":
        return "list", iter_json_list(source, limits)
    return "lines", iter_json_lines(source, limits)


def input_shape(source: TextSource) -> str:
    """``"list"`` for a JSON list of objects (or an empty list), else ``"lines"`` (see :func:`iter_records`)."""
    return "list" if _list_head(source.peek().lstrip(" \t\r\n")) else "lines"


def looks_like_document(head: str) -> bool:
    """True when text starting ``{`` is one JSON object spread over lines, not JSON Lines: its first line
    is not JSON alone, and fewer than half of the other lines of the look-ahead are JSON objects alone.
    A JSON Lines file whose first line is broken (or longer than the look-ahead) is still JSON Lines."""
    stripped = head.lstrip(" \t\r\n")
    if not stripped.startswith("{") or "\n" not in stripped:
        return False  # one line only, or a first line longer than the look-ahead: JSON Lines
    lines = stripped.split("\n")
    if len(lines) > 1 and not head.endswith("\n"):
        lines = lines[:-1]  # the last line of the look-ahead may be cut short
    if decode(lines[0], 1, "line 1").error is None:
        return False
    rest = [line for line in lines[1:] if line.strip()]
    objects = sum(isinstance(decode(line, 0, "").value, dict) for line in rest)
    return not rest or objects * 2 < len(rest)


def read_document(source: TextSource, limits: Limits | None = None) -> Record:
    """One JSON document read whole, bounded by ``max_line_chars`` (it is one record); longer is refused."""
    bound = (limits or current()).max_line_chars
    parts: list[str] = []
    size = 0
    while chunk := source.read(CHUNK_CHARS):
        size += len(chunk)
        if size > bound:
            raise InputError(f"{source.name}: one JSON document over {plural(bound, 'character')} (max_line_chars): a "
                             "document is read whole, so it is bounded like one record; write JSON Lines or a "
                             "JSON list instead", source=source.name, bound="max_line_chars")
        parts.append(chunk)
    return decode("".join(parts), 1, "the document")


def records_from_text(text: str, limits: Limits | None = None, name: str = "<text>") -> Iterator[Record]:
    """The records of JSON Lines or JSON-list text already in memory, by the same rules as a file."""
    source = source_from_text(text, name, limits)
    try:
        yield from iter_records(source, limits)[1]
    finally:
        source.close()


# ---------------------------------------------------------------- one document with its bad parts marked

class Unreadable:
    """A JSON number that cannot be used (an integer of more than 4,300 digits), kept in its place by
    :func:`decode_marked` so that only the item holding it is refused."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def __repr__(self) -> str:
        return f"Unreadable({self.reason!r})"


def _int_or_mark(digits: str) -> Any:
    try:
        return int(digits)
    except ValueError:
        return Unreadable(f"an integer of {plural(len(digits.lstrip('-')), 'digit')} (more than Python reads)")


def decode_marked(data: bytes | str, name: str = "the body") -> Any:
    """One JSON document from memory (a request body): a BOM dropped, bytes that are not UTF-8 kept as lone
    surrogates, huge integers kept as :class:`Unreadable`. Check each item with :func:`unreadable_reason`.
    Raises :class:`InputError` when the document as a whole is not JSON or is nested too deeply."""
    text = data.decode("utf-8", "surrogateescape") if isinstance(data, bytes) else data
    text = text.removeprefix("\ufeff")
    try:
        return json.loads(text, parse_int=_int_or_mark)
    except RecursionError:
        raise InputError(f"{name} is nested too deeply to read") from None
    except json.JSONDecodeError as error:
        raise InputError(f"{name} is not JSON ({error.msg} at line {error.lineno} column {error.colno})") from None


def unreadable_reason(value: Any) -> str | None:
    """Why a decoded value cannot be used (an :class:`Unreadable` number, text that is not valid Unicode
    such as a lone surrogate), or None. Iterative, so any depth is fine."""
    pending = [value]
    while pending:
        current_value = pending.pop()
        if isinstance(current_value, Unreadable):
            return f"holds {current_value.reason}"
        if isinstance(current_value, str):
            if suspect_unicode(current_value) and holds_invalid_unicode(current_value):
                return INVALID_UNICODE_ERROR
        elif isinstance(current_value, dict):
            pending.extend(current_value.keys())
            pending.extend(current_value.values())
        elif isinstance(current_value, list):
            pending.extend(current_value)
    return None


__all__ = ["Record", "INVALID_UNICODE_ERROR", "holds_invalid_unicode", "suspect_unicode", "decode", "iter_json_lines", "iter_raw_lines",
           "line_record", "input_shape",
           "ElementScanner", "iter_json_list", "iter_records", "looks_like_document", "read_document",
           "records_from_text", "Unreadable", "decode_marked", "unreadable_reason"]
