"""Writing a checker's verdict to standard output so that a closed pipe cannot change the exit code."""

from __future__ import annotations

import os
import sys


def emit_stdout(text: str) -> None:
    """Print ``text``; if stdout is a closed pipe (``... | head -2``), stop quietly.

    The caller returns its exit code as computed: a failing verdict stays failing. Standard
    output is pointed at ``/dev/null`` so the interpreter's final flush cannot raise again.
    """
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
