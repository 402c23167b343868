"""The divergence classes of ``check-evaluator`` (data; reporters format them)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..divergence import UNANSWERED


class EvalDivergence(str, Enum):
    """Why a port's answer differs from the official one; ``.explain`` says it in a line."""

    NAIVE_ROUNDING = "naive_rounding"
    HALF_UP_ROUNDING = "half_up_rounding"
    NO_FINAL_ROUNDING = "no_final_rounding"
    PER_STEP_ROUNDING = "per_step_rounding"
    DECIMAL_ARITHMETIC = "decimal_arithmetic"
    FLOAT32_ARITHMETIC = "float32_arithmetic"
    TOKENIZER = "tokenizer"
    LITERAL_READING = "literal_reading"
    TABLE_LOOKUP = "table_lookup"
    ANSWERS_WHERE_OFFICIAL_REFUSES = "answers_where_official_refuses"
    REFUSES_WHERE_OFFICIAL_ANSWERS = "refuses_where_official_answers"
    YES_NO = "yes_no"
    OVERFLOW_COMPLEX = "overflow_complex"
    STATUS_CODE = "status_code"
    LIBM_POW = "libm_pow"
    SIGN_OF_ZERO = "sign_of_zero"
    OTHER = "other"
    NOT_FLOAT = "not_float"
    EXCEPTION = "exception"
    UNPARSEABLE = "unparseable"
    WRONG_ID = "wrong_id"
    NO_ANSWER = "no_answer"
    OUTPUT_FLOOD = "output_flood"
    NO_EXIT = "no_exit"
    BAD_EXIT = "bad_exit"
    UNFLUSHED = "unflushed"

    @property
    def explain(self) -> str:
        return _EXPLAIN[self]

    @property
    def minor(self) -> bool:
        """A lesser class: fails the run only with ``--strict``."""
        return self in (EvalDivergence.LIBM_POW, EvalDivergence.SIGN_OF_ZERO, EvalDivergence.UNFLUSHED)

    @property
    def unanswered(self) -> bool:
        """The case got no answer (the port died, hung, flooded): a protocol failure, not a wrong answer."""
        return self.value in UNANSWERED


_EXPLAIN = {
    EvalDivergence.NAIVE_ROUNDING: "the final value rounded through the product x * 1e5 (round, Math.round, floor(+0.5): "
                                   "double rounding), not CPython round(x, 5)",
    EvalDivergence.HALF_UP_ROUNDING: "the final value's decimal digits rounded half up (currency rounding, JS toFixed: "
                                     "ties away from zero), not half-even",
    EvalDivergence.NO_FINAL_ROUNDING: "the final value is not rounded to 5 places",
    EvalDivergence.PER_STEP_ROUNDING: "every intermediate result rounded to 5 places, not only the final one",
    EvalDivergence.DECIMAL_ARITHMETIC: "decimal arithmetic instead of binary float64",
    EvalDivergence.FLOAT32_ARITHMETIC: "single precision (float32) numbers instead of float64",
    EvalDivergence.TOKENIZER: "program text split or parsed differently from the official ', ' tokenizer (spaces, "
                              "commas, a step without its ')')",
    EvalDivergence.LITERAL_READING: "a literal or cell read differently from the official str_to_num ('1,000', '5%', const_m1, float() forms)",
    EvalDivergence.TABLE_LOOKUP: "table rows looked up or aggregated differently (duplicate rows, '$', '( 5 )', empty rows, the stale-row quirk)",
    EvalDivergence.ANSWERS_WHERE_OFFICIAL_REFUSES: "the port answers where the official evaluator says invalid",
    EvalDivergence.REFUSES_WHERE_OFFICIAL_ANSWERS: "the port says invalid where the official evaluator answers",
    EvalDivergence.YES_NO: "greater / yes-no handled differently (a number, a boolean, >= instead of >)",
    EvalDivergence.OVERFLOW_COMPLEX: "inf, nan or complex results handled differently (the official answers inf and nan)",
    EvalDivergence.STATUS_CODE: "flat: the right presence but a different contract status code",
    EvalDivergence.LIBM_POW: "lesser: exp differs from CPython's ** by one ulp (libm pow is not correctly rounded)",
    EvalDivergence.SIGN_OF_ZERO: "lesser: a zero with the wrong sign (equal under ==)",
    EvalDivergence.OTHER: "a different answer no single-rule variant reproduces",
    EvalDivergence.NOT_FLOAT: "the value is not a number, 'yes', 'no' or null (or not (valid, value))",
    EvalDivergence.EXCEPTION: "the --python function raised (SystemExit and BaseException included)",
    EvalDivergence.UNPARSEABLE: "the answer line is not the protocol's JSON object",
    EvalDivergence.WRONG_ID: "the answer carries another case's id (answers out of order)",
    EvalDivergence.NO_ANSWER: "the port died or hung (killed), or was given up on",
    EvalDivergence.OUTPUT_FLOOD: "the port wrote more than asked: an over-long line, more answers than cases, output after the end",
    EvalDivergence.NO_EXIT: "the port did not exit at end of input, or left a process holding its output open",
    EvalDivergence.BAD_EXIT: "the port exited with a non-zero code at end of input",
    EvalDivergence.UNFLUSHED: "lesser: the port held its answers until end of input (it does not flush); run in batch mode",
}


@dataclass(frozen=True, slots=True)
class Failure:
    """An answer that is not a verdict: a protocol failure for one case."""

    kind: EvalDivergence
    detail: str
