"""``progexec check-evaluator``: prove a whole FinQA evaluator port against the official answers.

The suite (:mod:`.cases`) goes out through a protocol (:mod:`.protocol`: jsonl, tokens, flat) to
a port on the leash (:mod:`..engine`); every answer is compared with the reference bit for bit
and each divergence is named by the single-rule variant (:mod:`.semantics`) that reproduces it
(:mod:`.classify`), into one :class:`.check.EvalReport` rendered by :mod:`.output`;
:mod:`.conformance` writes the suite as data files.
"""
