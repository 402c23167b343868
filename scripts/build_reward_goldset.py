#!/usr/bin/env python3
"""Build the reward gold set of real ConvFinQA LLM answers: tests/data/rewards/convfinqa_sonnet.jsonl.gz.

One line per turn of tests/data/predictions/zarifaziz-claude-sonnet-4-6_convfinqa-dev_predictions.jsonl.gz
(Claude Sonnet 4.6 on ConvFinQA dev, from zarifaziz/convfinqa). The completion is the model's own
text: its reasoning, then ``Answer: <its answer>`` (``%`` appended when the model declared the unit
``percent``). The gold is the embedded ConvFinQA turn (answer, program, table). The expected
reward under each policy comes from outside progexec:

* official — the ConvFinQA evaluator's rule for a one-token program (the answer text read by
  ``str_to_num``: commas dropped, ``float``, else ``%`` / 100; rounded to 5 places), ``==`` to the gold;
* numeric — the dataset scorer's own ``correct`` flag, except the turns listed in OVERRIDES, each
  reviewed by hand against the written rule of docs/reward.md (the reason is on the line);
* helm — HELM's own ``float_equiv(completion, str(gold))``, executed from HELM's source file
  (``--helm-source``: src/helm/benchmark/metrics/conv_fin_qa_calc_metrics.py of stanford-crfm/helm).

Run from the repository root:
  python scripts/build_reward_goldset.py --helm-source PATH/conv_fin_qa_calc_metrics.py
"""

from __future__ import annotations

import argparse
import ast
import gzip
import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PREDICTIONS = ROOT / "tests" / "data" / "predictions" / "zarifaziz-claude-sonnet-4-6_convfinqa-dev_predictions.jsonl.gz"
CORPUS = ROOT / "src" / "progexec" / "data" / "convfinqa.jsonl.gz"
OUT = ROOT / "tests" / "data" / "rewards" / "convfinqa_sonnet.jsonl.gz"

SCALE = "scale: the answer ends in %, so it is read as a hundredth, and the gold is written as the percentage " \
        "number; a scale mismatch by the written rule (the dataset's scorer accepts either scale)"
PRECISION = "precision: the answer is neither within 0.1 % of the gold nor the gold rounded to three or more " \
            "significant digits (the dataset's scorer accepts it)"
TWO_ANSWERS = "two answers: the reasoning says 'the answer is 13.4%' and the final line 13.44%"

OVERRIDES: dict[tuple[str, int], tuple[str, str]] = {
    # (record id, turn): (expected numeric status, why the dataset's own verdict is not the rule's)
    ("Single_IPG/2009/page_85.pdf-3", 1): ("scale_mismatch", SCALE),
    ("Single_DVN/2007/page_58.pdf-3", 1): ("scale_mismatch", SCALE),
    ("Double_PM/2017/page_38.pdf", 4): ("wrong", PRECISION),
    ("Double_PM/2017/page_38.pdf", 5): ("wrong", PRECISION),
    ("Double_PM/2017/page_38.pdf", 6): ("wrong", PRECISION),
    ("Double_INTC/2013/page_33.pdf", 2): ("wrong", PRECISION),
    ("Double_ZBH/2003/page_40.pdf", 0): ("scale_mismatch", SCALE),
    ("Double_ZBH/2003/page_40.pdf", 1): ("scale_mismatch", SCALE),
    ("Double_ZBH/2003/page_40.pdf", 2): ("scale_mismatch", SCALE),
    ("Double_ZBH/2003/page_40.pdf", 3): ("scale_mismatch", SCALE),
    ("Double_CDNS/2012/page_30.pdf", 4): ("scale_mismatch", SCALE),
    ("Single_PM/2015/page_38.pdf-1", 0): ("scale_mismatch", SCALE),
    ("Single_PM/2015/page_38.pdf-1", 1): ("scale_mismatch", SCALE),
    ("Single_PM/2015/page_38.pdf-1", 2): ("scale_mismatch", SCALE),
    ("Single_DVN/2007/page_58.pdf-2", 1): ("scale_mismatch", SCALE),
    ("Single_DRE/2002/page_40.pdf-2", 4): ("scale_mismatch", SCALE),
    ("Single_DRE/2002/page_40.pdf-1", 2): ("scale_mismatch", SCALE),
    ("Single_IPG/2008/page_21.pdf-1", 3): ("scale_mismatch", SCALE),
    ("Double_PNC/2009/page_46.pdf", 1): ("scale_mismatch", SCALE),
    ("Single_IPG/2015/page_37.pdf-1", 4): ("scale_mismatch", SCALE),
    ("Single_DRE/2007/page_59.pdf-2", 3): ("scale_mismatch", SCALE),
    ("Single_ABMD/2004/page_26.pdf-1", 3): ("wrong", PRECISION),
    ("Single_PM/2015/page_38.pdf-2", 0): ("scale_mismatch", SCALE),
    ("Single_PM/2015/page_38.pdf-2", 1): ("scale_mismatch", SCALE),
    ("Single_PM/2018/page_31.pdf-2", 0): ("scale_mismatch", SCALE),
    ("Single_PM/2018/page_31.pdf-2", 1): ("scale_mismatch", SCALE),
    ("Single_PM/2018/page_31.pdf-2", 2): ("scale_mismatch", SCALE),
    ("Single_DISCA/2012/page_39.pdf-4", 0): ("scale_mismatch", SCALE),
    ("Single_PNC/2009/page_46.pdf-4", 0): ("scale_mismatch", SCALE),
    ("Single_PNC/2009/page_46.pdf-4", 1): ("scale_mismatch", SCALE),
    ("Single_PNC/2009/page_46.pdf-4", 2): ("scale_mismatch", SCALE),
    ("Single_PNC/2009/page_46.pdf-4", 3): ("scale_mismatch", SCALE),
    ("Single_CDNS/2012/page_30.pdf-2", 5): ("scale_mismatch", SCALE),
    ("Single_PM/2017/page_38.pdf-2", 1): ("multiple_answers", TWO_ANSWERS),
    ("Double_GS/2017/page_143.pdf", 2): ("wrong", PRECISION),
    ("Single_ABMD/2009/page_88.pdf-4", 1): ("wrong", PRECISION),
    ("Single_UNP/2015/page_35.pdf-2", 4): ("wrong", PRECISION),
    ("Double_PM/2018/page_24.pdf", 5): ("scale_mismatch", SCALE),
    ("Double_C/2017/page_328.pdf", 2): ("scale_mismatch", SCALE),
    ("Double_DVN/2014/page_85.pdf", 4): ("scale_mismatch", SCALE),
    ("Single_JKHY/2014/page_30.pdf-2", 2): ("scale_mismatch", SCALE),
}


