"""The exact oracle and the named rounders (see :mod:`progexec.oracle.rounding`)."""
