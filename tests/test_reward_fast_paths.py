"""The reward's fast paths give what the general path gives: the line-bound marker scans
(:mod:`progexec.reward.scan`) the matches of the whole-text ``finditer``, the skipped steps of
``normalise`` and ``rewrite`` nothing those steps would have changed, and an output line written
straight from its result (:mod:`progexec.reward.outline`) the JSON encoder's text of its record, and a
line read field by field with its gold found by its JSON text (:mod:`progexec.reward.linefields`) the
judgement of the line's Record; the scale guess inlined the one ``close`` finds, and a program's
verdict from the compiled path the runner's."""

from __future__ import annotations

import re

from hypothesis import example, given, settings, strategies as st

from progexec.jsonrecords import Record, line_record
from progexec.records import dumps
from progexec.core.item import Item
from progexec.core.limits import DEFAULT_LIMITS, using
from progexec.core.registry import get_dataset
from progexec.reward import answers, batch, extract, forms, numbers, policies, scan
from progexec.runner import compiled_run, execute_unbounded
from progexec.reward.markup import unmarked
from progexec.reward.model import Policy, RewardStatus, make_result
from progexec.reward.outline import result_line
from progexec.reward.scan import fold, line_matches

FRAGMENTS = ["Answer:", "ANSWER :", "answer", "Final Answer:", "final \t answer:", "the answer is", "The correct option is",
             "THE CHOICE IS:", "####", "Program:", "> **program** :", "PROGRAM：", "option", "choice", "\n", " ", "\t",
             "5", "1,234.5", "x", "é", "ſ", "ı", "İ", "\u212a", "anſwer:", "fınal answer:", "answ", "er:", "#", "the",
             "~~6~~", "<s>7</s>", "5\u0336", "\u200b", "−5", "–5", "— 5", "²", "**", "10**5", "\\frac{1}{2}", "1/2", "3/0",
             "5 \\times 10^{3}", "2^3", "1 234 567", "`", "\\%", "{,}", "\\text{", "}", "\u00a0", "\uff05", "\\cdot"]
texts = st.lists(st.sampled_from(FRAGMENTS), max_size=24).map("".join) | st.text(max_size=60)


@settings(max_examples=600, deadline=None)
@given(texts)
@example("fİnal answer: 5")  # U+0130 lower-cases to two characters: folded first, so indices still agree
@example("x\nanſwer: 5\nthe option is 6")
def test_line_matches_are_the_whole_text_matches(text: str) -> None:
    for pattern, keywords, starts in ((extract._ANSWER_MARKER, extract._ANSWER_KEYWORDS, ()),
                                      (extract._ANSWER_MARKER, extract._ANSWER_KEYWORDS, extract._ANSWER_STARTS),
                                      (extract._PROGRAM_MARKER, extract._PROGRAM_KEYWORDS, ())):
        whole = [(match.span(), match.groups()) for match in pattern.finditer(text)]
        assert [(match.span(), match.groups()) for match in line_matches(pattern, text, keywords)] == whole
        with_starts = [(match.span(), match.groups()) for match in line_matches(pattern, text, keywords, starts=starts)]
        assert with_starts == whole
        pad = " " * (scan.LONG_LINE + 1)
        long_text = pad + text.replace("\n", pad + "\n")  # every line long: tried at its places only
        long_whole = [(match.span(), match.groups()) for match in pattern.finditer(long_text)]
        assert [(match.span(), match.groups()) for match in line_matches(pattern, long_text, keywords, starts=starts)] \
            == long_whole


@settings(max_examples=300, deadline=None)
@given(texts)
def test_fold_keeps_every_index(text: str) -> None:
    assert len(fold(text)) == len(text)


def _normalise_every_step(text: str) -> str:
    text = forms.latex_fractions(forms.unify_signs(unmarked(text)))
    for old, new in numbers._REPLACEMENTS:
        text = text.replace(old, new)
    return text


def _rewrite_every_step(text: str) -> str:
    text = forms._SPACED_THOUSANDS.sub(lambda match: match.group(0).replace(" ", ""), text)
    text = forms._SCIENTIFIC.sub(lambda match: forms._power(float(match.group(1)), match.group(2), 10.0), text)
    text = forms._POWER.sub(lambda match: forms._power(1.0, match.group(2), float(match.group(1))), text)
    text = forms._FRACTION.sub(forms._fraction, text)
    return forms.REFUSED if forms._LEFTOVER_POWER.search(text) else text


