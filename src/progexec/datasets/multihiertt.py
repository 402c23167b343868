"""MultiHiertt (Zhao et al., ACL 2022): its program dialect and its official ``evaluate.py``, in one module.

Reproduced from psunlpgroup/MultiHiertt (``evaluate.py``, ``utils/program_generation_utils.py``,
``utils/utils.py``, ``utils/span_selection_utils.py``); every rule below is written in docs/multihiertt.md
with an example.

* **Programs**: ``program_tokenization`` splits the text on every ``,`` (not ``", "``) and strips each
  piece, so ``add(5,3)`` is valid and ``add(1,000, 5)`` is not. ``eval_program`` accepts only ``add``,
  ``subtract``, ``multiply``, ``divide`` and ``exp`` and rounds the last value to 5 places.
* **Numbers**: ``str_to_num`` removes ``$``, ``,``, ``-`` and ``%`` before ``float`` (``-5`` reads 5,
  ``5%`` reads 5, ``1e-3`` reads 1000.0) and reads ``const_m1`` as -1.
* **Scoring** (``evaluate.py``): a program prediction against a program gold compares the two executed
  values with ``==`` *whatever their invalid flags* (two invalid programs returning ``"n/a"`` match);
  a number against a program's answer uses ``math.isclose`` with
  ``abs_tol = min(abs(min(a, b)) / 1000, 0.1)``; spans use DROP's bag EM and F1 (F1 rounded by numpy).
"""

from __future__ import annotations

import enum
import math
import re
import string
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.dataset import Dialect
from ..core.errors import InputError, ProgramSyntaxError
from ..core.nodes import Program
from ..grammar.parse import check_program_length
from ..grammar.tokens import parse_tokens, tokens_of_pieces
from ..core.arithmetic import LiteralRule, official_str_to_num
from ..core.verdict import INVALID, OfficialVerdict
from ..interp.official import official_verdict
from ..core.ops import FINQA_OPS
from ..core.table import Table
from ..core.limits import current
from ..core.item import Item, bad_item
from ..jsonrecords import Record
from ..readers import make_item, qa_record
from ..core.plural import plural

MULTIHIERTT_LITERALS = LiteralRule("multihiertt", removed="$,-%", percent=False, const_marker="const_")
"""``str_to_num``: ``$ , - %`` removed, ``float``, then ``const_`` (``const_m1`` is -1)."""

MULTIHIERTT_OPS = {name: spec for name, spec in FINQA_OPS.items()
                   if spec.algebra in ("sum", "product", "exponentiation")}
"""``all_ops`` of ``program_generation_utils.py``: the five arithmetic ops (no ``greater``, no table ops)."""


def tokenize(text: str) -> list[str]:
    """``program_tokenization``: split on every ``,``, strip each piece, cut at parentheses, add ``EOF``."""
    return tokens_of_pieces([piece.strip() for piece in text.split(",")])


def parse(text: str) -> Program:
    """Program text read the way MultiHiertt reads it: its tokenization, then the strict token form.

    Raises ProgramSyntaxError (its ``bound`` set over ``max_program_chars``) where the tokens are not
    ``op(``, arg, arg, ``)`` steps; the official model still answers for such text (usually invalid).
    """
    check_program_length(text)
    try:
        return parse_tokens(tokenize(text))
    except ProgramSyntaxError as error:
        raise ProgramSyntaxError(f"{error.message} after MultiHiertt's tokenization (split on ',')",
                                 text, 1, 1) from None


def _official(tokens: Sequence[str], table: Table | None) -> OfficialVerdict:
    """The official verdict; an empty program (no token before ``EOF``) is invalid: ``eval_program`` runs no
    step and returns ``this_res = "n/a"``, the result it gives an invalid program, and ``evaluate.py``
    compares only that result, so nothing the empty program gives can be correct."""
    if all(token == "EOF" for token in tokens):
        return INVALID
    return official_verdict(tokens, table, MULTIHIERTT)


