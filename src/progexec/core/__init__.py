"""The bottom layer: progexec's data types and the rules every layer shares, with no work of its own.

It holds :class:`~progexec.core.item.Item`, :class:`~progexec.core.execution.Execution` (with a dataset's
own ``detail``), :class:`~progexec.core.verdict.OfficialVerdict`, :func:`~progexec.core.execution.gold_match`,
the :class:`~progexec.core.dataset.Dataset` record and its protocols, the registry that finds a record by name
(:mod:`progexec.core.registry`), the errors, :class:`~progexec.core.limits.Limits`, the op table
(:mod:`progexec.core.ops`), the statuses, the table rules, the float64 arithmetic and the program nodes.

May import: the standard library only (and modules of ``core`` itself). Every other layer may import it.
"""
