"""``--isolate``: a check-rounder / check-evaluator port runs inside the bubblewrap sandbox.

A probe rounder answers right only when it can neither read a host file outside its own
directory, nor reach the network, nor write into its own directory: without ``--isolate`` it
diverges (so the probe works), with it it passes. Real ports (JavaScript, C, Python) pass
under the sandbox as they do outside it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from progexec.cli import main
from progexec.isolation import bwrap

SRC = str(Path(__file__).resolve().parents[1] / "src")
PORTS = Path(__file__).resolve().parent / "ports"
PY = sys.executable
ISOLATION = bwrap.status()
if not ISOLATION.available and os.environ.get("CI"):
    raise RuntimeError(f"CI must provide the sandbox (bubblewrap installed by .ci/run): {ISOLATION.reason}")
needs_isolation = pytest.mark.skipif(not ISOLATION.available, reason=f"no isolation here: {ISOLATION.reason}")

PROBE = """
import os, socket

SECRET = {secret!r}


def reaches_out():
    try:
        with open(SECRET) as handle:
            handle.read()
        return "read a host file"
    except OSError:
        pass
    try:
        socket.create_connection(("127.0.0.1", {port}), timeout=2).close()
        return "reached the network"
    except OSError:
        pass
    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "written"), "w") as handle:
            handle.write("x")
        return "wrote into its own directory"
    except OSError:
        return None


def probe(x, n):
    return round(x, n) if reaches_out() is None else 1.0
"""


def port_dir(tmp_path: Path) -> Path:
    """A directory the sandbox's uid (65534) can read, as a port's directory must be."""
    directory = tmp_path / "port"
    directory.mkdir()
    for path in (tmp_path, directory):
        path.chmod(0o755)
    return directory


@pytest.fixture
def listener() -> Any:
    import socket
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    yield server
    server.close()


def run(command: str, argv: list[str], cwd: Path) -> tuple[int, dict[str, Any], str]:
    done = subprocess.run([PY, "-m", "progexec", command, "--json", "--no-progress", *argv], cwd=cwd,
                          env=dict(os.environ, PYTHONPATH=f"{SRC}{os.pathsep}{cwd}"), capture_output=True,
                          timeout=120)
    return done.returncode, json.loads(done.stdout) if done.stdout.strip() else {}, done.stderr.decode()


@needs_isolation
@pytest.mark.parametrize("form", ["python", "cmd"])
def test_the_probe_reaches_out_without_isolate_and_not_with_it(tmp_path: Path, listener: Any, form: str) -> None:
    directory = port_dir(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("gold", encoding="utf-8")
    secret.chmod(0o644)
    (directory / "probe_mod.py").write_text(PROBE.format(secret=str(secret), port=listener.getsockname()[1]),
                                            encoding="utf-8")
    (directory / "probe_mod.py").chmod(0o644)
    script = directory / "probe_cmd.py"
    script.write_text("import sys\nsys.path.insert(0, sys.path[0])\nfrom probe_mod import probe\n"
                      "for line in sys.stdin:\n    h, n = line.split()\n"
                      "    print(float(probe(float.fromhex(h), int(n))).hex(), flush=True)\n", encoding="utf-8")
    script.chmod(0o644)
    source = ["--python", "probe_mod:probe"] if form == "python" else ["--cmd", f"{PY} probe_cmd.py"]
    code, report, _ = run("check-rounder", [*source, "--cases", "300"], directory)
    assert code == 1 and report["divergent"] > 0  # outside the sandbox the probe reads the secret
    (directory / "written").unlink(missing_ok=True)
    code, report, err = run("check-rounder", [*source, "--cases", "300", "--isolate"], directory)
    assert code == 0 and report["divergent"] == 0, (report, err)
    assert not (directory / "written").exists()
    # the same in worker processes: every worker's child is confined
    code, report, err = run("check-rounder", [*source, "--cases", "300", "--isolate", "--jobs", "2"], directory)
    assert code == 0 and report["divergent"] == 0 and report["cases"] == 300, (report, err)


@needs_isolation
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_javascript_port_passes_in_the_sandbox(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check-evaluator", "--json", "--no-progress", "--isolate", "--cmd", f"node {PORTS / 'finqa_eval.js'}",
                 "--cases", "1500"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["cases"] == 1500 and not report["faults"], report["faults"]
    code = main(["check-evaluator", "--json", "--no-progress", "--isolate", "--cmd",
                 f"node {PORTS / 'finqa_eval.js'} naive", "--cases", "1500"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and "naive_rounding" in report["failing_classes"]


@needs_isolation
@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
def test_the_c_port_passes_in_the_sandbox(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = port_dir(tmp_path)
    binary = directory / "flat_eval"
    subprocess.run(["gcc", "-O2", "-o", str(binary), str(PORTS / "flat_eval.c"), "-lm"], check=True)
    code = main(["check-evaluator", "--json", "--no-progress", "--isolate", "--protocol", "flat", "--cmd", str(binary),
                 "--cases", "1500"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["cases"] > 0 and not report["faults"], report


@needs_isolation
def test_a_port_cannot_start_processes_in_the_sandbox(tmp_path: Path) -> None:
    """The daemon of tests/test_leash_reaper.py never starts there: the seccomp filter refuses the fork."""
    directory = port_dir(tmp_path)
    script = directory / "forks.py"
    script.write_text("import os, sys\ntry:\n    os.fork()\n    verdict = 'forked'\nexcept OSError:\n"
                      "    verdict = 'refused'\nfor line in sys.stdin:\n"
                      "    h, n = line.split()\n    x = round(float.fromhex(h), int(n))\n"
                      "    print((x if verdict == 'refused' else 1.0).hex(), flush=True)\n", encoding="utf-8")
    script.chmod(0o644)
    code, report, err = run("check-rounder", ["--cmd", f"{PY} forks.py", "--cases", "200", "--isolate"], directory)
    assert code == 0 and report["divergent"] == 0, (report, err)


def test_isolate_without_a_sandbox_is_a_usage_error(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(bwrap, "status", lambda: bwrap.Isolation(False, "bwrap missing (test)"))
    code = main(["check-rounder", "--no-progress", "--isolate", "--cmd", f"{PY} -c pass", "--cases", "10"])
    assert code == 2
    assert "bwrap missing (test)" in capsys.readouterr().err


@needs_isolation
def test_the_library_recipe_of_the_isolation_package(tmp_path: Path) -> None:
    """The three lines of ``progexec.isolation``'s docstring, with a Python port that reports where it runs."""
    from progexec.isolation import ChildExchange, python_sandbox, sandbox_for

    directory = port_dir(tmp_path)
    (directory / "where.py").write_text("import os, sys\nfor line in sys.stdin:\n"
                                        "    print(os.getcwd(), os.path.exists('/etc/passwd'), flush=True)\n",
                                        encoding="utf-8")
    (directory / "where.py").chmod(0o644)
    for argv, sandbox in (sandbox_for([PY, "where.py"], str(directory)),
                          python_sandbox(str(directory / "where.py"), [], str(directory))):
        leash = ChildExchange(argv, timeout=20, sandbox=sandbox)
        leash.start()
        answers = leash.exchange([b"x\n"])
        leash.close()
        assert answers == [f"{directory} False".encode()] and not leash.faults, (answers, leash.faults)
