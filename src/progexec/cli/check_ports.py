"""What the ``check-*`` commands share: reading ``--python MODULE:FUNC`` and ``--cmd`` into a port, and
emitting a checker's report (``--junit`` file, then the ``--json`` document or the text verdict, then the exit)."""

from __future__ import annotations

import shlex
from collections.abc import Callable

from ..core.errors import OptionError
from .common import EXIT_DIVERGENCE, EXIT_OK, write_text

__all__ = ["command_argv", "emit_check", "python_target"]


def python_target(text: str) -> str:
    """``--python``'s ``MODULE:FUNC`` as given; OptionError when either part is missing."""
    module, sep, func = text.partition(":")
    if not sep or not module or not func:
        raise OptionError(f"--python wants MODULE:FUNC, not {text!r}")
    return text


def command_argv(cmd: str) -> list[str]:
    """``--cmd`` split as a shell would (no expansion); OptionError when it cannot be split or is empty."""
    try:
        argv = shlex.split(cmd)
    except ValueError as error:
        raise OptionError(f"bad --cmd: {error}") from None
    if not argv:
        raise OptionError("--cmd is empty")
    return argv


def emit_check(passed: bool, junit: str | None, as_junit: Callable[[], str], output: Callable[[], str]) -> int:
    """Write the JUnit file when asked, print the report (``--json`` document or text), and give the exit:
    0 when the check passed, 1 when it found what fails it."""
    if junit:
        write_text(junit, as_junit())
    print(output())  # main() guards stdout
    return EXIT_OK if passed else EXIT_DIVERGENCE
