"""What the lm-eval task configs call: the dataset builder (``custom_dataset``) and ``process_results``.

The documents are built from progexec's embedded corpora, or from a dataset file named by the task's
source key in lm-eval's ``--metadata`` (``finqa_source``, ``convfinqa_source``, ``mathqa_source``), so
nothing is fetched from a hub.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

from ..docs import TASKS, task_docs
from ..judge import judge

def source_key(dialect: str) -> str:
    """The ``--metadata`` key naming a dataset's source (an embedded corpus name or a dataset file):
    ``finqa_source``, ``convfinqa_source``, ``mathqa_source``, ``tatqa_source``."""
    return f"{dialect}_source"


def dataset(task: str, metadata: Mapping[str, Any]) -> Any:
    """A ``datasets.DatasetDict`` with one ``test`` split: the task's documents (lm-eval's ``custom_dataset``).

    ``metadata`` is what lm-eval passes (the YAML's ``metadata`` merged with ``--metadata``); only the
    dialect's source key is read, so other keys (``version``, a model's arguments) are ignored.
    """
    datasets = importlib.import_module("datasets")
    source = metadata.get(source_key(TASKS[task].dialect))
    docs = task_docs(task, None if source is None else str(source))
    return datasets.DatasetDict({"test": datasets.Dataset.from_list(docs)})


def process_results(task: str, doc: Mapping[str, Any], results: Sequence[str]) -> dict[str, float]:
    """lm-eval's ``process_results``: the first generation of ``doc`` judged by progexec, one 0/1 per metric."""
    return judge(task, doc, results[0]).metrics


__all__ = ["source_key", "dataset", "process_results"]
