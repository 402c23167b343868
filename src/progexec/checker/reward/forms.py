"""The answer forms of the reward suite: correct answers written the ways models write them, and
wrong answers that look right. Each form knows by construction whether it deserves the reward.

A form renders one completion from one :class:`~.golds.Gold` (or declines, returning None, when
the gold does not suit it or the result would sit near a tolerance edge). A correct numeric form
writes the gold to within 0.05 % (at least four significant digits); a wrong numeric form is more
than 0.2 % away from the gold and from nothing else a fair reader could take for it. The
``policy`` is the reference policy of the records the form is written for: ``official`` for
program completions, ``numeric`` for answers.
"""

from __future__ import annotations

import math
import random
import re
from ...core.registry import get_dataset
from collections.abc import Callable
from dataclasses import dataclass
from typing import Optional

from ...core.limits import current
from ...core.item import Item
from ...runner import execute
from .golds import Gold, program_reproduces
from ...core.plural import plural

CLOSE = 5e-4
"""A correct form's largest relative error."""
FAR = 2e-3
"""A wrong form's smallest relative error."""

Render = Callable[[Gold, random.Random], Optional[str]]


@dataclass(frozen=True)
class Form:
    """One way of answering: its name, whether it deserves the reward, how it is written."""

    name: str
    correct: bool
    policy: str
    applies: Callable[[Gold], bool]
    render: Render
    doc: str
    weight: float = 1.0


# -- numbers ----------------------------------------------------------------------------------------

def close(value: float, gold: float) -> bool:
    return abs(value - gold) <= CLOSE * abs(gold) if gold else value == 0


def far(value: float, gold: float) -> bool:
    return abs(value - gold) > FAR * abs(gold) if gold else abs(value) > 1e-6


def digits(value: float, places: int, scale: float = 1.0, commas: bool = False) -> str:
    """``|value * scale|`` with ``places`` decimals, more when needed to stay within CLOSE of ``value``."""
    for count in range(places, 11):
        if close(round(value * scale, count) / scale, value):
            places = count
            break
    return f"{abs(value * scale):{',' if commas else ''}.{places}f}"


def amount(value: float, places: int, scale: float = 1.0, commas: bool = False) -> str:
    """``digits`` with a leading ``-`` for a negative value."""
    text = digits(value, places, scale, commas)
    return "-" + text if value < 0 and text.strip("0.,") else text


def figure(number: float) -> str:
    """A table figure as a person writes it: ``4087587``, ``3.8``, never an exponent."""
    if number == int(number) and abs(number) < 1e15:
        return str(int(number))
    return f"{number:.6f}".rstrip("0").rstrip(".")


def _places(rng: random.Random) -> int:
    return rng.randint(2, 5)


def _preamble(gold: Gold, rng: random.Random) -> str:
    numbers = list(gold.table_numbers)
    if len(numbers) < 2:
        return "Let me work through the figures step by step.\n"
    first, second = rng.sample(numbers, 2)
    return f"From the table, the relevant figures are {figure(first)} and {figure(second)}.\nComputing from these:\n"


def _wrong_value(gold: float, rng: random.Random) -> float:
    for factor in (1.37, 0.71, 1.9, 0.43):
        candidate = gold * rng.choice((factor, 2 - factor)) if gold else 7.0
        if far(candidate, gold) and far(candidate, -gold) and all(far(candidate, gold * s) for s in (100, 0.01, 1000)):
            return candidate
    return gold + 17.0


# -- applicability -------------------------------------------------------------------------------------

def _number(gold: Gold) -> bool:
    return not gold.is_yes_no and not gold.is_option


def _ratio(gold: Gold) -> bool:
    return _number(gold) and 0 < abs(float(gold.value)) < 1.5


def _nonzero(gold: Gold) -> bool:
    return _number(gold) and float(gold.value) != 0


def _negative(gold: Gold) -> bool:
    return _number(gold) and float(gold.value) < 0


