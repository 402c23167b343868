"""Markup that hides or changes what a completion says, normalised before any answer is looked for.

Zero-width characters (ZERO WIDTH SPACE, joiners, WORD JOINER, a BOM inside the text, SOFT HYPHEN) are
dropped, so ``5\\u200b6`` is 56 and ``12.5\\u200b%`` is 12.5 %. Struck-out text is removed with its
content, since a reader sees it withdrawn: Markdown ``~~6~~``, HTML ``<s>``/``<del>``/``<strike>``,
LaTeX ``\\sout{}``/``\\st{}``/``\\cancel{}``, and a character carrying a combining strikethrough or
slash overlay (U+0335 to U+0338: ``5̶`` is not 5). Every pattern is linear in the text's length.
"""

from __future__ import annotations

import re

ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
"""ZERO WIDTH SPACE, ZERO WIDTH NON-JOINER, ZERO WIDTH JOINER, WORD JOINER, ZERO WIDTH NO-BREAK SPACE, SOFT HYPHEN."""

_STRUCK = re.compile(
    r"~~(?:[^~\n]|~(?!~))*~~"  # Markdown, within one line
    r"|<(s|del|strike)\b[^<>\n]*>[^<]*</\1\s*>"  # HTML, no nested tags
    r"|\\(?:sout|st|cancel|xcancel|bcancel)[ \t]*\{[^{}]*\}"  # LaTeX, no nested braces
    r"|[^\u0335-\u0338][\u0335-\u0338]+",  # a character with a combining strikethrough or slash overlay
    re.IGNORECASE)


def unmarked(text: str) -> str:
    """``text`` without zero-width characters and without struck-out text (see the module docstring)."""
    if not text.isascii():
        for char in ZERO_WIDTH:  # str.replace, not str.translate: a search in C, not a mapping per character
            if char in text:
                text = text.replace(char, "")
    if "~" in text or "<" in text or "\\" in text or not text.isascii():
        text = _STRUCK.sub("", text)
    return text