def helm_float_equiv(source: Path) -> Callable[[str, str], float]:
    """HELM's own ``float_equiv``, compiled from its source file (its logger call replaced by a no-op)."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    wanted: list[ast.stmt] = [node for node in tree.body
                              if isinstance(node, ast.FunctionDef) and node.name in ("_strip_string", "float_equiv")]
    if len(wanted) != 2:
        raise SystemExit(f"{source}: no _strip_string / float_equiv functions found")
    namespace: dict[str, Any] = {"re": re, "Any": Any, "hwarn": lambda *args, **kwargs: None}
    exec(compile(ast.Module(body=wanted, type_ignores=[]), str(source), "exec"), namespace)  # noqa: S102
    function: Callable[[str, str], float] = namespace["float_equiv"]
    return function


def official_bare(text: str) -> float | None:
    """ConvFinQA's evaluator on a one-token program: ``str_to_num`` then ``round(., 5)``; None = invalid."""
    text = text.replace(",", "")
    try:
        value = float(text)
    except ValueError:
        if "%" not in text:
            return None
        try:
            value = float(text.replace("%", "")) / 100.0
        except ValueError:
            return None
    return round(value, 5)


def build(helm_source: Path) -> bytes:
    float_equiv = helm_float_equiv(helm_source)
    with gzip.open(CORPUS, "rt", encoding="utf-8") as handle:
        corpus = {record["id"]: record for record in map(json.loads, handle)}
    with gzip.open(PREDICTIONS, "rt", encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]
    lines = []
    for row in rows:
        record, turn = corpus[row["record_id"]], row["turn_idx"]
        answer = str(row["predicted_answer"]) + ("%" if row["predicted_unit"] == "percent" else "")
        completion = f"{row['predicted_reasoning']}\n\nAnswer: {answer}"
        gold_answer = record["exe_ans_list"][turn]
        official = official_bare(answer)
        override = OVERRIDES.get((row["record_id"], turn))
        numeric: dict[str, Any] = {"score": 1.0 if row["correct"] else 0.0}
        if override is not None:
            numeric = {"score": 1.0 if override[0] == "ok" else 0.0, "status": override[0], "why": override[1]}
        lines.append({
            "id": f"{row['record_id']}#{turn}",
            "completion": completion,
            "gold": {"answer": gold_answer, "program": record["turn_program"][turn], "table": record["table"],
                     "dialect": "convfinqa"},
            "expected": {
                "official": {"score": 1.0 if official is not None and official == gold_answer else 0.0},
                "numeric": numeric,
                "helm": {"score": float(float_equiv(completion, str(gold_answer)))},
            },
            "dataset_correct": row["correct"],
        })
    missing = set(OVERRIDES) - {(row["record_id"], row["turn_idx"]) for row in rows}
    if missing:
        raise SystemExit(f"overrides name turns not in the predictions: {sorted(missing)}")
    text = "".join(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n" for line in lines)
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0, filename="") as handle:
        handle.write(text.encode("utf-8"))
    return buffer.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--helm-source", type=Path, required=True,
                        help="HELM's src/helm/benchmark/metrics/conv_fin_qa_calc_metrics.py")
    args = parser.parse_args()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(build(args.helm_source))
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
