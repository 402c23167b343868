"""``python -m progexec``."""

from .cli import main

raise SystemExit(main())
