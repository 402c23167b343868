"""The OS sandbox holds: every attack of issue 10 (tests/data/hostile_snippets.jsonl) is blocked by the kernel.

The corpus's ``control_*`` snippets first prove that its preludes really disable
the in-process layer (the guarded ``__import__`` and the audit hook), so the other
attacks meet namespaces, the read-only filesystem, uid 65534, rlimits and seccomp.
Each attack must end with its expected typed kind, leave no file on the host, no
process and no listening socket, and never stop the scorer; wrong-score attempts
(reading the gold, the scorer's argv, progexec's own data) must score incorrect.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

import progexec
from progexec.cli import main
from progexec.isolation import bwrap as bubblewrap
from progexec.datasets.mathqa.sandbox import SnippetKind, decode_result, run_snippet, run_snippets
from progexec.core.limits import DEFAULT_LIMITS

CORPUS = Path(__file__).parent / "data" / "hostile_snippets.jsonl"
LIMITS = DEFAULT_LIMITS.with_(snippet_wall_seconds=8.0, snippet_memory_bytes=512 * 1024 * 1024,
                              snippet_output_chars=100_000)
SRC = Path(progexec.__file__).resolve().parent.parent
DATA = Path(progexec.__file__).resolve().parent / "data" / "mathqa_test.json.gz"
CHILD_MARK = "The program a sandbox process runs"

ISOLATION = bubblewrap.status()
if not ISOLATION.available and os.environ.get("CI"):
    raise RuntimeError(f"CI must provide the sandbox (bubblewrap installed by .ci/run): {ISOLATION.reason}")
needs_isolation = pytest.mark.skipif(not ISOLATION.available, reason=f"no isolation here: {ISOLATION.reason}")


def _corpus() -> list[dict[str, Any]]:
    return [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").split("\n") if line]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _sandbox_processes() -> set[int]:
    """Host pids running the sandbox child's program as the sandbox's uid (a forked grandchild keeps both)."""
    uid = bubblewrap.SANDBOX_UID if os.geteuid() == 0 else os.getuid()
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
                status = Path(f"/proc/{entry}/status").read_text()
            except OSError:
                continue
            uids = next((line.split()[1:] for line in status.splitlines() if line.startswith("Uid:")), [])
            if CHILD_MARK.encode() in cmdline and str(uid) in uids:
                found.add(int(entry))
    return found


def _listening(port: int) -> bool:
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        if any(row.split()[1].endswith(f":{port:04X}") for row in rows):
            return True
    return False


@pytest.fixture(scope="module")
def attack_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Run the whole corpus once (in parallel), with the placeholders filled in for this machine."""
    work = tmp_path_factory.mktemp("hostile")
    gold = work / "gold.jsonl"
    gold.write_text(json.dumps({"id": "0", "answer": 38.0}) + "\n", encoding="utf-8")
    marker = Path(tempfile.gettempdir()) / f"progexec-isolation-marker-{os.getpid()}"
    port = _free_port()
    fill = {"@MARKER@": str(marker), "@PORT@": str(port), "@GOLD@": str(gold), "@SRC@": str(SRC), "@DATA@": str(DATA)}
    records = _corpus()
    codes = []
    for record in records:
        code = record["code"]
        for placeholder, value in fill.items():
            code = code.replace(placeholder, value)
        codes.append(code)
    before = _sandbox_processes()
    results = list(run_snippets(codes, LIMITS, jobs=2))
    return {"records": records, "results": dict(zip((r["name"] for r in records), results)), "marker": marker,
            "port": port, "before": before}


def test_corpus_covers_the_issue() -> None:
    names = {record["name"] for record in _corpus()}
    assert {"control_closure_escape", "control_globals_escape", "write_marker_file", "run_bin_sh_subprocess",
            "bind_socket", "read_proc_self_environ", "grandchild_new_session", "numpy_raw_memory_then_write",
            "read_parent_cmdline", "read_gold_file", "regenerate_gold_with_progexec", "sigstop_parent",
            "fork_bomb", "memory_bomb"} <= names


@needs_isolation
@pytest.mark.parametrize("name", [record["name"] for record in _corpus()])
def test_attack_is_blocked_with_its_kind(name: str, attack_run: dict[str, Any]) -> None:
    record = next(r for r in attack_run["records"] if r["name"] == name)
    result = attack_run["results"][name]
    assert result.kind.value in record["expect"], (name, result)
    if result.kind is SnippetKind.OK:
        if "answer" in record:
            assert result.answer == record["answer"], (name, result)
    else:
        assert result.answer is None and result.message, (name, result)


@needs_isolation
def test_attacks_leave_nothing_behind(attack_run: dict[str, Any]) -> None:
    assert not attack_run["marker"].exists()
    assert not _listening(attack_run["port"])
    deadline = time.monotonic() + 60.0  # the kernel reaps a killed PID namespace asynchronously (a backstop)
    while _sandbox_processes() - attack_run["before"] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _sandbox_processes() - attack_run["before"]


@needs_isolation
def test_the_scorer_is_never_stopped(attack_run: dict[str, Any]) -> None:
    """SIGSTOP of the 'parent' hits bubblewrap's PID 1 in the snippet's namespace (refused, or ignored), not us."""
    result = attack_run["results"]["sigstop_parent"]
    assert result.kind is SnippetKind.FORBIDDEN or (result.kind is SnippetKind.OK and result.answer == 1.0), result


