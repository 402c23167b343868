"""Interpretation: the one interpreter, the compiled fast path, the flat contract, the official evaluator's model
(the arithmetic, the op table and the statuses they use are :mod:`progexec.core`'s).

Layer (docs/architecture.md): above ``grammar``. May import ``grammar`` and ``core`` only.
"""
