"""Running a line-bound, case-insensitive regex only over the lines that can hold a match.

Python's ``re`` tries an alternation of branches at every position of a text, so a marker pattern
such as ``answer:`` costs a few tens of nanoseconds per character of the whole completion. When
every match of a pattern lies within one line and holds one of a few keywords, the lines without a
keyword can hold no match: :func:`line_matches` runs the pattern (unchanged) over the other lines
alone, and gives exactly the matches ``pattern.finditer(text)`` gives. The keywords are found in
:func:`fold` of the text, a lower-cased copy whose characters stand where the text's do.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_FOLD = (("\u0130", "i"), ("\u0131", "i"), ("\u017f", "s"))
"""The characters other than ASCII letters that ``re.IGNORECASE`` matches to an ASCII letter, as that letter:
LATIN CAPITAL LETTER I WITH DOT ABOVE and DOTLESS I (``i``), LONG S (``s``); KELVIN SIGN lower-cases to ``k``."""


def fold(text: str) -> str:
    """``text`` lower-cased so that a keyword of ASCII letters is found in it wherever a case-insensitive
    regex would match it in ``text``, at the same index (no character grows: U+0130 is mapped first)."""
    if text.isascii():
        return text.lower()
    for char, letter in _FOLD:  # str.replace, not str.translate: a search in C, not a mapping per character
        if char in text:
            text = text.replace(char, letter)
    return text.lower()


def keyword_lines(text: str, folded: str, keywords: Iterable[str]) -> list[tuple[int, int]]:
    """The ``(start, end)`` of every line of ``text`` (end before its ``\\n``) where ``folded`` holds one of
    ``keywords`` (lower-case), in order, each once."""
    lines: dict[int, int] = {}
    size = len(text)
    for keyword in keywords:
        index = folded.find(keyword)
        while index >= 0:
            end = text.find("\n", index)
            lines[text.rfind("\n", 0, index) + 1] = size if end < 0 else end
            index = -1 if end < 0 else folded.find(keyword, end)  # the rest of this line is already taken
    return sorted(lines.items()) if len(lines) > 1 else list(lines.items())


def line_matches(pattern: re.Pattern[str], text: str, keywords: Iterable[str], folded: str | None = None,
                 starts: tuple[str, ...] = ()) -> list[re.Match[str]]:
    """``list(pattern.finditer(text))`` for a pattern whose every match lies within one line (it matches no
    ``\\n``; a ``^``/``$`` in it is MULTILINE) and holds one of ``keywords`` (lower-case ASCII letters or
    caseless characters; case-insensitively when the pattern is): only the lines holding a keyword are
    searched. ``\\b``, ``^`` and ``$`` see the same neighbours as in the whole text (the characters around
    a line are ``\\n`` or its ends). ``starts``, when given, are words one of which every match starts with
    (and the pattern matches no empty text): a line over :data:`LONG_LINE` characters is then tried only
    where one of them stands."""
    folded = fold(text) if folded is None else folded
    found: list[re.Match[str]] = []
    for start, end in keyword_lines(text, folded, keywords):
        if starts and end - start > LONG_LINE:
            found.extend(_matches_at(pattern, text, folded, start, end, starts))
        else:
            found.extend(pattern.finditer(text, start, end))
    return found


LONG_LINE = 200
"""A line longer than this is tried at the places where a match can start rather than at every character."""


def _matches_at(pattern: re.Pattern[str], text: str, folded: str, start: int, end: int,
                starts: tuple[str, ...]) -> list[re.Match[str]]:
    """``pattern.finditer(text, start, end)`` tried only where one of ``starts`` stands in ``folded``: a match
    begins at one of them, so the places in order, each tried past the end of the last match, give the
    same matches (``pattern.match`` at a place sees the text before it, as a search does)."""
    places: list[int] = []
    for word in starts:
        index = folded.find(word, start, end)
        while index >= 0:
            places.append(index)
            index = folded.find(word, index + 1, end)
    found: list[re.Match[str]] = []
    after = start
    for place in sorted(places):
        if place >= after and (match := pattern.match(text, place, end)) is not None:
            found.append(match)
            after = match.end()
    return found