def _program(gold: Gold) -> bool:
    return "(" in str(gold.record.get("program") or "")


# -- correct forms -------------------------------------------------------------------------------------

def _answer(prefix: str = "Answer: ", suffix: str = "", scale: float = 1.0, commas: bool = False,
            preamble: bool = True) -> Render:
    def render(gold: Gold, rng: random.Random) -> str:
        head = _preamble(gold, rng) if preamble else ""
        return f"{head}{prefix}{amount(float(gold.value), _places(rng), scale, commas)}{suffix}"
    return render


def _dollar(gold: Gold, rng: random.Random) -> str:
    return f"{_preamble(gold, rng)}Answer: ${amount(float(gold.value), _places(rng), 1.0, True)}"


def _scale_word(gold: Gold, rng: random.Random) -> Optional[str]:
    value = float(gold.value)
    word, scale = ("billion", 1e-9) if abs(value) >= 1e9 else ("million", 1e-6) if abs(value) >= 1e6 \
        else ("thousand", 1e-3)
    return f"{_preamble(gold, rng)}Answer: {amount(value, 3, scale)} {word}"


def _negative_form(mark: str) -> Render:
    def render(gold: Gold, rng: random.Random) -> str:
        text = digits(float(gold.value), _places(rng))
        body = f"({text})" if mark == "()" else f"{mark}{text}"
        return f"{_preamble(gold, rng)}Answer: {body}"
    return render


def _boxed(gold: Gold, rng: random.Random) -> str:
    return f"{_preamble(gold, rng)}The result is $\\boxed{{{amount(float(gold.value), _places(rng))}}}$."


def _bare(gold: Gold, rng: random.Random) -> str:
    return f"{_preamble(gold, rng)}{amount(float(gold.value), _places(rng))}"


def _program_block(gold: Gold, rng: random.Random) -> Optional[str]:
    if not program_reproduces(gold):
        return None
    return f"{_preamble(gold, rng)}Program:\n```\n{gold.record['program']}\n```"


def _yes_no(flip: bool) -> Render:
    def render(gold: Gold, rng: random.Random) -> str:
        value = bool(gold.value) != flip
        return f"Comparing the two figures from the table.\nAnswer: {'yes' if value else 'no'}"
    return render


def _option_letter(gold: Gold, rng: random.Random) -> str:
    return f"Working through the problem, the answer matches option {gold.record['answer']}.\n" \
           f"Answer: ({gold.record['answer']})"


def _option_value(gold: Gold, rng: random.Random) -> str:
    return f"Working through the problem step by step.\nAnswer: {amount(float(gold.value), 2)}"


def _wrong_option(gold: Gold, rng: random.Random) -> Optional[str]:
    from ...datasets.mathqa.options import read_options
    options = read_options(str(gold.record["options"])).options
    others = [letter for letter, option in sorted(options.items()) if letter != gold.record["answer"]
              and option.value is not None and far(option.value, float(gold.value))]
    if not others:
        return None
    return f"Working through the problem step by step.\nAnswer: ({rng.choice(others)})"


# -- wrong forms -------------------------------------------------------------------------------------

def _scaled(factor: float) -> Render:
    def render(gold: Gold, rng: random.Random) -> Optional[str]:
        value = float(gold.value) * factor
        return f"{_preamble(gold, rng)}Answer: {amount(value, _places(rng))}"
    return render


def _stray_percent(gold: Gold, rng: random.Random) -> str:
    return f"{_preamble(gold, rng)}Answer: {amount(float(gold.value), _places(rng))}%"


def _sign_flip(gold: Gold, rng: random.Random) -> str:
    return f"{_preamble(gold, rng)}Answer: {amount(-float(gold.value), _places(rng))}"


