"""``progexec.score`` and ``progexec.report`` load a public name's module only when the name is first used
(importing the package costs nothing), keep it, and name the package and the name when it does not exist."""

from __future__ import annotations

import subprocess
import sys

import pytest

PROBE = """
import sys
import progexec.{package} as package
assert "progexec.{package}.{module}" not in sys.modules, "loaded on import"
value = getattr(package, "{name}")
assert "progexec.{package}.{module}" in sys.modules, "not loaded on use"
assert vars(sys.modules["progexec.{package}"])["{name}"] is value, "not kept in the package"
try:
    getattr(package, "no_such_name")
except AttributeError as error:
    print(error)
"""


@pytest.mark.parametrize(("package", "name", "module"), [("score", "score_predictions", "scoring"),
                                                         ("report", "render_html", "formats")])
def test_a_public_name_is_loaded_on_first_use(package: str, name: str, module: str) -> None:
    done = subprocess.run([sys.executable, "-c", PROBE.format(package=package, name=name, module=module)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"module 'progexec.{package}' has no attribute 'no_such_name'\n"
