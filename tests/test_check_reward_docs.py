"""docs/check-reward.md says what the code does: its forms table is the forms' own list, its zoo
table names functions that exist, its signatures and classes are the command's."""

from __future__ import annotations

import re
from pathlib import Path

from progexec.checker.reward.caller import SIGNATURES
from progexec.checker.reward.classes import DEFAULT_FAIL_ON, RewardClass
from progexec.checker.reward.forms import FORMS
from tests import reward_zoo

DOC = (Path(__file__).resolve().parents[1] / "docs" / "check-reward.md").read_text(encoding="utf-8")


def section(begin: str, end: str) -> str:
    return DOC[DOC.index(begin) + len(begin):DOC.index(end)]


def rows(text: str) -> list[list[str]]:
    return [[cell.strip() for cell in line.strip().strip("|").split(" | ")] for line in text.splitlines()
            if line.startswith("| ") and not line.startswith("|---")][1:]


def test_the_forms_table_is_the_forms() -> None:
    table = rows(section("<!-- forms -->", "<!-- /forms -->"))
    assert [(row[0].strip("`"), row[1] == "reward", row[2]) for row in table] == \
        [(form.name, form.correct, form.policy) for form in FORMS]


def test_the_class_table_is_the_classes_and_their_defaults() -> None:
    table = rows(section("## The classes", "`--fail-on` lists"))
    assert [row[0].strip("`") for row in table] == [kind.value for kind in RewardClass]
    assert {row[0].strip("`") for row in table if row[2] == "yes"} == {kind.value for kind in DEFAULT_FAIL_ON}


def test_every_signature_is_documented() -> None:
    table = rows(section("## How the function is called", "`--url URL`"))
    assert [row[0].split()[0].strip("`") for row in table] == list(SIGNATURES[-1:] + SIGNATURES[:-1])


def test_the_zoo_table_names_real_functions() -> None:
    table = rows(section("## What the zoo shows", "## Real reward functions"))
    assert len(table) == 9
    for row in table:
        assert callable(getattr(reward_zoo, row[0].strip("`")))
        assert re.search(r"`(false_positive|false_negative|thread_dependent|nondeterministic|hang|bad_return)`", row[2])


def test_the_python_example_runs_and_says_what_the_doc_says() -> None:
    block = section("## From Python\n\n```python\n", "```\n\n(`tests/test_check_reward_docs.py`")
    last = block.strip().splitlines()[-1]
    expression, _, shown = last.partition("#")
    namespace: dict[str, object] = {}
    exec(block, namespace)  # the doc's own code, then its last line's value against its comment
    assert repr(eval(expression, namespace)) == shown.strip()


def test_the_peer_table_is_the_scripts_table_with_a_measured_rate_for_each_peer() -> None:
    """The table between the peers markers has the shape scripts/measure_reward_peers.py writes (its header and
    its lead line), and a measured rate in cases/s for every peer: Math-Verify, verl's gsm8k, math_reward and
    prime_math (measured in the RL environment, where prime_math's torch import works)."""
    import sys

    from progexec.checker.reward.check import RewardReport

    scripts = str(Path(__file__).resolve().parents[1] / "scripts")
    sys.path.insert(0, scripts)
    try:
        import measure_reward_peers as script  # type: ignore[import-not-found]
    finally:
        sys.path.remove(scripts)
    written = script.tables([("f", RewardReport("m:f", "plain", 0, 0.5, (0.0, 1.0), "record"), 12.5)], 1000)
    peers = section("<!-- peers -->", "<!-- /peers -->").strip()
    assert peers.splitlines()[:4] == written.splitlines()[:4]  # the lead line, the header with cases/s
    table = {row[0]: row for row in rows(peers.split("\n\n", 1)[1].split("\n\n", 1)[0])}
    assert all(len(row) == 9 for row in table.values())
    rates = {label.split()[0] + " " + label.split()[1]: row[-1] for label, row in table.items()}
    for peer in ("Math-Verify `verify(parse(gold),", "verl `gsm8k.compute_score`", "verl `math_reward.compute_score`",
                 "verl `prime_math.compute_score`"):
        assert re.fullmatch(r"[\d,]+(\.\d)?", rates[peer]), (peer, rates[peer])
