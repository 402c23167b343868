"""Where the downloaded datasets are: ``$PROGEXEC_DATA``, else ``shared/data`` beside the repository (or beside the
folder that holds it). The package never reads them; tests that do fail, not skip, when they are missing."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def shared_data() -> Path:
    """The folder of the downloaded datasets (the first candidate that exists, else the usual place)."""
    candidates = [Path(os.environ["PROGEXEC_DATA"])] if os.environ.get("PROGEXEC_DATA") else []
    candidates += [ROOT.parent / "shared" / "data", ROOT.parent.parent / "shared" / "data"]
    return next((path for path in candidates if path.is_dir()), candidates[-2] if len(candidates) > 1 else candidates[0])
