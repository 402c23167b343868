"""Running a batch of Items: one result record per item, in input order, nothing dropped."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .inputs import Item
from .interp.evaluate import Outcome
from .interp.official import INVALID
from .interp.run import Execution, execute_text, execute_tokens
from .interp.status import Status


@dataclass(frozen=True, slots=True)
class ItemResult:
    """An Item and what running it gave (``execution`` is None for bad input)."""

    item: Item
    execution: Execution

    @property
    def match(self) -> bool | None:
        """Official execution accuracy for this item, None when it has no gold answer."""
        if not self.item.has_gold:
            return None
        return self.execution.official.equals_gold(self.item.gold)


def execute_item(item: Item) -> Execution:
    """Run one item; bad input becomes a BAD_INPUT outcome, never an exception."""
    if item.error is not None or item.program is None:
        outcome: Outcome[float] = Outcome(Status.BAD_INPUT, message=item.error or "the item has no program")
        return Execution(None, outcome, INVALID)
    if isinstance(item.program, str):
        return execute_text(item.program, item.table, item.dialect)
    return execute_tokens(item.program, item.table, item.dialect)


def run_items(items: Iterable[Item]) -> Iterator[ItemResult]:
    """Execute items lazily, in order."""
    for item in items:
        yield ItemResult(item, execute_item(item))


def result_record(result: ItemResult) -> dict[str, Any]:
    """The JSON line ``progexec exec`` writes for one item."""
    from .cli.run import execution_record  # the one place the record shape is defined

    record: dict[str, Any] = {"id": result.item.id}
    record.update(execution_record(result.execution))
    if result.item.has_gold:
        record["gold"] = result.item.gold
        record["match"] = result.match
    return record
