#!/usr/bin/env python3
"""Build the small official-format files `progexec rows` is tested on: tests/data/rows/*.json.

* finqa_test_3.json — the first 3 items of an original-format FinQA test copy
  (`finqa/sources/original_format/dolphin2333_test_100.json` of the shared data: the official
  structure with `pre_text`, `post_text`, `table`, `qa`), the retriever fields dropped.
* convfinqa_dev_2.json — the first 2 conversations of ConvFinQA dev (`convfinqa/dev.json`:
  `id`, `table`, `annotation`) in the official shape, with their `pre_text` / `post_text` taken from
  the Tomoro-format copy of the same conversation (`convfinqa/sources/tomoro_format_...json.gz`,
  where each passage is one joined string; here a one-element list).
* mathqa_test_3.json — the first 3 problems of the official MathQA test file, `Rationale` dropped.

FinQA and ConvFinQA: MIT (Chen et al. 2021, 2022); MathQA: Apache-2.0 (Amini et al. 2019).

  python scripts/build_rows_fixtures.py --data /path/to/shared/data
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "rows"
FINQA_KEYS = ("pre_text", "post_text", "filename", "table_ori", "table", "qa", "id")
QA_KEYS = ("question", "answer", "explanation", "ann_table_rows", "ann_text_rows", "steps", "program", "gold_inds",
           "exe_ans", "program_re")


def _write(name: str, data: Any) -> None:
    (OUT / name).write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT / name}")


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="the shared data folder (finqa/, convfinqa/, mathqa/)")
    data = parser.parse_args().data
    OUT.mkdir(parents=True, exist_ok=True)
    finqa = json.loads((data / "finqa/sources/original_format/dolphin2333_test_100.json").read_text("utf-8"))
    _write("finqa_test_3.json", [{**{key: item[key] for key in FINQA_KEYS if key != "qa"},
                                  "qa": {key: item["qa"][key] for key in QA_KEYS if key in item["qa"]}}
                                 for item in finqa[:3]])
    conversations = json.loads((data / "convfinqa/dev.json").read_text("utf-8"))[:2]
    with gzip.open(data / "convfinqa/sources/tomoro_format_convfinqa_dataset_dev.json.gz", "rt") as handle:
        docs = {entry["id"]: entry["doc"] for entry in json.load(handle)["dev"]}
    _write("convfinqa_dev_2.json", [{"pre_text": [docs[item["id"]]["pre_text"]],
                                     "post_text": [docs[item["id"]]["post_text"]],
                                     "table": item["table"], "id": item["id"], "annotation": item["annotation"]}
                                    for item in conversations])
    with gzip.open(data / "mathqa/test.json.gz", "rt") as handle:
        mathqa = json.load(handle)[:3]
    _write("mathqa_test_3.json", [{key: value for key, value in item.items() if key != "Rationale"}
                                  for item in mathqa])


if __name__ == "__main__":
    main()