def _rounding_off(gold: Gold, rng: random.Random) -> Optional[str]:
    value = float(gold.value)
    exponent = math.floor(math.log10(abs(value)))
    unit = 10.0 ** (exponent - 2)  # one step of the third significant digit
    rounded = round(value / unit) * unit
    stepped = rounded - unit if value >= rounded else rounded + unit  # away from the gold: a whole step off
    if not far(stepped, value) or abs(stepped - value) > 0.05 * abs(value):
        return None
    return f"{_preamble(gold, rng)}Answer: {stepped:.{max(0, 2 - exponent)}f}"


def _several(gold: Gold, rng: random.Random) -> str:
    value = float(gold.value)
    other = _wrong_value(value, rng)
    pair = [amount(value, 4), amount(other, 4)]
    rng.shuffle(pair)
    return f"{_preamble(gold, rng)}Answer: {pair[0]} or {pair[1]}"


def _table_numbers(gold: Gold, rng: random.Random) -> Optional[str]:
    numbers = [figure(number) for number in gold.table_numbers]
    if len(numbers) < 2:
        return None
    numbers.insert(rng.randrange(len(numbers) + 1), amount(float(gold.value), 4))
    return "The figures in the table are:\nAnswer: " + ", ".join(numbers)


def _quoted_prose(gold: Gold, rng: random.Random) -> str:
    value = float(gold.value)
    other = _wrong_value(value, rng)
    return (f"Last year the figure was {amount(value, 4)}, but the question asks about a different year, "
            f"where it is {amount(other, 4)}.\nAnswer: {amount(other, 4)}")


def _hedge(gold: Gold, rng: random.Random) -> str:
    return f"{_preamble(gold, rng)}Answer: I am not sure; it cannot be determined, perhaps " \
           f"{amount(float(gold.value), 4)}"


def _two_boxed(gold: Gold, rng: random.Random) -> str:
    value = float(gold.value)
    boxes = [amount(value, 4), amount(_wrong_value(value, rng), 4)]
    rng.shuffle(boxes)
    return f"{_preamble(gold, rng)}Either $\\boxed{{{boxes[0]}}}$ or, reading it differently, $\\boxed{{{boxes[1]}}}$."


def _empty(gold: Gold, rng: random.Random) -> str:
    return ""


