"""Every dataset progexec knows, one module or subpackage each: the only place a dataset is named.

Each entry is a :class:`~progexec.core.dataset.Dataset` record built in its own module (``finqa`` holds FinQA
and ConvFinQA, ``multihiertt``, ``mathqa/`` MathQA and MathQA-Python, ``tatqa/`` TAT-QA, ``pysolution/``
FinanceMath and DocMath-Eval): its program language, official model, scorers and reward rule, readers and
embedded corpora. The generic layers find them through :mod:`progexec.core.registry`, by name; a third-party
dataset registers through the entry point group ``progexec.datasets`` instead of a line here.

May import: every layer below it (``core``, ``grammar``, ``interp``, ``oracle``, the runner, readers,
records, ``score``, ``reward``, ``report``); never ``checker``, ``integrations`` or ``cli``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.dataset import Dataset, DatasetScore, Dialect
from ..core.registry import UnknownDialectError, dataset_names, datasets, get_dataset, register

BUILTIN: dict[str, str] = {
    "finqa": "progexec.datasets.finqa:FINQA",
    "convfinqa": "progexec.datasets.finqa:CONVFINQA",
    "mathqa": "progexec.datasets.mathqa.dataset:MATHQA",
    "multihiertt": "progexec.datasets.multihiertt:MULTIHIERTT",
    "tatqa": "progexec.datasets.tatqa.dataset:TATQA",
}
"""Dataset name -> ``module:attribute`` of its record, in the order commands list them."""

CORPORA = ("finqa", "finqa:test", "finqa:dev", "finqa:train", "convfinqa", "convfinqa:dev", "convfinqa:train",
           "mathqa:test", "mathqa:dev", "mathqa:challenge_test", "tatqa:dev", "tatqa:test")
"""Every embedded corpus, by the name ``read``, ``--gold`` and the batch commands accept; the part before the
colon names the dataset that reads it."""

OPTION_DATASETS = ("mathqa",)
"""The datasets answered by option letters (``option_letters`` on their records): ``exec``'s summary has a
section for each."""

PROGRAM_REWARDS = ("finqa", "convfinqa", "multihiertt", "mathqa")
"""The datasets whose gold programs ``reward`` runs, in the order its messages list them."""

REWARD_RULES: dict[str, str] = {
    "tatqa": "progexec.datasets.tatqa.reward:score_tatqa",
    "financemath": "progexec.datasets.pysolution.reward:score_python_solution_gold",
    "docmath": "progexec.datasets.pysolution.reward:score_python_solution_gold",
    "financereasoning": "progexec.datasets.financereasoning.reward:score_financereasoning",
}
"""Gold ``dialect`` -> ``module:function`` of the dataset's own reward rule, ``(completion, gold mapping, policy) ->
RewardResult``: answers of these datasets are not programs (imported on first use)."""

SANDBOXED_REWARDS = ("financemath", "docmath", "financereasoning")
"""Gold ``dialect`` names whose reward rule runs a completion's code in the sandbox (Python solutions)."""



def _tatqa_shape(value: dict[str, Any]) -> bool:
    return isinstance(value.get("questions"), list) and ("paragraphs" in value or "table" in value)


def _qa_shape(value: dict[str, Any]) -> bool:
    return not _tatqa_shape(value) and isinstance(value.get("qa"), dict)


def _multihiertt_shape(value: dict[str, Any]) -> bool:
    return _qa_shape(value) and "uid" in value and "id" not in value


def _convfinqa_shape(value: dict[str, Any]) -> bool:
    return not _tatqa_shape(value) and not _qa_shape(value) and isinstance(value.get("annotation"), dict)


def _mathqa_shape(value: dict[str, Any]) -> bool:
    return (not _tatqa_shape(value) and not _qa_shape(value) and not isinstance(value.get("annotation"), dict)
            and ("linear_formula" in value or "Problem" in value))


FORMATS: tuple[tuple[str, Callable[[dict[str, Any]], bool], str], ...] = (
    ("tatqa", _tatqa_shape, "TAT-QA contexts (with questions)"),
    ("multihiertt", _multihiertt_shape, "MultiHiertt dataset items (with uid and qa)"),
    ("finqa", lambda value: _qa_shape(value) and not _multihiertt_shape(value), "FinQA dataset items (with qa)"),
    ("convfinqa", _convfinqa_shape, "ConvFinQA dataset items (with annotation)"),
    ("mathqa", _mathqa_shape, "MathQA problems (with linear_formula)"),
)
"""Each dataset's file shape, in the order they are tried: (dataset name, does a JSON object have its shape,
its records in words for messages). The shapes exclude one another; cheap, so no dataset module is imported to
tell a file's format."""

CORPUS_SHORTCUTS: dict[str, tuple[str, ...]] = {"finqa": ("finqa",), "convfinqa": ("convfinqa",),
                                                 "mathqa": ("mathqa:test",), "all": ("finqa", "convfinqa")}
"""``exec --corpus NAME``: the embedded corpora a name runs when no input is given (the first is the default)."""

CORPUS_FILES: dict[str, str] = {"finqa": "finqa.jsonl.gz", "convfinqa": "convfinqa.jsonl.gz",
                                "mathqa": "mathqa_{split}.json.gz", "tatqa": "tatqa_{split}.json.gz"}
"""Dataset name -> the package data file (in ``progexec.data``) of its embedded corpora, ``{split}`` filled in."""

ROWS: dict[str, str] = {
    "tatqa": "progexec.datasets.tatqa.rows:TATQA_ROWS",
    "convfinqa": "progexec.datasets.finqa_rows:CONVFINQA_ROWS",
    "finqa": "progexec.datasets.finqa_rows:FINQA_ROWS",
    "mathqa": "progexec.datasets.mathqa.rows:MATHQA_ROWS",
    "financereasoning": "progexec.datasets.financereasoning.rows:FINANCEREASONING_ROWS",
}
"""Dataset name -> ``module:attribute`` of its rows builder (:class:`progexec.rows.RowsSpec`), in the order an
official record's shape is tried (a ConvFinQA record may also hold ``qa``)."""

SOLUTION_COMMANDS = ("progexec.datasets.financereasoning.command",)
"""Modules of datasets whose gold files ``score-python`` hands to the dataset's own scorer: each has
``is_gold(records)`` and ``run(args, records, tools)`` (FinanceReasoning)."""

get_dialect = get_dataset
dialect_names = dataset_names

__all__ = ["Dataset", "Dialect", "DatasetScore", "UnknownDialectError", "BUILTIN", "CORPORA", "OPTION_DATASETS", "FORMATS", "CORPUS_FILES", "ROWS", "CORPUS_SHORTCUTS", "PROGRAM_REWARDS", "REWARD_RULES", "SANDBOXED_REWARDS", "SOLUTION_COMMANDS", "register", "dataset_names",
           "datasets", "get_dataset", "dialect_names", "get_dialect"]
