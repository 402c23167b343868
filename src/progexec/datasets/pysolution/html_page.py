"""The HTML leaderboard: one sortable page of models, and one page per model with every item's code,
value, gold value and both verdicts. Sections of the shared page template (``pysolution_index.html.j2``,
``pysolution_model.html.j2``): self-contained, no network, the same bytes on every run."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ...report.templates import Column, Filter, Row, Table, render
from .report import ranked
from .scoring import Leaderboard, ModelScore
from ...core.plural import plural


def page_name(model: str) -> str:
    """The file name of a model's page: its name with anything but letters, digits, '-', '_' and '.' replaced."""
    return "model-" + re.sub(r"[^A-Za-z0-9._-]", "_", model) + ".html"


@dataclass(frozen=True, slots=True)
class ModelRow:
    """One model on the leaderboard: its page, its counts and rates, its divergences by class."""

    name: str
    page: str
    n: int
    accuracy: float
    execution_rate: float
    strict_accuracy: float
    divergences: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class IndexPage:
    """What index.html shows."""

    title: str
    gold: int
    isolation: str
    libraries: str
    classes: list[Column]
    table: Table


@dataclass(frozen=True, slots=True)
class ItemRow:
    """One item of a model's page (plain values: the template escapes and lays them out)."""

    id: str
    topic: str
    status: str
    shown: str
    gold: object
    gold_text: str
    acc: int
    executed: int
    strict: int
    divergence: str
    message: str
    code: str


@dataclass(frozen=True, slots=True)
class ModelPage:
    """What a model's page shows."""

    title: str
    name: str
    n: int
    accuracy: float
    execution_rate: float
    strict_accuracy: float
    table: Table


def index_page(leaderboard: Leaderboard) -> str:
    """The leaderboard page: one row per model, every column sortable, each model linking to its page."""
    models = ranked(leaderboard)
    classes = [Column(name, True) for name in models[0].divergences()] if leaderboard.models else []
    rows = [Row(ModelRow(model.name, page_name(model.name), len(model.items), model.accuracy, model.execution_rate,
                         model.strict_accuracy, tuple(model.divergences().values())), text=model.name)
            for model in models]
    libraries = ", ".join(f"{name} {version}" for name, version in sorted(leaderboard.libraries.items()))
    return render("pysolution_index.html.j2", page=IndexPage(leaderboard.dataset.title, len(leaderboard.gold),
                                                             leaderboard.isolation, libraries, classes, Table(rows)))


def model_page(leaderboard: Leaderboard, model: ModelScore) -> str:
    """One model's items: question, topic, status, value, gold, both verdicts, divergence class, the code."""
    rows = []
    for item in model.items + model.unknown:
        record = item.record()
        verdict = "divergence" if item.divergence else ("wrong" if not item.official else "right")
        shown = ItemRow(str(item.id), item.topic or "", item.result.status.value,
                        str(record["shown"] if record["shown"] is not None else ""), record["gold"],
                        str(record["gold"]), record["acc"], record["execution_rate"], record["strict"],
                        item.divergence or "", item.result.message or item.note, item.code)
        rows.append(Row(shown, data=(("verdict", verdict),), text=f"{item.id} {item.topic or ''}"))
    verdicts = (("right", "official right"), ("wrong", "official wrong"), ("divergence", "strict rejects"))
    page = ModelPage(leaderboard.dataset.title, model.name, len(model.items), model.accuracy, model.execution_rate,
                     model.strict_accuracy, Table(rows, (Filter("verdict", "verdict", verdicts),)))
    return render("pysolution_model.html.j2", page=page)


def write_pages(leaderboard: Leaderboard, directory: Path) -> list[Path]:
    """Write ``index.html`` and one page per model into ``directory``; the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = [directory / "index.html"]
    written[0].write_text(index_page(leaderboard), encoding="utf-8")
    for model in leaderboard.models:
        path = directory / page_name(model.name)
        path.write_text(model_page(leaderboard, model), encoding="utf-8")
        written.append(path)
    return written
