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
from .limits import ItemTimeLimitExceeded, run_with_time_limit


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


def execute_item_limited(item: Item) -> Execution:
    """:func:`execute_item` under the per-item wall-clock limit (``progexec.limits``).

    An item that runs out of time, out of stack or out of memory still gets its result line:
    LIMIT_EXCEEDED, no value, and (since the official answer was not computed) official invalid.
    """
    try:
        return run_with_time_limit(lambda: execute_item(item))
    except ItemTimeLimitExceeded as error:
        message = str(error)
    except RecursionError:
        message = "the item is nested too deeply to execute"
    except MemoryError:
        message = "the item needs more memory than is available"
    return Execution(None, Outcome(Status.LIMIT_EXCEEDED, message=message), INVALID)


def warm_up() -> None:
    """Build the one-time caches (the LALR parser: about half a second) before any item's clock starts,
    so that the first item of a batch is not charged for them."""
    execute_text("add(a (b), 1)")


def run_items(items: Iterable[Item]) -> Iterator[ItemResult]:
    """Execute items lazily, in order, each under the per-item limits."""
    warm_up()
    for item in items:
        yield ItemResult(item, execute_item_limited(item))


def result_record(result: ItemResult) -> dict[str, Any]:
    """The JSON line ``progexec exec`` writes for one item."""
    from .cli.run import execution_record  # the one place the record shape is defined

    record: dict[str, Any] = {"id": result.item.id}
    record.update(execution_record(result.execution))
    if result.item.has_gold:
        record["gold"] = result.item.gold
        record["match"] = result.match
    return record