def _huge(gold: Gold, rng: random.Random) -> str:
    words = [figure(number) for number in gold.table_numbers] + [amount(float(gold.value), 4)]
    piece = " ".join(words) + " "
    text = piece * (current().huge_completion_chars // len(piece) + 1)
    return text[:current().huge_completion_chars - len(piece)] + "\n" + amount(float(gold.value), 4)


_CALL = re.compile(r"\b(subtract|divide)\(\s*([^(),]+?)\s*,\s*([^(),]+?)\s*\)")


def _wrong_program(gold: Gold, rng: random.Random) -> Optional[str]:
    if get_dataset(gold.dialect).option_letters or not program_reproduces(gold):
        return None
    program = str(gold.record["program"])
    match = _CALL.search(program)
    if match is None or match.group(2) == match.group(3):
        return None
    swapped = f"{program[:match.start()]}{match.group(1)}({match.group(3)}, {match.group(2)}){program[match.end():]}"
    item = Item(gold.key, swapped, gold.record["table"], gold.record["answer"], True, dialect=get_dataset(gold.dialect))
    official = execute(item).official
    if official is None or not official.valid or not isinstance(official.value, float) \
            or not far(official.value, float(gold.value)):
        return None
    return f"{_preamble(gold, rng)}Program:\n```\n{swapped}\n```"


FORMS: tuple[Form, ...] = (
    Form("decimal", True, "numeric", _number, _answer(), "the value after an `Answer:` line, 2 to 5 places"),
    Form("percent", True, "numeric", _ratio, _answer(suffix="%", scale=100.0), "a ratio as a percent: `14.46%`"),
    Form("percent_word", True, "numeric", _ratio, _answer(suffix=" percent", scale=100.0),
         "a ratio as `14.46 percent`"),
    Form("thousands", True, "numeric", lambda g: _number(g) and abs(float(g.value)) >= 1000,
         _answer(commas=True), "thousands separators: `1,234.5`"),
    Form("dollar", True, "numeric", lambda g: _number(g) and float(g.value) > 0, _dollar, "a dollar sign: `$1,234.50`"),
    Form("scale_word", True, "numeric", lambda g: _number(g) and abs(float(g.value)) >= 1e4, _scale_word,
         "a scale word: `3.51 million` for 3510000"),
    Form("negative_hyphen", True, "numeric", _negative, _negative_form("-"), "a negative with `-`"),
    Form("negative_unicode", True, "numeric", _negative, _negative_form("\u2212"), "a negative with U+2212 `−`"),
    Form("negative_parens", True, "numeric", _negative, _negative_form("()"), "a negative in parentheses: `(4.5)`"),
    Form("boxed", True, "numeric", _number, _boxed, "`\\boxed{...}` after reasoning"),
    Form("answer_is", True, "numeric", _number, _answer("So the answer is ", "."), "`So the answer is X.`"),
    Form("hashes", True, "numeric", _number, _answer("#### "), "`#### X` (GSM8K style)"),
    Form("bare_last_line", True, "numeric", _number, _bare, "reasoning, then a last line that is only the number"),
    Form("program", True, "official", _program, _program_block, "the gold program in a fenced block (official)"),
    Form("yes_no", True, "numeric", lambda g: g.is_yes_no, _yes_no(False), "`Answer: yes` for a yes/no gold"),
    Form("option_letter", True, "numeric", lambda g: g.is_option, _option_letter, "MathQA: the correct letter `(c)`"),
    Form("option_value", True, "numeric", lambda g: g.is_option and bool(g.extra.get("plain_option")),
         _option_value, "MathQA: the correct option's value, where the option is one plain number"),
    Form("scale_x100", False, "numeric", _ratio, _scaled(100.0), "a ratio ×100 without `%`: `14.46` for 0.1446"),
    Form("scale_x1000", False, "numeric", _nonzero, _scaled(1000.0), "the value ×1000"),
    Form("scale_div100", False, "numeric", lambda g: _number(g) and abs(float(g.value)) >= 1, _scaled(0.01),
         "the value ÷100"),
    Form("stray_percent", False, "numeric", _nonzero, _stray_percent, "the value with a `%` it should not have"),
    Form("sign_flip", False, "numeric", _nonzero, _sign_flip, "the value with the wrong sign"),
    Form("rounding_off", False, "numeric", _nonzero, _rounding_off,
         "three significant digits, the last one step off"),
    Form("several_candidates", False, "numeric", _nonzero, _several, "`Answer: X or Y` with the gold among them"),
    Form("table_numbers", False, "numeric", lambda g: _nonzero(g) and len(g.table_numbers) >= 2, _table_numbers,
         "every table number listed, the gold among them"),
    Form("quoted_prose", False, "numeric", _nonzero, _quoted_prose,
         "the gold quoted in prose about something else; another final answer"),
    Form("hedge", False, "numeric", _nonzero, _hedge, "the gold inside a hedge that commits to nothing"),
    Form("two_boxed", False, "numeric", _nonzero, _two_boxed, "two different boxed answers, the gold one of them"),
    Form("empty", False, "numeric", _number, _empty, "an empty completion", 0.25),
    Form("huge", False, "numeric", _nonzero, _huge,
         f"a runaway completion of {plural(current().huge_completion_chars, 'character', grouped=True)} repeating "
         f"the figures", 0.05),
    Form("wrong_program", False, "official", _program, _wrong_program,
         "the gold program with a subtract or divide's arguments swapped (official)"),
    Form("yes_no_flip", False, "numeric", lambda g: g.is_yes_no, _yes_no(True), "the other of yes/no"),
    Form("wrong_option", False, "numeric", lambda g: g.is_option, _wrong_option, "MathQA: another option's letter"),
)

FORMS_BY_NAME = {form.name: form for form in FORMS}