def _multihiertt(record: Record, stem: str) -> Iterator[Item]:
    """A MultiHiertt dataset record (``uid``, ``qa.program``, ``qa.answer``); a span question has no program."""
    read = qa_record(record, stem, MULTIHIERTT, id_key="uid")
    if isinstance(read, Item):
        yield read
        return
    item_id, _, qa = read
    program = qa.get("program") or None
    if program is None:
        yield bad_item(item_id, f"{record.where}: a span question (no program to run)", record.where, MULTIHIERTT)
        return
    yield make_item(item_id, program, None, qa.get("answer"), MULTIHIERTT, record.where, qa.get("answer"))


MULTIHIERTT = Dialect(
    name="multihiertt", title="MultiHiertt", ops=MULTIHIERTT_OPS, literals=MULTIHIERTT_LITERALS,
    tokenize=tokenize, parse=parse, official=_official, scorer="multihiertt", reward_policy="official",
    score=lambda gold, predictions: score_records(gold, predictions), compares_returned=True,
    program_example="add(128.2, 133.1), divide(#0, const_2)", reader=_multihiertt,
    summary="MultiHiertt (Zhao et al. 2022): five arithmetic ops; $ , - % stripped from numbers; split on ','")


def executed(program: str) -> Any:
    """What ``eval_program(program_tokenization(text))`` returns as its value (``this_res``), invalid flag or
    not: the gold side of ``evaluate.py``. See :func:`returned`."""
    return returned(official_verdict(tokenize(program), None, MULTIHIERTT))


def evaluated(prediction: Any) -> Any:
    """What ``eval_program(prediction)`` returns as its value: the prediction side of ``evaluate.py``, which
    passes the stored ``predicted_program`` as it is (a token list; a string is read character by character)."""
    tokens = list(prediction) if isinstance(prediction, (list, tuple, str)) else [prediction]
    return returned(official_verdict(tokens, None, MULTIHIERTT))


class _NotReal:
    """A complex ``this_res``: equal to nothing (as a complex never equals a float or ``"n/a"``)."""

    def __eq__(self, other: object) -> bool:
        return False

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "<complex>"


def returned(verdict: OfficialVerdict) -> Any:
    """The ``this_res`` an OfficialVerdict stands for: a float, ``"yes"``/``"no"``, ``"n/a"`` (so that two
    ``"n/a"`` compare equal, as they do in ``evaluate.py``), or a value equal to nothing for a complex."""
    if verdict.valid:
        return "n/a" if verdict.value is None else verdict.value
    return _NotReal() if verdict.leftover is None else verdict.leftover


# --- DROP-style span metrics (span_selection_utils.get_span_selection_metrics) ---------------------------

_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)
_PUNCTUATION = frozenset(string.punctuation)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _normalize_token(token: str) -> str:
    token = token.lower()
    if not _is_number(token):
        token = "".join(char for char in token if char not in _PUNCTUATION)
    if _is_number(token):
        token = str(float(token))
    return " ".join(_ARTICLES.sub(" ", token).split())


def normalize_answer(text: str) -> str:
    """``_normalize_answer``: split on space and ``-``, lower, drop punctuation (not in numbers), numbers
    as ``str(float)``, articles removed, white space folded."""
    parts = [_normalize_token(token) for token in re.split(" |-", text)]
    return " ".join(part for part in parts if part.strip()).strip()


def _bags(answer: str | Sequence[str]) -> tuple[list[str], list[set[str]]]:
    spans: list[str] = list(answer) if isinstance(answer, (list, tuple)) else [str(answer)]
    normalized = [normalize_answer(span) for span in spans]
    return normalized, [set(span.split()) for span in normalized]


def _f1(predicted: set[str], gold: set[str]) -> float:
    intersection = len(gold & predicted)
    precision = 1.0 if not predicted else intersection / float(len(predicted))
    recall = 1.0 if not gold else intersection / float(len(gold))
    return 0.0 if precision == 0.0 and recall == 0.0 else (2 * precision * recall) / (precision + recall)


def _numbers_match(gold: set[str], predicted: set[str]) -> bool:
    gold_numbers = {word for word in gold if _is_number(word)}
    return not gold_numbers or bool(gold_numbers & {word for word in predicted if _is_number(word)})


