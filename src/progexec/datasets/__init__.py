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

PROGRAM_REWARDS = ("finqa", "convfinqa", "multihiertt", "mathqa")
"""The datasets whose gold programs ``reward`` runs, in the order its messages list them."""

REWARD_RULES: dict[str, str] = {
    "tatqa": "progexec.datasets.tatqa.reward:score_tatqa",
    "financemath": "progexec.datasets.pysolution.reward:score_python_solution_gold",
    "docmath": "progexec.datasets.pysolution.reward:score_python_solution_gold",
}
"""Gold ``dialect`` -> ``module:function`` of the dataset's own reward rule, ``(completion, gold mapping, policy) ->
RewardResult``: answers of these datasets are not programs (imported on first use)."""

get_dialect = get_dataset
dialect_names = dataset_names

__all__ = ["Dataset", "Dialect", "DatasetScore", "UnknownDialectError", "BUILTIN", "CORPORA", "PROGRAM_REWARDS", "REWARD_RULES", "register", "dataset_names",
           "datasets", "get_dataset", "dialect_names", "get_dialect"]
