"""The root of every error progexec raises, so callers can catch one class."""

from __future__ import annotations


class ProgexecError(Exception):
    """Base class of every error the progexec package raises on purpose."""
