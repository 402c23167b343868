"""Real reward functions people train FinQA-style models with, as ``f(completion, gold) -> float``
for ``check-reward`` (loaded in its child process by ``scripts/measure_reward_peers.py``).

Each is called the way its own code is meant to be called, with ``ground_truth`` = the gold answer
as text (``str(exe_ans)``, as verl rows carry it):

* ``math_verify_reward``: Math-Verify (``math-verify`` on PyPI), ``verify(parse(gold), parse(completion))``,
  its README's usage with the default extraction configs;
* ``verl_gsm8k``: verl's ``utils/reward_score/gsm8k.py`` ``compute_score(solution_str, ground_truth)``
  (strict ``#### N``, compared as text);
* ``verl_math``: verl's ``utils/reward_score/math_reward.py`` ``compute_score`` (the last ``\\boxed{}``,
  Hendrycks MATH string equivalence);
* ``progexec_trl``: progexec's own TRL reward, an instance of ``ProgexecReward`` as TRL holds it;
* ``verl_prime_math``: verl's ``utils/reward_score/prime_math`` ``compute_score``; verl's
  ``default_compute_score`` takes the first element of the tuple it returns as the reward.

verl's scorers are loaded from the directory in ``PROGEXEC_VERL_ROOT`` (the ``verl`` package folder
of an installed verl or a checkout) with ``verl``, ``verl.utils`` and ``verl.utils.reward_score`` as
bare namespace modules, so their package ``__init__``s (Ray, the trainer, CUDA checks) are not run;
the scorer modules themselves are verl's own, unchanged.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
from typing import Any

_LOADED: dict[str, Any] = {}


def _verl(name: str) -> Any:
    if name not in _LOADED:
        root = os.environ.get("PROGEXEC_VERL_ROOT")
        if not root:
            raise RuntimeError("set PROGEXEC_VERL_ROOT to the verl package folder")
        for package, path in (("verl", root), ("verl.utils", os.path.join(root, "utils")),
                              ("verl.utils.reward_score", os.path.join(root, "utils", "reward_score"))):
            if package not in sys.modules:
                module = types.ModuleType(package)
                module.__path__ = [path]
                sys.modules[package] = module
        _LOADED[name] = importlib.import_module(f"verl.utils.reward_score.{name}")
    return _LOADED[name]


def _truth(gold: dict[str, Any]) -> str:
    return str(gold["answer"])


def progexec_trl(prompts: list[str], completions: list[str], **columns: Any) -> list[float | None]:
    """progexec's TRL reward (``ProgexecReward()``), as TRL calls an instance (``--signature trl``)."""
    from progexec.integrations.trl import ProgexecReward
    if "trl" not in _LOADED:
        _LOADED["trl"] = ProgexecReward()
    return _LOADED["trl"](prompts=prompts, completions=completions, **columns)  # type: ignore[no-any-return]


def math_verify_reward(completion: str, gold: dict[str, Any]) -> float:
    from math_verify import parse, verify  # type: ignore[import-not-found]
    return float(verify(parse(_truth(gold)), parse(completion)))


def verl_gsm8k(completion: str, gold: dict[str, Any]) -> float:
    return float(_verl("gsm8k").compute_score(completion, _truth(gold)))


def verl_math(completion: str, gold: dict[str, Any]) -> float:
    return float(_verl("math_reward").compute_score(completion, _truth(gold)))


def verl_prime_math(completion: str, gold: dict[str, Any]) -> float:
    result = _verl("prime_math").compute_score(completion, _truth(gold))
    return float(result[0] if isinstance(result, (tuple, list)) else result)