def _best_assignment(scores: list[list[float]]) -> list[float]:
    """``linear_sum_assignment`` on ``-scores`` then ``max_scores``: each gold row's score in a maximum-total
    one-to-one alignment (any optimum gives the same total, and only the total reaches the mean)."""
    rows, columns = len(scores), len(scores[0]) if scores else 0
    bound = current().max_answer_spans
    if min(rows, columns) > bound or max(rows, columns) > 8 * bound:
        raise InputError(f"an answer of {plural(max(rows, columns), 'span')} is over the limit of {bound} "
                         f"(max_answer_spans)", bound="max_answer_spans")
    transpose = columns > rows
    matrix = [list(row) for row in zip(*scores)] if transpose else scores
    rows, columns = len(matrix), len(matrix[0]) if matrix else 0
    best: dict[int, tuple[float, tuple[int, ...]]] = {0: (0.0, ())}  # columns used -> (total, column per row)
    for row in range(rows):
        step: dict[int, tuple[float, tuple[int, ...]]] = {}
        for used, (total, chosen) in best.items():
            options = [(total, chosen + (-1,), used)]
            options += [(total + matrix[row][column], chosen + (column,), used | 1 << column)
                         for column in range(columns) if not used >> column & 1]
            for value, picks, mask in options:
                if mask not in step or value > step[mask][0]:
                    step[mask] = (value, picks)
        best = step
    _, picks = max(best.values(), key=lambda entry: entry[0])
    size = max(len(scores), len(scores[0]) if scores else 0)
    result = [0.0] * size
    for row, column in enumerate(picks):
        if column >= 0:
            gold_row = column if transpose else row
            result[gold_row] = max(result[gold_row], matrix[row][column])
    return result


def _numpy_sum(values: Sequence[float]) -> float:
    """``np.add.reduce`` on a short float64 array: a plain loop below 8 values, eight partial sums above."""
    if len(values) < 8:
        total = 0.0
        for value in values:
            total += value
        return total
    partial = list(values[:8])
    end = len(values) - len(values) % 8
    for start in range(8, end, 8):
        for lane in range(8):
            partial[lane] += values[start + lane]
    total = ((partial[0] + partial[1]) + (partial[2] + partial[3])) + ((partial[4] + partial[5]) + (partial[6] + partial[7]))
    for value in values[end:]:
        total += value
    return total


def numpy_round(value: float, ndigits: int) -> float:
    """``round(numpy.float64(x), n)``: numpy rounds ``x * 10**n`` half to even, then divides."""
    scale = 10.0 ** ndigits
    return float(round(value * scale)) / scale


def span_metrics(predicted: str | Sequence[str], gold: str | Sequence[str]) -> tuple[float, float]:
    """``get_span_selection_metrics``: exact match of the normalised span lists, and the bag F1 (numpy-rounded)."""
    predicted_spans, predicted_bags = _bags(predicted)
    gold_spans, gold_bags = _bags(gold)
    exact = 1.0 if set(predicted_spans) == set(gold_spans) and len(predicted_spans) == len(gold_spans) else 0.0
    scores = [[_f1(pred, gold_bag) if _numbers_match(gold_bag, pred) else 0.0 for pred in predicted_bags]
              for gold_bag in gold_bags]
    per_bag = _best_assignment(scores)
    return exact, numpy_round(_numpy_sum(per_bag) / len(per_bag), 2)


# --- evaluate.py ----------------------------------------------------------------------------------------

class Branch(str, enum.Enum):
    """Which of ``evaluate.py``'s four branches scored an item (its comments name the last two the wrong way round)."""

    PROGRAMS = "program_vs_program"
    SPANS = "span_vs_span"
    SPAN_VS_PROGRAM_GOLD = "span_prediction_vs_program_gold"
    PROGRAM_VS_SPAN_GOLD = "program_prediction_vs_span_gold"


class Abort(str, enum.Enum):
    """Why the official script would stop with an exception on an item instead of scoring it."""

    NOT_COMPARABLE = "not_comparable"   # math.isclose of a string: TypeError
    BAD_CONSTANT = "bad_constant"       # str_to_num('const_x'): ValueError outside eval_program's try
    BAD_SPAN = "bad_span"               # a span answer that is not text


@dataclass(frozen=True, slots=True)
class ItemScore:
    """One item under ``evaluate.py``: exact match and F1, the branch that decided, and ``abort`` when the
    official script would have raised there (the item then scores 0 here and the run is marked)."""

    exact_match: float
    f1: float
    branch: Branch
    abort: Abort | None = None
    message: str = ""


