"""The reward core's contract: fixed record shape, typed refusals for bad golds and policies, policy
precedence, size bounds, and never an exception, whatever the completion or the gold."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, strategies as st

from progexec.reward import (MAX_COMPLETION_CHARS, RECORD_KEYS, GoldRecord, GoldRecordError, Policy, RewardStatus,
                             score_completion)
from progexec.reward.programs import MAX_REWARD_PROGRAM_CHARS

GOLD = {"answer": 0.10826, "program": "divide(3.8, 35.1)"}


def test_the_record_has_the_fixed_keys_in_order_for_every_status() -> None:
    results = [
        score_completion("Answer: 0.1083", GOLD),
        score_completion("Answer: 7", GOLD),
        score_completion("nothing here", GOLD),
        score_completion("Answer: 1", {"table": []}),
        score_completion("Answer: 1", GOLD, policy="judge"),
        score_completion("Program: divide(1, 0)", GOLD, policy="official"),
    ]
    assert len({result.status for result in results}) == len(results)
    for result in results:
        record = result.record()
        assert tuple(record) == RECORD_KEYS
        assert json.loads(json.dumps(record, allow_nan=False)) == record
        assert record["score"] == (1.0 if record["correct"] else 0.0)


def test_gold_from_a_json_string_equals_gold_from_its_dict() -> None:
    text = json.dumps(GOLD)
    assert GoldRecord.from_mapping(text) == GoldRecord.from_mapping(GOLD)
    assert score_completion("Answer: 0.1083", text).record() == score_completion("Answer: 0.1083", GOLD).record()


@pytest.mark.parametrize("bad", [
    {}, {"table": [["a", "1"]]}, {"answer": [1]}, {"answer": 1, "table": "x"}, {"answer": 1, "table": [[1]]},
    {"answer": 1, "dialect": "gsm8k"}, {"answer": 1, "policy": "judge"}, {"program": 3}, "not json", "[1, 2]",
    {"answer": float("inf")}, {"answer": "banana"}, '{"answer": 1', "{not json",
])
def test_a_bad_gold_is_a_typed_error_and_a_bad_gold_status(bad: object) -> None:
    with pytest.raises(GoldRecordError):
        GoldRecord.from_mapping(bad)  # type: ignore[arg-type]
    result = score_completion("Answer: 1", bad)  # type: ignore[arg-type]
    assert result.status is RewardStatus.BAD_GOLD and result.score == 0.0


@pytest.mark.parametrize("fields", [{"answer": [1]}, {"answer": 1, "table": [[1]]}, {"answer": 1, "program": 3},
                                    {"answer": 1, "policy": "judge"}, {"answer": 1, "dialect": "x"}, {}])
def test_a_record_built_directly_is_checked_like_one_read(fields: dict[str, object]) -> None:
    with pytest.raises(GoldRecordError):
        GoldRecord(**fields)  # type: ignore[arg-type]


def test_a_record_built_directly_normalises_an_int_answer_and_a_policy_name() -> None:
    record = GoldRecord(answer=5, policy="helm")  # type: ignore[arg-type]
    assert record.answer == 5.0 and isinstance(record.answer, float) and record.policy is Policy.HELM
    assert record == GoldRecord.from_mapping({"answer": 5, "policy": "helm"})


def test_a_program_over_several_lines_of_a_fence_is_one_program() -> None:
    finqa = "```\nsubtract(257, 200),\ndivide(#0, 200)\n```"
    assert score_completion(finqa, {"answer": 0.285}, policy="official").status is RewardStatus.OK
    mathqa = "```mathqa\ndivide(n0,n1)|\nmultiply(#0,const_100)|\n```"
    gold = {"answer": 2500.0, "dialect": "mathqa", "problem": "100 km in 4 hours"}
    assert score_completion(mathqa, gold, policy="official").status is RewardStatus.OK


@pytest.mark.parametrize("text", ["0.10826", " -4.0 ", "yes", "12.5%"])
def test_a_plain_answer_text_is_a_gold_answer(text: str) -> None:
    record = GoldRecord.from_mapping(text)
    assert record.answer == text and record.program is None
    assert score_completion(f"Answer: {text}", text).status is RewardStatus.OK


def test_unknown_gold_keys_are_ignored() -> None:
    assert GoldRecord.from_mapping({"answer": 2, "id": "x", "question": "q"}) == GoldRecord(answer=2.0)


def test_the_call_policy_beats_the_record_policy_which_beats_numeric() -> None:
    gold = dict(GOLD, policy="helm")
    assert score_completion("Answer: 0.1083", GOLD).policy is Policy.NUMERIC
    assert score_completion("Answer: 0.1083", gold).policy is Policy.HELM
    assert score_completion("Answer: 0.1083", gold, policy=Policy.OFFICIAL).policy is Policy.OFFICIAL
    assert score_completion("Answer: 0.1083", gold, policy="NUMERIC").policy is Policy.NUMERIC


def test_a_non_string_completion_is_bad_input() -> None:
    result = score_completion(["Answer: 1"], GOLD)  # type: ignore[arg-type]
    assert result.status is RewardStatus.BAD_INPUT


def test_the_completion_bound_is_exact() -> None:
    head = "Answer: 0.10826\n"
    at_limit = head + " " * (MAX_COMPLETION_CHARS - len(head))
    assert score_completion(at_limit, GOLD).status is RewardStatus.OK
    assert score_completion(at_limit + " ", GOLD).status is RewardStatus.TOO_LARGE


def test_a_long_program_is_refused_before_parsing() -> None:
    program = "add(1, " + "2" * MAX_REWARD_PROGRAM_CHARS + ")"
    result = score_completion(f"```\n{program}\n```", GOLD, policy="official")
    assert result.status is RewardStatus.TOO_LARGE


def test_official_needs_equality_numeric_a_tolerance() -> None:
    # divide(3.8, 35.1) = 0.108262..., rounded to 5 places by the official evaluator: 0.10826
    assert score_completion("Program: divide(3.8, 35.1)", {"answer": 0.10826}, policy="official").correct
    assert not score_completion("Program: divide(3.8, 35.1)", {"answer": 0.1083}, policy="official").correct
    assert score_completion("Program: divide(3.8, 35.1)", {"answer": 0.1083}, policy="numeric").correct


def test_a_gold_with_only_a_program_takes_its_official_value() -> None:
    gold = {"program": "subtract(257, 200), divide(#0, 200)"}
    assert score_completion("Answer: 0.285", gold).status is RewardStatus.OK
    assert score_completion("Answer: 28.5%", gold).status is RewardStatus.OK


_JSONISH = st.recursive(st.none() | st.booleans() | st.floats(allow_nan=False) | st.integers() | st.text(max_size=20),
                        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                     max_size=4), max_leaves=12)
_GOLDS = st.fixed_dictionaries({}, optional={
    "answer": _JSONISH, "program": st.one_of(st.none(), st.text(max_size=40), st.just("divide(3.8, 35.1)")),
    "table": _JSONISH, "dialect": st.sampled_from(["finqa", "convfinqa", "mathqa", "x", None]),
    "options": st.one_of(st.none(), st.text(max_size=30)), "policy": st.sampled_from(["official", "numeric", "helm"]),
    "problem": st.one_of(st.none(), st.text(max_size=30))})
_PIECES = st.sampled_from(["Answer: ", "\\boxed{", "}", "####", "Program: ", "```\n", "```", "the answer is ", "%",
                           "(", ")", "-", "\u2212", ",", ".", "1", "257", "3.8", "million", "yes", "no", "\n", " ",
                           "divide(", "#0", "table_sum(", "n0", "const_100", "e5", "$"])


@given(completion=st.lists(_PIECES | st.text(max_size=5), max_size=30).map("".join), gold=_GOLDS,
       policy=st.sampled_from(["official", "numeric", "helm", None]))
def test_never_raises_and_always_the_same_shape(completion: str, gold: dict[str, object], policy: str | None) -> None:
    result = score_completion(completion, gold, policy=policy)
    assert result.status is not RewardStatus.INTERNAL_ERROR, result.reason
    record = result.record()
    assert tuple(record) == RECORD_KEYS
    json.dumps(record, allow_nan=False)


def test_an_infinite_first_number_keeps_the_record_json() -> None:
    result = score_completion("1e999 and then 0.10826", GOLD, policy="helm")
    assert result.status is RewardStatus.WRONG and result.value is None and result.extracted == "1e999"
    json.dumps(result.record(), allow_nan=False)


def test_two_spellings_of_one_value_are_one_answer() -> None:
    # 1.1 / 100 is 0.011000000000000001 in floats: still the answer 0.011, not a second one
    assert score_completion("the answer is 1.1%\nAnswer: 0.011", {"answer": 0.011}).status is RewardStatus.OK
    assert score_completion("the answer is 1.1%\nAnswer: 0.012", {"answer": 0.011}).status \
        is RewardStatus.MULTIPLE_ANSWERS


def test_one_program_written_twice_is_one_program() -> None:
    completion = "```\ndivide(3.8, 35.1)\n```\nProgram: divide(3.8,35.1)"
    assert score_completion(completion, GOLD, policy="official").status is RewardStatus.OK
    two = "```\ndivide(3.8, 35.1)\n```\nProgram: divide(35.1, 3.8)"
    assert score_completion(two, GOLD, policy="official").status is RewardStatus.MULTIPLE_ANSWERS


@pytest.mark.parametrize("box", ["\\boxed{\\textbf{5}}", "\\boxed{\\mathbf{5}}", "\\boxed{\\text{5}}", "\\boxed{\\$5}",
                                 "\\boxed{5\\,000}"])
def test_latex_markup_in_a_box_is_read_through(box: str) -> None:
    gold = {"answer": 5000.0} if "000" in box else {"answer": 5.0}
    assert score_completion(box, gold).status is RewardStatus.OK


def test_a_gold_record_accepts_exactly_the_dialects_with_a_runner() -> None:
    from progexec.core.registry import get_dataset
    from progexec.reward.gold import DIALECTS

    assert {"finqa", "convfinqa", "mathqa"} <= set(DIALECTS)
    # a dataset with its own runner (MathQA's problems) must say how the reward runs its program text
    assert all(get_dataset(name).run is None or get_dataset(name).reward_run is not None for name in DIALECTS)
    with pytest.raises(GoldRecordError, match="dialect must be one of finqa, convfinqa, multihiertt, mathqa"):
        GoldRecord(answer=1.0, dialect="gsm8k")


@pytest.mark.parametrize(("completion", "value"), [
    ("The answer is $94 million\u017f", 94e6),     # LONG S: the case-insensitive match reads "millions"
    ("The answer is $94 M\u0130LLION", 94e6),      # CAPITAL I WITH DOT ABOVE
    ("The answer is $0.094 b\u0131llion", 94e6),   # DOTLESS I
    ("The answer is 94000\u212a", 94e6),           # KELVIN SIGN: "K", a thousand
])
def test_a_scale_word_the_match_reads_case_insensitively_scales_the_number(completion: str, value: float) -> None:
    """Every letter ``re.IGNORECASE`` takes for an ASCII one reads as it (it raised KeyError: an internal error)."""
    result = score_completion(completion, {"answer": 94e6}, policy="numeric")
    assert (result.status, result.value) == (RewardStatus.OK, value)


def test_a_yes_written_with_a_long_s_is_yes() -> None:
    assert score_completion("Answer: ye\u017f", {"answer": "yes"}, policy="numeric").status is RewardStatus.OK