@needs_isolation
def test_wrong_score_attempts_score_incorrect(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Gold 38.0 is MathQA-Python test item 0 (``(100 + 31.1) * 100 / (100 - 5) - 100``)."""
    gold = tmp_path / "gold.jsonl"
    gold.write_text("".join(json.dumps({"id": key, "answer": 38.0}) + "\n" for key in "abcde"), encoding="utf-8")
    prelude = next(r for r in _corpus() if r["name"] == "control_closure_escape")["code"].rsplit("answer", 1)[0]
    steal_gold = f"import json\nanswer = json.loads(open({str(gold)!r}).readline())['answer']\n"
    steal_argv = ("argv = open('/proc/%d/cmdline' % os.getppid(), 'rb').read().split(b'\\0')\n"
                  "path = argv[argv.index(b'--gold') + 1].decode()\n" + steal_gold.replace(repr(str(gold)), "path"))
    regenerate = (f"sys.path.insert(0, {str(SRC)!r})\n"
                  "gen = real_import('progexec.datasets.mathqa.python_gen', fromlist=['x'])\n"
                  "corpus = real_import('progexec.datasets.mathqa.corpus', fromlist=['x'])\n"
                  "answer = gen.translate(corpus.mathqa_records('test')[0], 0).answer\n")
    pred = [{"id": "a", "code": prelude + steal_gold}, {"id": "b", "code": prelude + steal_argv},
            {"id": "c", "code": prelude + regenerate},
            {"id": "d", "code": prelude + f"answer = len(open({str(DATA)!r}, 'rb').read())\n"},
            {"id": "e", "code": "n0 = 5.0\nn1 = 31.1\nanswer = (100 + n1) * 100 / (100 - n0) - 100\n"}]
    (tmp_path / "pred.jsonl").write_text("".join(json.dumps(p) + "\n" for p in pred), encoding="utf-8")
    assert main(["score-python", "--gold", str(gold), "--pred", str(tmp_path / "pred.jsonl"), "--json",
                 "--timeout", "8", "--jobs", "2"]) == 0
    report = json.loads(capsys.readouterr().out)
    by_id = {item["id"]: item for item in report["items"]}
    assert [by_id[key]["correct"] for key in "abcde"] == [False, False, False, False, True]
    assert all(by_id[key]["kind"] in ("error", "forbidden") for key in "abcd"), by_id
    assert report["isolation"].startswith("bubblewrap")


def test_refuses_without_isolation_unless_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(bubblewrap, "status", lambda: bubblewrap.Isolation(False, "bwrap missing (test)"))
    (tmp_path / "gold.jsonl").write_text(json.dumps({"id": "a", "answer": 2.0}) + "\n", encoding="utf-8")
    (tmp_path / "pred.jsonl").write_text(json.dumps({"id": "a", "code": "answer = 2\n"}) + "\n", encoding="utf-8")
    args = ["score-python", "--gold", str(tmp_path / "gold.jsonl"), "--pred", str(tmp_path / "pred.jsonl"), "--json"]
    assert main(args) == 2
    error = capsys.readouterr().err
    assert "bwrap missing (test)" in error and "--unsafe-no-isolation" in error
    assert run_snippet("answer = 2\n", LIMITS).kind is SnippetKind.SANDBOX_ERROR
    assert main(args + ["--unsafe-no-isolation"]) == 0
    captured = capsys.readouterr()
    assert "WITHOUT isolation" in captured.err
    report = json.loads(captured.out)
    assert report["correct"] == 1 and report["isolation"].startswith("none")


def test_no_bwrap_means_no_isolation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    found = bubblewrap._probe()
    assert not found.available and "not installed" in found.reason


@pytest.mark.parametrize("raw, kind", [
    (b"", SnippetKind.CRASH),
    (b"\xff\xfe", SnippetKind.BAD_RESULT),
    (b"[" * 100_000, SnippetKind.BAD_RESULT),
    (b'{"kind": "ok", "answer": ' + b"9" * 5000 + b"}", SnippetKind.BAD_RESULT),
    (b'{"kind": "ok", "answer": "1e999"}', SnippetKind.BAD_RESULT),
    (b'{"kind": "ok", "answer": true}', SnippetKind.BAD_RESULT),
    (b'{"kind": "ok"}', SnippetKind.BAD_RESULT),
    (b'{"kind": "timeout"}', SnippetKind.BAD_RESULT),
    (b'{"kind": 3}', SnippetKind.BAD_RESULT),
    (b"[1, 2]", SnippetKind.BAD_RESULT),
    (b'{"kind": "ok", "answer": 10000000000000000000000000000000}', SnippetKind.OK),
    (b'{"kind": "ok", "answer": "-inf"}', SnippetKind.OK),
    (b'{"kind": "error", "message": ' + json.dumps("x" * 10_000).encode() + b"}", SnippetKind.ERROR),
])
def test_result_wire_format_is_validated(raw: bytes, kind: SnippetKind) -> None:
    result = decode_result(raw, 0)
    assert result.kind is kind
    assert len(result.message) <= 500
    assert (result.answer is not None) == (kind is SnippetKind.OK)


def test_seccomp_filter_is_rebuilt_byte_identical(tmp_path: Path) -> None:
    """The committed BPF programs are what libseccomp (Debian python3-seccomp, installed by .ci/run) builds."""
    system_python = "/usr/bin/python3"
    if not Path(system_python).exists() or subprocess.run([system_python, "-c", "import seccomp"],
                                                          capture_output=True).returncode != 0:
        pytest.skip("libseccomp's Python bindings (python3-seccomp) are not installed")
    script = Path(__file__).resolve().parent.parent / "scripts" / "build_sandbox_seccomp.py"
    subprocess.run([system_python, str(script), "--out", str(tmp_path)], check=True, capture_output=True)
    data = Path(progexec.__file__).resolve().parent / "data"
    for built in sorted(tmp_path.glob("*.bpf")):
        assert built.read_bytes() == (data / built.name).read_bytes(), built.name
    assert len(list(tmp_path.glob("*.bpf"))) == 4
