"""Finding what a completion answered: program candidates and final-answer spans.

A program is the content of a fenced block (untagged or tagged ``program``/``finqa``/
``convfinqa``/``mathqa``/``dsl``) that starts like a call, or the rest of a line after
``Program:``. A final answer is the content of ``\\boxed{...}``, or the rest of the line after
``Answer:`` (``Final answer:``), ``####`` or "the answer is"; failing every marker, a last line
that is nothing but one number or a yes/no. Scanning is linear: regexes without nested
quantifiers, the boxed braces matched by one counting pass.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .numbers import normalise

MAX_SPANS = 32
# bound: MAX_SPANS = 32 — at most this many answer spans (or program candidates) are read per completion

_FENCE = re.compile(r"```([^`\n]*)\n(.*?)```", re.DOTALL)
_TAG = re.compile(r"[A-Za-z0-9_+-]*")
_PROGRAM_TAGS = frozenset({"", "program", "finqa", "convfinqa", "mathqa", "dsl", "text", "plaintext"})
_CALL_START = re.compile(r"\s*[A-Za-z_][A-Za-z0-9_]*\s*\(")
_PROGRAM_MARKER = re.compile(r"(?im)^[ \t>*_#-]*program[ \t*_]*[:：][ \t*_]*(.*)$")
_ANSWER_MARKER = re.compile(
    r"(?i)(?:\bfinal[ \t]+answer|\banswer)[ \t*_]*[:：]|####|\bthe[ \t]+(?:final[ \t]+)?answer[ \t]+is\b[ \t]*:?")
_BOXED = re.compile(r"\\boxed[ \t]*\{")
_BRACE = re.compile(r"[{}]")
MAX_BARE_LINE_CHARS = 80
# bound: MAX_BARE_LINE_CHARS = 80 — a last line longer than this is never a bare answer
_BARE_LINE = re.compile(  # matched on the line with its whitespace runs collapsed to single spaces
    r"(?:yes|no|[-+(]? ?(?:US\$|[$€£¥])? ?[-+(]? ?[\d.,]+ ?"
    r"(?:%|percent|thousand|million|billion|trillion|bn|mn|[kmb])? ?\)?) ?\.?",
    re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Found:
    """Every candidate a completion holds: program texts, boxed spans, marker spans, a bare last line."""

    programs: tuple[str, ...]
    boxed: tuple[str, ...]
    marked: tuple[str, ...]
    bare: str | None


def find(completion: str) -> Found:
    """Collect the candidates of one completion (at most :data:`MAX_SPANS` of each kind)."""
    return Found(_programs(completion), _boxed(completion), _marked(completion), _bare_line(completion))


def _programs(text: str) -> tuple[str, ...]:
    found: list[str] = []
    for fence in _FENCE.finditer(text):
        tag, body = fence.group(1).strip().lower(), fence.group(2).strip()
        if _TAG.fullmatch(tag) and tag in _PROGRAM_TAGS and _CALL_START.match(body):
            found.append(_one_line(body))
        if len(found) >= MAX_SPANS:
            return tuple(found)
    for marker in _PROGRAM_MARKER.finditer(text):
        body = marker.group(1).strip().strip("`*_").strip()
        if _CALL_START.match(body):
            found.append(body)
        if len(found) >= MAX_SPANS:
            break
    distinct: dict[str, str] = {}
    for program in found:  # one program written twice, spaced differently, is one program
        distinct.setdefault("".join(program.split()), program)
    return tuple(distinct.values())


def _one_line(body: str) -> str:
    """A program written over several lines as one text: MathQA steps joined as written (they carry
    their ``|``), FinQA steps joined by ``", "``."""
    lines = [line.strip() for line in body.splitlines() if line.strip()]
    if "|" in body:
        return "".join(lines)
    return ", ".join(line.rstrip(",").rstrip() for line in lines)


def _boxed(text: str) -> tuple[str, ...]:
    found: list[str] = []
    for start in _BOXED.finditer(text):
        depth, end = 1, -1
        for brace in _BRACE.finditer(text, start.end()):
            depth += 1 if brace.group(0) == "{" else -1
            if depth == 0:
                end = brace.start()
                break
        if end < 0:
            break  # an unclosed box: nothing after it is read as an answer
        found.append(text[start.end():end])
        if len(found) >= MAX_SPANS:
            break
    return tuple(found)


def _marked(text: str) -> tuple[str, ...]:
    found: list[str] = []
    for marker in _ANSWER_MARKER.finditer(text):
        line_end = text.find("\n", marker.end())
        span = text[marker.end(): len(text) if line_end < 0 else line_end]
        found.append(span)
        if len(found) >= MAX_SPANS:
            break
    return tuple(found)


def _bare_line(text: str) -> str | None:
    stripped = text.rstrip()
    last = stripped[stripped.rfind("\n") + 1:]
    if len(last) > MAX_BARE_LINE_CHARS:
        return None
    line = " ".join(normalise(last).split())
    return line if _BARE_LINE.fullmatch(line) else None
