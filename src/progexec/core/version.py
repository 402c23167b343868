"""The package's version, in the bottom layer so that every layer (run metadata, ``--version``) can read it."""

__version__ = "0.3.0"

__all__ = ["__version__"]
