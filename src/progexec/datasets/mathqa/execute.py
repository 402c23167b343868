"""Executing MathQA items: parse the formula, bind ``nK``, run the one interpreter, pick the option.

``execute_problem(item)`` takes one MathQA record (``Problem``, ``options``,
``correct``, ``linear_formula``) and returns a :class:`MathQAResult`; it never
raises for a bad item (a malformed record is a BAD_INPUT result, a malformed
formula a SYNTAX_ERROR one). ``read_mathqa(path)`` reads a MathQA file
(``.json`` or ``.json.gz``: a JSON list of such records).

``semantics`` picks whose numbers: ``Semantics.PROGEXEC`` (the default: the grammar and the
float op table of :mod:`progexec.datasets.mathqa.ops`) or ``Semantics.TRAX`` (google/trax's own string
reading and typed values, :mod:`progexec.datasets.mathqa.trax`; needs numpy and scipy).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from ...inputkinds import Wanted, dataset_format
from ...core.errors import OptionError, ProgramSyntaxError
from ...grammar.mathqa_parse import parse_annotated, parse_linear
from ...core.nodes import Program
from ...grammar.parse import check_program_length
from ...core.outcome import Outcome
from ...interp.evaluate import evaluate, syntax_outcome
from ...core.ops import OpTable
from ...core.status import Status
from .arithmetic import MATHQA_FLOAT
from .binding import number_texts
from .options import Option, kept_by_filter, parse_options, select_option
from .ops import MATHQA_OPS


MATHQA_FILE = Wanted("a MathQA dataset file (a JSON list of problems with linear_formula)", ("list", "lines"),
                     lambda value: dataset_format(value) == MATHQA_FORMAT)
"""What ``mathqa-python`` and :func:`read_problems` read."""

MATHQA_FORMAT = "mathqa"


class Semantics(Enum):
    """Whose reading and numerics a MathQA formula runs under (``--semantics``)."""

    PROGEXEC = "progexec"
    TRAX = "trax"


def _trax_runner() -> Any:
    try:
        from .trax import run_trax
    except ImportError as error:
        raise OptionError(f"--semantics trax needs numpy and scipy (pip install 'progexec[trax]'): {error}") from None
    return run_trax


def check_semantics(semantics: Semantics, annotated: bool, ops: OpTable) -> None:
    """Refuse combinations trax has no reading for; raise OptionError."""
    if semantics is Semantics.TRAX:
        if annotated:
            raise OptionError("trax executes linear_formula only; --annotated needs --semantics progexec")
        if ops is not MATHQA_OPS:
            raise OptionError("trax defines its own op table; the extended ops need --semantics progexec")
        _trax_runner()


@dataclass(frozen=True, slots=True)
class MathQAResult:
    """One executed MathQA problem.

    ``option`` is the letter the value selects (or None); ``match`` says whether the
    value is within 1 % of the *correct* option the way MathQA-Python's filter keeps
    problems (a positive option; see :func:`progexec.datasets.mathqa.options.kept_by_filter`);
    None when the correct option has no number.
    """

    id: str
    outcome: Outcome[float]
    options: Mapping[str, Option]
    correct: str | None
    option: str | None
    match: bool | None
    inputs: tuple[str, ...] = ()

    @property
    def value(self) -> float | None:
        value = self.outcome.value
        return value if isinstance(value, float) else None

    def record_fields(self) -> dict[str, Any]:
        """Nothing beyond :meth:`record`, which is the whole record."""
        return {}

    def gold_value(self) -> float | None:
        """The correct option's value (None when there is no correct option or it has no number)."""
        option = self.options.get(self.correct) if self.correct else None
        return option.value if option is not None else None

    def record(self) -> dict[str, Any]:
        """The JSON line ``progexec exec`` writes for this problem."""
        record: dict[str, Any] = {
            "id": self.id,
            "status": self.outcome.status.label,
            "code": int(self.outcome.status),
            "value": self.value,
            "option": self.option,
            "correct": self.correct,
            "match": self.match,
        }
        if not self.outcome.present:
            record["message"] = self.outcome.message
            if self.outcome.step is not None:
                record["step"] = self.outcome.step
        return record


