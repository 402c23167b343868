"""The code of a program-of-thought output, extracted as FinanceMath's ``process_single_pot_output`` does.

Read from ``utils/evaluation_utils.py`` of yale-nlp/FinanceMath (DocMath-Eval has the same
function) and reproduced rule by rule, quirks included (``scripts/crosscheck_financemath.py``
compares this with the original on every published output):

1. an empty output, or one containing ``argparse`` anywhere, gives no code;
2. otherwise the first fenced block opened by three backticks and ``python`` (up to the
   next three backticks), with newlines (only) stripped from both ends;
3. otherwise the first block between two runs of three backticks, likewise;
4. otherwise, when the output has exactly one run of three backticks and no
   ``def solution():``, the text before it becomes the body of a ``def solution():``
   (indented by four spaces unless it already starts with them);
5. otherwise an output without ``def solution():`` becomes such a body the same way, and
   one with it is the output, whitespace-stripped;
6. finally backticks, then whitespace, are stripped from both ends.

Rule 4's and 5's wrapping only indents the first line, so a multi-line body without its own
indentation is a syntax error, as in the original.
"""

from __future__ import annotations

FENCE = "```"
HEADER = "def solution():"


def _wrap(text: str) -> str:
    if len(text) > 4 and text.startswith("    "):
        return HEADER + "\n" + text
    return HEADER + "\n    " + text


def extract_code(output: str | None) -> str:
    """The Python code FinanceMath's evaluation would execute for this model output."""
    if not output or "argparse" in output:
        return ""
    start = output.find(FENCE + "python")
    end = output.find(FENCE, start + len(FENCE) + 6) if start >= 0 else -1
    if start >= 0 and end >= 0:
        code = output[start + len(FENCE) + 6:end].strip("\n")
    else:
        start = output.find(FENCE)
        end = output.find(FENCE, start + len(FENCE)) if start >= 0 else -1
        if start >= 0 and end >= 0:
            code = output[start + len(FENCE):end].strip("\n")
        elif output.count(FENCE) == 1 and HEADER not in output:
            code = _wrap(output.split(FENCE)[0])
        elif HEADER not in output:
            code = _wrap(output)
        else:
            code = output.strip()
    return code.strip("`").strip()
