"""Finding what a completion answered: program candidates and final-answer spans.

Reasoning inside ``<think>…</think>`` is removed first and never read. When the rest holds
``<answer>…</answer>`` tags, their contents decide: each is a program (it starts like a call),
the content of a ``\\boxed{}`` in it, the rest of an ``Answer:`` line in it, or its text (its
last line holding a value answers; see :mod:`.answers`);
an empty tag is no answer. Otherwise a program is the content of a fenced block (untagged or
tagged ``program``/``finqa``/``convfinqa``/``mathqa``/``dsl``) that starts like a call, or the
rest of a line after ``Program:``; a final answer is the content of ``\\boxed{...}``, or the
rest of the line after ``Answer:`` (``Final answer:``), ``####`` or "the answer is" (the next
line when that rest is empty); failing every marker, a last line that is nothing but one number
or a yes/no. Every marker is read (their number is bounded by the completion's length). Scanning
is linear: regexes without nested quantifiers, the boxed braces matched by one counting pass.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.limits import current
from .markup import unmarked
from .numbers import COMPARISON, normalise
from .scan import fold, line_matches


_FENCE = re.compile(r"```([^`\n]*)\n(.*?)```", re.DOTALL)
_TAG = re.compile(r"[A-Za-z0-9_+-]*")
_PROGRAM_TAGS = frozenset({"", "program", "finqa", "convfinqa", "mathqa", "dsl", "text", "plaintext"})
_CALL_START = re.compile(r"\s*[A-Za-z_][A-Za-z0-9_]*\s*\(")
_ONE_TOKEN = re.compile(r"[-+]?[0-9][0-9,.]*%?")
"""A ``Program:`` line that is one number is a one-token program (ConvFinQA's ``206588``)."""
_PROGRAM_MARKER = re.compile(r"(?im)^[ \t>*_#-]*program[ \t*_]*[:：][ \t*_]*(.*)$")
_PROGRAM_KEYWORDS = ("program",)
"""What every :data:`_PROGRAM_MARKER` match holds (matched within one line): only lines holding it are searched."""
_ANSWER_MARKER = re.compile(
    r"(?i)(?:\bfinal[ \t]+answer|\banswer)[ \t*_]*[:：]|####"
    r"|\bthe[ \t]+(?:(?:final|correct|right)[ \t]+)?(?:answer|option|choice)[ \t]+is\b[ \t]*:?")
_ANSWER_KEYWORDS = ("answer", "option", "choice", "####")
"""What every :data:`_ANSWER_MARKER` match holds (matched within one line): only lines holding one are searched."""
_ANSWER_STARTS = ("final", "answer", "####", "the")
"""What every :data:`_ANSWER_MARKER` match starts with: a long line is tried only where one stands."""
_EMPTY_REST = re.compile(r"[ \t*_:]*")
_HEDGE_WORDS = r"or|alternatively|maybe|perhaps|possibly|possible|could|might|otherwise|else|either|instead|if[ \t]+not"
_HEDGE_IN_LINE = re.compile(rf"\b(?:{_HEDGE_WORDS})\b", re.IGNORECASE)
"""A line after an answer line holding one of these offers another value (``It might also be 6.``, ``If not, 6.``)."""
_HEDGE_OPEN = re.compile(r"(?:or|either|alternatively|otherwise|else|if[ \t]+not)[ \t*_,.:]*$", re.IGNORECASE)
"""A line ending with one of these (``5 or``, a line ``or`` alone) goes on with the next non-blank line."""
_THINK_TAG = re.compile(r"<(/?)think>", re.IGNORECASE)
_ANSWER_TAG = re.compile(r"<(/?)answer>", re.IGNORECASE)
_BOXED = re.compile(r"\\(?:boxed|fbox)(?![A-Za-z])[ \t]*(\{)?")
_BOX_TOKEN = re.compile(r"[^\s{}$\\]+")
"""What ``\boxed`` without braces boxes: the run of text up to a space, ``$`` or another command (``\boxed 5``)."""
_BRACE = re.compile(r"[{}]")
_BARE_LINE = re.compile(  # matched on the line with its whitespace runs collapsed to single spaces
    r"(?:yes|no|[-+(]? ?(?:US\$|[$€£¥])? ?[-+(]? ?[\d.,]+ ?"
    r"(?:%|percent|thousand|million|billion|trillion|bn|mn|[kmb])? ?\)?) ?\.?",
    re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Found:
    """Every candidate a completion holds: program texts, boxed spans, marker spans, a bare last line (read
    only without boxed and marker spans, the one case where it answers); with ``<answer>`` tags, ``tagged``
    holds their answer spans (``()`` when every tag is empty) and ``boxed``/``marked`` the spans outside
    them, which must agree."""

    programs: tuple[str, ...]
    boxed: tuple[str, ...]
    marked: tuple[str, ...]
    bare: str | None
    tagged: tuple[str, ...] | None = None


def find(completion: str) -> Found:
    """Collect the candidates of one completion (at most ``max_program_candidates`` (:class:`~progexec.limits.Limits`) programs)."""
    text = unmarked(without_reasoning(completion))
    tags, outside = _answer_tags(text)
    if not tags:
        folded = fold(text)  # once for both marker scans
        boxed, marked = _boxed(text), _marked(text, folded)
        return Found(_programs(text, folded), boxed, marked, None if boxed or marked else _bare_line(text))
    programs = list(_programs(outside))
    spans: list[str] = []
    for tag, end in tags:
        content = tag.strip()
        if not content:
            continue  # an empty tag: no answer
        if _CALL_START.match(content):
            programs.append(_one_line(content))
            continue
        inner = _programs(content)
        found = list(_boxed(content) or _marked(content) or (() if inner else (content,)))
        if found:
            found[-1] += _after_box(text, end)  # a hedge after the tag (``<answer>5</answer> or 6``)
        spans.extend(found)
        programs.extend(inner)
    return Found(_distinct(programs), _boxed(outside), _marked(outside), None, tuple(spans))


def without_reasoning(text: str) -> str:
    """The completion without its reasoning: every ``<think>…</think>`` removed, everything before an
    unopened ``</think>`` (a prompt that opened the tag) and after an unclosed ``<think>``. One pass."""
    if "<" not in text:  # no tag at all
        return text
    kept: list[str] = []
    start, opened = 0, -1
    for tag in _THINK_TAG.finditer(text):
        if tag.group(1):  # </think>: what stood before it, since the last kept point, was reasoning
            if opened < 0:
                kept.clear()
            opened, start = -1, tag.end()
            kept.append("\n")
        elif opened < 0:
            kept.append(text[start:tag.start()])
            opened = tag.start()
    if opened < 0:
        kept.append(text[start:])
    return "".join(kept)


def _answer_tags(text: str) -> tuple[list[tuple[str, int]], str]:
    """The contents of every closed ``<answer>…</answer>`` (an opening tag pairs with the next closing
    one) with where its closing tag ends, and the text outside them. One pass."""
    if "<" not in text:  # no tag at all
        return [], text
    tags: list[tuple[str, int]] = []
    outside: list[str] = []
    start, opened = 0, -1
    for tag in _ANSWER_TAG.finditer(text):
        if not tag.group(1):
            if opened < 0:
                outside.append(text[start:tag.start()])
                opened = tag.end()
        elif opened >= 0:
            tags.append((text[opened:tag.start()], tag.end()))
            opened, start = -1, tag.end()
            outside.append("\n")
    outside.append(text[start:])
    return tags, "".join(outside)


def _programs(text: str, folded: str | None = None) -> tuple[str, ...]:
    found: list[str] = []
    for fence in _FENCE.finditer(text) if "```" in text else ():
        tag, body = fence.group(1).strip().lower(), fence.group(2).strip()
        if _TAG.fullmatch(tag) and tag in _PROGRAM_TAGS and _CALL_START.match(body):
            found.append(_one_line(body))
        if len(found) >= current().max_program_candidates:
            return tuple(found)
    folded = fold(text) if folded is None else folded
    for marker in line_matches(_PROGRAM_MARKER, text, _PROGRAM_KEYWORDS, folded) if "program" in folded else ():
        body = marker.group(1).strip().strip("`*_").strip()
        if _CALL_START.match(body) or _ONE_TOKEN.fullmatch(body):
            found.append(body)
        if len(found) >= current().max_program_candidates:
            break
    return _distinct(found)


def _distinct(found: list[str]) -> tuple[str, ...]:
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
    if "\\" not in text:  # no command at all
        return ()
    found: list[str] = []
    for start in _BOXED.finditer(text):
        if start.group(1) is None:  # \boxed 5: one token
            token = _BOX_TOKEN.match(text, start.end())
            if token is not None:
                found.append(token.group(0))
            continue
        depth, end = 1, -1
        for brace in _BRACE.finditer(text, start.end()):
            depth += 1 if brace.group(0) == "{" else -1
            if depth == 0:
                end = brace.start()
                break
        if end < 0:
            break  # an unclosed box: nothing after it is read as an answer
        found.append(text[start.end():end] + _after_box(text, end + 1))
        if len(found) >= current().max_program_candidates:
            break
    return tuple(found)


def _after_box(text: str, start: int) -> str:
    """What follows a box (or an ``<answer>`` tag) and offers another value, as later sentences of its
    answer: the rest of its line up to another tag when it holds a hedge word (``\\boxed{5} or 6``), then
    the hedge lines after it."""
    line_end = text.find("\n", start)
    rest = text[start:] if line_end < 0 else text[start:line_end]
    tag = _ANSWER_TAG.search(rest)
    rest = rest if tag is None else rest[:tag.start()]
    offered = "; " + rest if _HEDGE_IN_LINE.search(rest) else ""
    if line_end < 0:
        return offered
    return offered + _hedge_lines(text, rest, line_end, len(text))


def _marked(text: str, folded: str | None = None) -> tuple[str, ...]:
    """Every marker's span: the rest of its line up to the next marker; when that rest is empty
    (``**Answer:**`` alone), the next non-empty line."""
    markers = line_matches(_ANSWER_MARKER, text, _ANSWER_KEYWORDS, folded, _ANSWER_STARTS)
    found: list[str] = []
    for index, marker in enumerate(markers):
        stop = markers[index + 1].start() if index + 1 < len(markers) else len(text)
        line_end = text.find("\n", marker.end(), stop)
        span = text[marker.end(): stop if line_end < 0 else line_end]
        if _EMPTY_REST.fullmatch(span) and line_end >= 0:
            span, line_end = _next_line(text, line_end, stop)
        if line_end >= 0:
            span += _hedge_lines(text, span, line_end, stop)
        found.append(span)
    return tuple(found)


def _hedge_lines(text: str, answer: str, start: int, stop: int) -> str:
    """The lines after an answer line (blank lines skipped) that offer another value, each as a later
    sentence of the answer (joined by ``;``): a line holding a hedge word (``or 6``, ``It might also be
    6.``, ``If not, 6.``), or any line after one that ends with a hedge word (``5 or`` then ``6``)."""
    hedges = []
    position, previous = start, answer
    while position >= 0 and position < stop:
        line, end = _next_line(text, position, stop)
        if not line or not (_HEDGE_IN_LINE.search(line) or _HEDGE_OPEN.search(previous.rstrip())):
            break
        hedges.append("; " + line)
        position, previous = end, line
    return "".join(hedges)


def _next_line(text: str, start: int, stop: int) -> tuple[str, int]:
    """The first non-blank line after ``start`` and before ``stop`` (the next marker), and where it ends
    (-1 at ``stop``); ``("", -1)`` when there is none."""
    position = start
    while position < stop:
        end = text.find("\n", position + 1, stop)
        line = text[position + 1: stop if end < 0 else end]
        if line.strip():
            return line, end
        if end < 0:
            break
        position = end
    return "", -1


def _bare_line(text: str) -> str | None:
    stripped = text.rstrip()
    last = stripped[stripped.rfind("\n") + 1:]
    if len(last) > current().max_bare_line_chars:
        return None
    line = " ".join(normalise(last).split())
    if _BARE_LINE.fullmatch(line):
        return line
    if "=" not in line or COMPARISON.search(line):
        return None
    value = line.rsplit("=", 1)[1].strip()  # a worked last line: "So the share is 8.1 / 56.0 = 0.1446"
    return value if _BARE_LINE.fullmatch(value) else None