@settings(max_examples=600, deadline=None)
@given(texts)
@example("10**5 or 2^3")
def test_normalise_and_rewrite_skip_only_what_changes_nothing(text: str) -> None:
    assert numbers.normalise(text) == _normalise_every_step(text)
    assert forms.rewrite(text) == _rewrite_every_step(text)


def test_a_keyword_split_by_a_line_break_is_no_marker() -> None:
    text = "answ\ner: 5\nAnswer : 6"
    assert [match.group(0) for match in line_matches(extract._ANSWER_MARKER, text, extract._ANSWER_KEYWORDS)] \
        == ["Answer :"] == [match.group(0) for match in re.finditer(extract._ANSWER_MARKER, text)]


ids = st.none() | st.text(max_size=8) | st.integers() | st.floats() | st.booleans() | st.just(2 ** 1100)
values = st.none() | st.booleans() | st.floats() | st.integers(-5, 5)


@settings(max_examples=600, deadline=None)
@given(ids, st.integers(1, 10 ** 6), st.sampled_from(list(RewardStatus)), st.sampled_from(list(Policy)),
       st.none() | st.text(max_size=12), values)
@example("\u2028\"\\\x00é\ud800", 3, RewardStatus.OK, Policy.NUMERIC, "\ud800\"", float("nan"))
def test_an_output_line_is_the_encoders_text_of_its_record(item_id: object, line: int, status: RewardStatus,
                                                          policy: Policy, extracted: str | None, value: object) -> None:
    result = make_result(status, policy, extracted=extracted, value=value,  # type: ignore[arg-type]
                         **{name: "x\n\"é" for name in ("gold", "dialect", "count", "detail", "what", "size", "limit",
                                                       "name", "factor", "got", "want")})
    record = {"id": item_id, "line": line, **result.record()}
    try:
        expected: str | type[Exception] = dumps(record)
    except (ValueError, TypeError) as error:
        expected = type(error)
    try:
        got: str | type[Exception] = result_line(item_id, line, result)
    except (ValueError, TypeError) as error:
        got = type(error)
    assert got == expected


GOLD_TEXTS = ['{"answer": 94.0, "table": [["", "2019"], ["revenue", "$ 94"]], "unit": "million"}',
              '{"answer": 94.0, "table": [["", "2019"], ["revenue", "$ 94"]], "unit": "million", "policy": "official"}',
              '{"program": "add(1, 2)", "policy": "numeric"}', '{"answer": 1}', '{"answer": 1.0}', '{"answer": true}',
              '{"answer": -0.0}', '"0.5"', '"{\\"answer\\": 0.5, \\"policy\\": \\"official\\"}"', '{"answer": "yes"}',
              '{"answer": NaN}', '{"answer": 1e400}', '{"answer": ' + "7" * 5000 + "}", '{"answer": "\\ud800"}',
              '{"answer": 3, "options": "a ) 3 , b ) 4", "dialect": "mathqa"}', '{"answer": [1]}', "[1]", "null",
              '{"answer": 5, "table": ' + "[" * 300 + "]" * 300 + "}", '{"answer": 5}, "gold": {"answer": 6}']
LINE_SHAPES = ['{{"id": {id}, "completion": {completion}, "gold": {gold}}}',
               '{{"id": {id}, "completion": {completion}, "gold": {gold}, "policy": "official"}}',
               '{{"gold": {gold}, "policy": "helm", "completion": {completion}, "id": {id}}}',
               '{{"id": {id}, "completion": {completion}, "gold": {gold}, "policy": "nope"}}',
               '{{"id": {id}, "completion": {completion}}}', '{{"id": {id}, "completion": {completion}, "gold": {gold}',
               '  {{"id": {id}, "completion": {completion}, "gold": {gold}, "extra": 1e400}}  ', "", "  ", "[1, 2]"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(LINE_SHAPES), st.sampled_from(GOLD_TEXTS),
                          st.sampled_from(['"a"', "7", "1e400", "null", "[1]", "true", "2.5"]),
                          st.sampled_from(['"Answer: $94 million"', '"Answer: 1"', '"Answer: yes"', "5", '"\\ud800"',
                                           '"Program: add(1, 2)"', '"The answer is (a)"'])), max_size=12),
       st.sampled_from([None, Policy.HELM]))