def _str_to_num(text: str) -> float | str:
    """``utils.str_to_num``, raising where it raises (``const_x``): ValueError."""
    value = official_str_to_num(text, MULTIHIERTT_LITERALS)
    if value is None:
        stripped = MULTIHIERTT_LITERALS.strip(text)
        if "const_" in stripped:
            raise ValueError(f"could not convert {stripped.replace('const_', '')!r} to float")
        return "n/a"
    return value


def span_vs_program(span_answer: Any, program_answer: Any, branch: Branch) -> ItemScore:
    """``evaluate_span_program_result``: a number read from the span against the program's answer by
    ``math.isclose(abs_tol=min(abs(min(a, b)) / 1000, 0.1))``, else span metrics on the texts."""
    span_text = str(span_answer)
    try:
        number = _str_to_num(span_text)
    except ValueError as error:
        return ItemScore(0.0, 0.0, branch, Abort.BAD_CONSTANT, str(error))
    if number != "n/a":
        assert isinstance(number, float)
        if isinstance(program_answer, bool) or not isinstance(program_answer, (int, float)):
            return ItemScore(0.0, 0.0, branch, Abort.NOT_COMPARABLE,
                             f"math.isclose({program_answer!r}, {number!r}): the answer is not a number")
        tolerance = min(abs(min(program_answer, number) / 1000), 0.1)
        close = math.isclose(program_answer, number, abs_tol=tolerance)
        return ItemScore(float(close), float(close), branch)
    exact, f1 = span_metrics(span_text, str(program_answer))
    return ItemScore(exact, f1, branch)


def score_item(predicted_answer: Any, predicted_program: Any, gold_answer: Any, gold_program: Any) -> ItemScore:
    """One item of ``evaluation_prediction_result``: the branch by which sides have a program, then its rule."""
    if predicted_program and gold_program:
        same = evaluated(predicted_program) == executed(str(gold_program))
        return ItemScore(float(same), float(same), Branch.PROGRAMS)
    if not predicted_program and not gold_program:
        if not _is_text(predicted_answer) or not _is_text(gold_answer):
            return ItemScore(0.0, 0.0, Branch.SPANS, Abort.BAD_SPAN, "a span answer is not text or a list of text")
        exact, f1 = span_metrics(predicted_answer, gold_answer)
        return ItemScore(exact, f1, Branch.SPANS)
    if not predicted_program:
        return span_vs_program(predicted_answer, gold_answer, Branch.SPAN_VS_PROGRAM_GOLD)
    return span_vs_program(gold_answer, predicted_answer, Branch.PROGRAM_VS_SPAN_GOLD)


@dataclass(frozen=True, slots=True)
class ScoredQuestion:
    """One gold question of a run: its score, or ``missing`` when no prediction names its uid."""

    uid: str
    score: ItemScore | None

    def record(self) -> dict[str, Any]:
        if self.score is None:
            return {"id": self.uid, "status": "no_prediction", "exact_match": 0.0, "f1": 0.0, "would_abort": True}
        record: dict[str, Any] = {"id": self.uid, "status": "scored", "exact_match": self.score.exact_match,
                                  "f1": self.score.f1, "branch": self.score.branch.value,
                                  "would_abort": self.score.abort is not None}
        if self.score.abort is not None:
            record["abort"] = self.score.abort.value
            record["message"] = self.score.message
        return record


