"""lm-evaluation-harness task folder: pass this package's directory to ``lm_eval --include_path``.

``TASK_DIR`` is that directory; the YAML configs in it name :mod:`.utils`, which lm-eval imports by
file path, and which calls :mod:`.adapter`. Importing this package does not import lm-eval.
"""

from __future__ import annotations

from pathlib import Path

TASK_DIR = Path(__file__).resolve().parent
"""The directory to give ``lm_eval --include_path`` (or ``TaskManager(include_path=...)``)."""

__all__ = ["TASK_DIR"]
