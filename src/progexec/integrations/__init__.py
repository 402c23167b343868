"""progexec inside evaluation harnesses: lm-evaluation-harness task configs and inspect_ai tasks and scorers.

Each adapter is thin: the documents come from :mod:`.docs`, the verdicts from :mod:`.judge`, so every
harness reports what ``progexec score`` (``reward``, ``score-python``) reports on the same predictions.
The harnesses are optional extras (``pip install 'progexec[lm-eval]'``, ``'progexec[inspect]'``).
"""
