"""progexec inside other people's loops: RL trainers (verl, TRL, OpenRLHF: adapters over
:func:`progexec.reward.score_completion`, the same gold record and scorer for each, none importing its
framework) and evaluation harnesses (lm-evaluation-harness task configs, inspect_ai tasks and scorers:
the documents from :mod:`.docs`, the verdicts from :mod:`.judge`, so every harness reports what
``progexec score`` / ``reward`` / ``score-python`` report). The frameworks are optional extras.

Layer (docs/architecture.md): under ``cli``. May import ``datasets`` and every layer below it; never
``cli``, ``checker`` or ``testing``.
"""