@example([(LINE_SHAPES[0], GOLD_TEXTS[8], "7", '"Answer: 1"')], Policy.HELM)  # a gold text naming a policy names none
@example([(LINE_SHAPES[0], GOLD_TEXTS[1], "7", '"Answer: 1"')], Policy.HELM)  # a gold object naming one does
def test_lines_read_field_by_field_are_judged_as_their_records(picks: list[tuple[str, str, str, str]],
                                                               default: Policy | None) -> None:
    batch._CACHE.clear()
    lines: list[str | Record] = []
    for shape, gold, item_id, completion in picks:
        lines += [shape.format(gold=gold, id=item_id, completion=completion)] * 2  # the second finds its gold cached
    records = [record for number, line in enumerate(lines, 1) if (record := line_record(str(line), number)) is not None]
    expected = batch.score_chunk(records, default)
    batch._CACHE.clear()
    assert batch.score_line_chunk((1, lines), default) == expected


number_spans = st.text(alphabet="0123456789,.%-$ \t", max_size=14) | st.sampled_from(
    [" 142.40%", "-$1,234.5", "$-5", "1,234,567", "12,34", "0,123", "1.2.3", "5.", "007", "-0", "1" * 400, " 5 ", "5%%"])


@settings(max_examples=1500, deadline=None)
@given(number_spans, st.booleans(), st.sampled_from([{}, {"number_context_chars": 1}, {"number_context_chars": 0},
                                                     {"max_number_chars": 3}]))
def test_a_plain_number_is_read_as_the_general_steps_read_it(span: str, letters: bool, bounds: dict[str, int]) -> None:
    with using(DEFAULT_LIMITS.with_(**bounds)):
        fast = numbers.read_plain(span)
        if fast is not None:
            first, later = numbers.split_answer(span)
            assert later == []
            assert fast == numbers.read_answer(answers._unhedged(first), letters)


def _scale_factor_by_close(reading: numbers.Reading, got: float, want: float) -> float | None:
    half = reading.half_unit
    if reading.factor != 1.0 and reading.raw is not None:
        if policies.close(reading.raw, want, None if half is None else half / reading.factor):
            return 1.0 / reading.factor
    for factor in policies.SCALE_GUESSES:
        for candidate in (factor, 1.0 / factor):
            if policies.close(got * candidate, want, None if half is None else half * candidate):
                return candidate
    return None


finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12)


@settings(max_examples=1500, deadline=None)
@given(finite, finite, st.none() | st.floats(min_value=0, max_value=1e6), st.sampled_from([1.0, 0.01, 1e3, 1e6, 1e9]),
       st.sampled_from([1.0, 100.0, 1000.0, 1e6, 1e9, 1e-3, 0.01, 1e-6]))
@example(5.0, 5000.0, None, 1.0, 1.0)
@example(0.094, 94.0, 0.0005, 1.0, 1.0)
def test_the_scale_guess_is_the_one_close_finds(got: float, want: float, half: float | None, factor: float,
                                               scale: float) -> None:
    want = want if scale == 1.0 else got * scale  # near a guess as often as not
    reading = numbers.Reading(numbers.ReadKind.NUMBER, "x", got, got / factor, factor, 1, half)
    assert policies._scale_factor(reading, got, want) == _scale_factor_by_close(reading, got, want)


PROGRAMS = ["206588", "142.40%", "1,234", "add(1, 2)", "divide(3.8, 35.1)", "subtract(5829,5735)",
            "subtract(5829, 5735), divide(#0, 5735)", "table_max(revenue, none)", "table_sum(cost, none)",
            "greater(5, 3)", "divide(1, 0)", "add(const_100, #1)", "exp(10, 400)", "add(revenue, 1)", "", "yes"]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(PROGRAMS), st.sampled_from(["finqa", "convfinqa"]),
       st.sampled_from([None, [["", "2019"], ["revenue", "$ 94"], ["cost", "12"]]]))
def test_the_compiled_verdict_is_the_general_paths(text: str, dialect: str, table: list[list[str]] | None) -> None:
    """The verdict a reward takes from the runner's compiled step is the one the general path (the interpreter
    and the official model, no compiled program) gives the same tokens."""
    dataset = get_dataset(dialect)
    tokens = dataset.tokenize(text)
    fast = compiled_run(tokens, table, dataset)
    assert fast is None or fast.verdict == execute_unbounded(Item("completion", tokens, table, dialect=dataset)).official
