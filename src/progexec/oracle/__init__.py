"""The exact oracle and the named rounders (see :mod:`progexec.oracle.rounding`).

Layer (docs/architecture.md): above ``interp``. May import ``interp``, ``grammar`` and ``core`` only.
"""