def run_program(program: Program, inputs: Iterable[str], ops: OpTable = MATHQA_OPS) -> Outcome[float]:
    """Run a parsed MathQA program with ``nK`` bound to ``inputs`` (number texts).

    ``ops`` is MathQA-Python's table by default; ``MATHQA_EXTENDED_OPS`` also defines 11 more ops.
    """
    return evaluate(program, MATHQA_FLOAT, ops=ops, inputs=tuple(inputs))


def run_formula(formula: str, problem: str = "", annotated: bool = False, ops: OpTable = MATHQA_OPS,
                semantics: Semantics = Semantics.PROGEXEC) -> Outcome[float]:
    """Parse and run one formula against a problem text; a syntax error is a SYNTAX_ERROR outcome."""
    try:
        check_program_length(formula)
    except ProgramSyntaxError as error:
        return syntax_outcome(error)
    if semantics is Semantics.TRAX:
        check_semantics(semantics, annotated, ops)
        run_trax = _trax_runner()
        outcome: Outcome[float] = run_trax(formula, [float(text) for text in number_texts(problem)])
        return outcome
    try:
        program = parse_annotated(formula) if annotated else parse_linear(formula)
    except ProgramSyntaxError as error:
        return syntax_outcome(error)
    return run_program(program, number_texts(problem), ops)


def _bad(item_id: str, message: str) -> MathQAResult:
    return MathQAResult(item_id, Outcome(Status.BAD_INPUT, message=message), {}, None, None, None)


def execute_problem(item: Any, index: int = 0, annotated: bool = False, ops: OpTable = MATHQA_OPS,
                    semantics: Semantics = Semantics.PROGEXEC) -> MathQAResult:
    """Execute one MathQA record (its ``linear_formula``, or ``annotated_formula`` when asked)."""
    if not isinstance(item, dict):
        return _bad(str(index), f"item {index} is not an object")
    raw_id = item.get("id")
    item_id = str(raw_id) if isinstance(raw_id, (str, int)) and not isinstance(raw_id, bool) else str(index)
    field = "annotated_formula" if annotated else "linear_formula"
    formula, problem = item.get(field), item.get("Problem")
    if not isinstance(formula, str):
        return _bad(item_id, f"item {index} has no {field} string")
    if not isinstance(problem, str):
        return _bad(item_id, f"item {index} has no Problem string")
    raw_options, raw_correct = item.get("options"), item.get("correct")
    options = parse_options(raw_options) if isinstance(raw_options, str) else {}
    correct = raw_correct.strip() if isinstance(raw_correct, str) else None
    inputs = tuple(number_texts(problem))
    outcome = run_formula(formula, problem, annotated, ops, semantics)
    value = outcome.value if isinstance(outcome.value, float) else None
    option = select_option(value, options)
    correct_option = options.get(correct) if correct else None
    match: bool | None = None
    if correct_option is not None and correct_option.value is not None:
        match = value is not None and kept_by_filter(value, correct_option.value)
    return MathQAResult(item_id, outcome, options, correct, option, match, inputs)


def execute_all(items: Iterable[Any], annotated: bool = False, ops: OpTable = MATHQA_OPS,
                semantics: Semantics = Semantics.PROGEXEC) -> Iterator[MathQAResult]:
    """Execute records lazily, in input order."""
    check_semantics(semantics, annotated, ops)
    for index, item in enumerate(items):
        yield execute_problem(item, index, annotated, ops, semantics)


def read_mathqa(path: Path) -> list[Any]:
    """The records of a MathQA file, through the one reader path (:mod:`progexec.readers`: a path or ``-``,
    gzip by its bytes, bounded, a bad element one ``None`` record); a file that is not MathQA is refused."""
    from ...readers import read_records
    from ...core.errors import InputError

    try:
        return [record.value if record.error is None else None
                for record in read_records(path, wanted=MATHQA_FILE, document=False)]
    except InputError as error:
        raise InputError(str(error)) from None


def is_mathqa(data: Any) -> bool:
    """True for a parsed JSON document that is a list of MathQA records."""
    if not isinstance(data, list):
        return False
    first = next((item for item in data if isinstance(item, dict)), None)
    return first is not None and ("linear_formula" in first or "Problem" in first)