@dataclass(frozen=True, slots=True)
class MultiHierttScore:
    """``evaluation_prediction_result`` over a whole run: EM and F1 summed over the gold questions and divided
    by their number. Predictions are matched by uid, the first of a repeated uid kept (``combine_predictions``);
    a gold question without a prediction scores 0 here where the official script stops with a KeyError."""

    questions: tuple[ScoredQuestion, ...]
    unknown: tuple[str, ...]
    duplicates: tuple[str, ...]
    unreadable: tuple[str, ...]

    @property
    def n(self) -> int:
        return len(self.questions)

    @property
    def exact_match(self) -> float:
        total = 0.0
        for question in self.questions:
            total += question.score.exact_match if question.score else 0.0
        return total / self.n if self.n else 0.0

    @property
    def f1(self) -> float:
        total = 0.0
        for question in self.questions:
            total += question.score.f1 if question.score else 0.0
        return total / self.n if self.n else 0.0

    @property
    def would_abort(self) -> tuple[str, ...]:
        return tuple(q.uid for q in self.questions if q.score is None or q.score.abort is not None)

    def record(self) -> dict[str, Any]:
        branches: dict[str, int] = {}
        for question in self.questions:
            if question.score is not None:
                branches[question.score.branch.value] = branches.get(question.score.branch.value, 0) + 1
        return {"dialect": "multihiertt", "n": self.n, "exact_match": self.exact_match, "f1": self.f1,
                "branches": dict(sorted(branches.items())),
                "coverage": {"not_in_gold": list(self.unknown), "duplicate_ids": list(self.duplicates),
                             "missing_ids": [q.uid for q in self.questions if q.score is None],
                             "unreadable": list(self.unreadable)},
                "would_abort": list(self.would_abort)}

    def table(self) -> list[str]:
        lines = [f"n = {plural(self.n, 'gold question')} (evaluate.py divides by the gold count)",
                 f"Exact Match Score: {self.exact_match!r}, F1 Score: {self.f1!r}"]
        for label, ids in (("predictions not in the gold (ignored, as evaluate.py ignores them)", self.unknown),
                           ("repeated prediction uids (the first kept, as combine_predictions keeps it)",
                            self.duplicates),
                           ("unreadable prediction records", self.unreadable),
                           ("questions the official script would stop on", self.would_abort)):
            if ids:
                lines.append(f"{label}: {len(ids)}: {', '.join(ids[:5])}{' ...' if len(ids) > 5 else ''}")
        return lines

    @property
    def ok(self) -> bool:
        return not self.would_abort

    def headline(self) -> str:
        aborts = len(self.would_abort)
        return (f"exact match {self.exact_match:.4f}, F1 {self.f1:.4f}"
                + (f"; the official script would stop on {plural(aborts, 'question')}" if aborts else ""))


def score_records(gold: Sequence[Any], predictions: Sequence[Any]) -> MultiHierttScore:
    """Score prediction records ``{uid, predicted_ans, predicted_program}`` against dataset records
    ``{uid, qa: {answer, program}}`` (raw JSON values; an unusable one is listed, never dropped)."""
    by_uid: dict[str, Any] = {}
    duplicates: list[str] = []
    unreadable: list[str] = []
    for index, record in enumerate(predictions):
        uid = record.get("uid") if isinstance(record, dict) else None
        if not isinstance(uid, str):
            unreadable.append(f"prediction {index + 1}")
        elif uid in by_uid:
            duplicates.append(uid)
        else:
            by_uid[uid] = record
    questions: list[ScoredQuestion] = []
    gold_uids: set[str] = set()
    for index, example in enumerate(gold):
        uid = example.get("uid") if isinstance(example, dict) else None
        qa = example.get("qa") if isinstance(example, dict) else None
        if not isinstance(uid, str) or not isinstance(qa, dict):
            questions.append(ScoredQuestion(f"gold-{index + 1}", None))
            continue
        gold_uids.add(uid)
        pred = by_uid.get(uid)
        if pred is None:
            questions.append(ScoredQuestion(uid, None))
            continue
        try:
            score = score_item(pred.get("predicted_ans"), pred.get("predicted_program"), qa.get("answer"),
                               qa.get("program"))
        except InputError as error:
            if error.bound != "max_answer_spans":
                raise
            score = ItemScore(0.0, 0.0, Branch.SPANS, Abort.BAD_SPAN, str(error))
        questions.append(ScoredQuestion(uid, score))
    unknown = tuple(uid for uid in by_uid if uid not in gold_uids)
    return MultiHierttScore(tuple(questions), unknown, tuple(duplicates), tuple(unreadable))


def _is_text(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, (list, tuple)) and all(isinstance(part, str) for part in value))


__all__ = ["MULTIHIERTT", "MULTIHIERTT_LITERALS", "MULTIHIERTT_OPS", "tokenize", "parse", "executed", "evaluated", "returned",
           "normalize_answer", "span_metrics", "numpy_round", "span_vs_program", "score_item", "ItemScore",
           "Branch", "Abort", "ScoredQuestion", "MultiHierttScore", "score_records"]
