"""MathQA and MathQA-Python: the second program family, executed and scored.

* :func:`execute_problem` runs one MathQA record's ``linear_formula`` on the one
  interpreter (``progexec.interp.evaluate``) with the :data:`MATHQA_OPS` table and
  the :class:`MathQAFloat` arithmetic (google/trax semantics), binds ``nK`` to the
  problem's numbers and says which option the value selects; ``semantics=Semantics.TRAX``
  runs google/trax's own reading and numerics instead (:mod:`progexec.datasets.mathqa.trax`).
* :mod:`progexec.datasets.mathqa.python_gen` translates MathQA items into MathQA-Python items;
  :mod:`progexec.datasets.mathqa.sandbox` runs untrusted snippets; :mod:`progexec.datasets.mathqa.score_python`
  scores predicted snippets against the gold answers.

Part of :mod:`progexec.datasets`: may import every layer below ``datasets``, never ``checker``,
``integrations`` or ``cli``.
"""

from .arithmetic import MATHQA_FLOAT, MathQAFloat, mathqa_constant
from .binding import bind_numbers, number_texts
from .execute import MathQAResult, Semantics, execute_all, execute_problem, read_mathqa, run_formula, run_program
from ...core.errors import OptionError
from .options import Option, kept_by_filter, option_value, parse_options, select_option, within_one_percent
from .ops import MATHQA_EXTENDED_OPS, MATHQA_OPS, MATHQA_PYTHON_OPS, UNSUPPORTED_OPS

__all__ = [
    "MATHQA_EXTENDED_OPS", "MATHQA_FLOAT", "MATHQA_OPS", "MATHQA_PYTHON_OPS", "MathQAFloat", "MathQAResult", "Option", "Semantics", "UNSUPPORTED_OPS",
    "bind_numbers", "execute_all", "execute_problem", "kept_by_filter", "mathqa_constant", "number_texts",
    "option_value", "parse_options", "read_mathqa", "run_formula", "run_program", "select_option",
    "within_one_percent",
]
