"""Interpretation: arithmetic, the interpreter, the flat contract, the official verdict."""
