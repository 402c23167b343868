"""Adapters that plug :func:`progexec.reward.score_completion` into RL trainers (verl, TRL, OpenRLHF).

Every adapter builds the same gold record and calls the same scorer, so a completion gets the same
score through each of them; none imports its framework, so they work without it installed.
"""
