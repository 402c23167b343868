"""verl reward functions: ``compute_score`` (naive manager), ``compute_score_batch`` (batch manager)
``compute_score_float`` (prime manager), and ``compute_score_async`` (verl's reward loop, which awaits it on
its event loop).

verl passes ``ground_truth`` (here the gold answer as text, ``str(exe_ans)``) and ``extra_info``
(the rest of the gold record: table, program, dialect, options, problem, policy). verl requires
every item of a batch to return the same keys, and its validation metrics average every extra key
whose first value is not a string, so the dict always holds the keys of
:data:`progexec.reward.RECORD_KEYS` with ``extracted`` and ``value`` as text (``""`` when there is
none). Point verl at a function with ``custom_reward_function.path`` (this file, or
``pkg://progexec.integrations.verl``) and ``.name``; a ``policy`` reward kwarg overrides the
per-row policy.

verl's reward contract has no "does not apply": an item that cannot be judged at all (no
``ground_truth`` and no program, an unusable gold record, an unknown policy, a completion that is
not text) raises :class:`~progexec.integrations._gold.InputError` naming the item and what
is wrong, rather than a silent 0 the run would learn from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

# Absolute imports: verl's custom_reward_function.path loads this file by path as a top-level module.
from progexec.integrations._gold import AdapterInputError, batch_columns, checked_policy, gold_mapping, usable
from progexec.integrations.offload import submit
from progexec.reward import RewardResult, RewardStatus, score_completion

DATA_SOURCE_DIALECTS = {"progexec/finqa": "finqa", "progexec/convfinqa": "convfinqa", "progexec/mathqa": "mathqa"}
"""The ``data_source`` of the rows :mod:`progexec.integrations.verl_rows` writes, and their dialect
(used when ``extra_info`` names none)."""


def verl_record(result: RewardResult) -> dict[str, Any]:
    """The result as verl wants it: the same keys always, no None, ``extracted`` and ``value`` as text."""
    record = result.record()
    record["extracted"] = "" if result.extracted is None else result.extracted
    record["value"] = "" if result.value is None else _text(result.value)
    return record


def _text(value: float | bool) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return repr(value)


def _score(data_source: Any, solution_str: Any, ground_truth: Any, extra_info: Any,
           policy: Any, where: str = "compute_score", index: int | None = None) -> RewardResult:
    """One item judged, or AdapterInputError naming the field (``ground_truths[3]`` in a batch)."""
    def field(name: str) -> str:
        return f"{where}: {name}" if index is None else f"{where}: {name}s[{index}]"

    chosen = checked_policy(policy, f"{where}: the policy reward kwarg")
    extra = extra_info if isinstance(extra_info, Mapping) else None
    gold = gold_mapping(ground_truth, extra)
    if "answer" not in gold and "program" not in gold:
        raise AdapterInputError(f"{field('ground_truth')}: no gold: ground_truth is {ground_truth!r:.60} and "
                                "extra_info has no 'program' (rows from `progexec rows --for verl` carry both)")
    dialect = DATA_SOURCE_DIALECTS.get(data_source) if isinstance(data_source, str) else None
    if dialect is not None and "dialect" not in gold:
        gold["dialect"] = dialect
    result = score_completion(solution_str, gold, policy=chosen)
    return usable(result, field("solution_str" if result.status is RewardStatus.BAD_INPUT else "ground_truth"))


def compute_score(data_source: Any, solution_str: Any, ground_truth: Any, extra_info: Any = None,
                  **kwargs: Any) -> dict[str, Any]:
    """One completion, as the naive manager calls it (by keyword, from any thread); AdapterInputError
    when it cannot be judged (see the module docstring)."""
    return verl_record(_score(data_source, solution_str, ground_truth, extra_info, kwargs.get("policy")))


async def compute_score_async(data_source: Any, solution_str: Any, ground_truth: Any, extra_info: Any = None,
                              **kwargs: Any) -> dict[str, Any]:
    """:func:`compute_score` for an event loop (verl's reward loop awaits an ``async`` function directly): the
    work runs on the process's scoring thread (:mod:`progexec.integrations.offload`), so the loop stays free; the
    calls a gathered batch makes in one turn go there as one job, and their answers come back a slice per turn."""
    return await submit(compute_score, data_source, solution_str, ground_truth, extra_info, **kwargs)


def compute_score_batch(data_sources: Sequence[Any], solution_strs: Sequence[Any], ground_truths: Sequence[Any],
                        extra_infos: Sequence[Any] | None = None, **kwargs: Any) -> list[dict[str, Any]]:
    """A batch, as the batch manager calls it: one dict per completion, in order.

    Lists that are missing, empty or of different lengths are a caller's bug verl would otherwise hide
    (it indexes by position), so they raise AdapterInputError naming the field rather than score a
    shorter batch (the check ``progexec serve`` makes of its lists).
    """
    named = [("solution_strs", solution_strs), ("data_sources", data_sources), ("ground_truths", ground_truths)]
    if extra_infos is not None:
        named.append(("extra_infos", extra_infos))
    columns = batch_columns("compute_score_batch", named, ("solution", "solutions"))
    solutions, sources, truths = columns[:3]
    extras = columns[3] if extra_infos is not None else [None] * len(solutions)
    policy = kwargs.get("policy")
    return [verl_record(_score(source, solution, truth, extra, policy, "compute_score_batch", index))
            for index, (source, solution, truth, extra)
            in enumerate(zip(sources, solutions, truths, extras))]


def compute_score_float(data_source: Any, solution_str: Any, ground_truth: Any, extra_info: Any = None,
                        **kwargs: Any) -> float:
    """The score alone, a plain float (the prime manager calls it positionally in worker processes and
    zeroes the whole batch on anything else)."""
    return float(_score(data_source, solution_str, ground_truth, extra_info, kwargs.get("policy")).score)
