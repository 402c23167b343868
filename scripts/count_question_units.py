"""Count the rows whose ``--table-units`` unit the question decides (docs/reward-integrations.md, "Units").

For each row of the given official FinQA / ConvFinQA files: the unit the table or a passage states
(the rule before the question was read) against the unit ``progexec rows --table-units`` now gives
(:func:`progexec.integrations.rows.row_unit`). Prints one line per file and the total per kind::

    PYTHONPATH=src python scripts/count_question_units.py finqa/test.json finqa/dev.json convfinqa/dev.json
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterable

from progexec.integrations.rows import examples, row_unit, table_unit

KINDS = ("question scale differs from the table's", "question scale, table states none",
         "question asks a percentage (table unit dropped)", "question names two units (no unit)")


def changed(source: str) -> Counter[str]:
    """How many rows of ``source`` change unit, by kind (see :data:`KINDS`)."""
    counts: Counter[str] = Counter()
    for example in examples(source):
        before = table_unit(example.gold.get("table"), example.pre_text, example.post_text)
        after, asked = row_unit(example)
        if len(asked) > 1:
            counts[KINDS[3]] += 1
        elif after == before:
            continue
        elif asked == ["percent"]:
            counts[KINDS[2]] += 1
        elif before is None:
            counts[KINDS[1]] += 1
        else:
            counts[KINDS[0]] += 1
    return counts


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("files", nargs="+", help="official FinQA or ConvFinQA files")
    args = parser.parse_args(None if argv is None else list(argv))
    total: Counter[str] = Counter()
    for source in args.files:
        counts = changed(source)
        total.update(counts)
        print(f"{source}: " + ", ".join(f"{kind} {counts[kind]}" for kind in KINDS))
    print("total: " + ", ".join(f"{kind} {total[kind]}" for kind in KINDS) + f"; all {sum(total.values())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
