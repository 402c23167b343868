"""The sandbox contains hostile snippets; ``score-python`` scores right, wrong and hostile ones and never hangs."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest

from progexec.cli import main
from progexec.datasets.mathqa.sandbox import run_snippet, run_snippets
from progexec.core.limits import DEFAULT_LIMITS

LIMITS = DEFAULT_LIMITS.with_(snippet_wall_seconds=3.0, snippet_memory_bytes=512 * 1024 * 1024,
                              snippet_output_chars=100_000)
MARKER = Path(tempfile.gettempdir()) / f"progexec-sandbox-escape-{os.getpid()}"
"""A file a hostile snippet tries to create; it must never exist."""
_OS = "w = [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0]\n" \
      "g = w.__init__.__globals__\n"

HOSTILE: dict[str, tuple[str, str]] = {
    "infinite loop": ("while True:\n    pass\n", "timeout"),
    "huge allocation": ("x = [0] * (10 ** 10)\nanswer = 1\n", "memory"),
    "huge string": ("x = 'a' * (10 ** 11)\nanswer = 1\n", "memory"),
    "import os": (f"import os\nos.system('touch {MARKER}')\nanswer = 1\n", "forbidden"),
    "__import__": ("os = __import__('os')\nanswer = 1\n", "forbidden"),
    "file write": (f"open('{MARKER}', 'w').write('x')\nanswer = 1\n", "forbidden"),
    "file read outside python": ("answer = len(open('/etc/passwd').read())\n", "forbidden"),
    "crash": ("raise ValueError('boom')\n", "error"),
    "sys.exit": ("import sys\nsys.exit(3)\n", "forbidden"),
    "SystemExit": ("raise SystemExit(4)\n", "exit"),
    "megabytes of output": ("while True:\n    print('x' * 10000)\n", "output_limit"),
    "system via object graph": (_OS + f"g['system']('touch {MARKER}')\nanswer = 1\n", "forbidden"),
    "os.open via object graph": (_OS + f"g['open']('{MARKER}', 65)\nanswer = 1\n", "forbidden"),
    "fork bomb": (_OS + "while True:\n    g['fork']()\n", "forbidden"),
    "flood the result pipe": (_OS + "while True:\n    g['write'](3, b'x' * 65536)\n", "output_limit"),
    "kill itself": (_OS + "g['kill'](g['getpid'](), 9)\n", "forbidden"),
    "recursion": ("def f(n):\n    return f(n + 1)\nanswer = f(0)\n", "error"),
    "syntax error": ("answer = (\n", "syntax_error"),
    "no answer": ("x = 1\n", "no_answer"),
    "answer not a number": ("answer = 'abc'\n", "not_a_number"),
}


@pytest.fixture(scope="module")
def hostile_results() -> dict[str, object]:
    names = list(HOSTILE)
    return dict(zip(names, run_snippets((HOSTILE[name][0] for name in names), LIMITS)))


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_snippet_is_contained(name: str, hostile_results: dict[str, object]) -> None:
    result = hostile_results[name]
    assert result.kind == HOSTILE[name][1], result
    assert result.answer is None
    assert result.kind == "timeout" or result.message


def test_nothing_escaped(hostile_results: dict[str, object]) -> None:
    assert not MARKER.exists()


def test_ordinary_snippets() -> None:
    code = ["import math\nn0 = 2.0\nanswer = math.pi * n0 ** 2\n", "answer = '12.5'\n", "answer = 7\n"]
    results = list(run_snippets(code, LIMITS, jobs=2))
    assert [r.kind for r in results] == ["ok", "ok", "ok"]
    assert results[0].answer == 3.141592653589793 * 4.0
    assert results[1].answer == 12.5 and results[2].answer == 7.0


def test_scipy_as_mathqa_python_uses_it() -> None:
    pytest.importorskip("scipy")
    result = run_snippet("import scipy.special\nanswer = scipy.special.comb(5, 2)\n", LIMITS)
    assert (result.kind, result.answer) == ("ok", 10.0)


def test_score_python_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = [{"id": "0", "answer": 38.0}, {"id": "1", "answer": 269.99999999999994}, {"id": "2", "answer": 870.0},
            {"id": "3", "answer": 5.0}, {"id": "4", "answer": 1.0}, {"id": "5", "answer": 2.0}]
    pred = [
        {"id": "0", "code": "n0 = 5.0\nn1 = 31.1\nanswer = (100 + n1) * 100 / (100 - n0) - 100\n"},
        {"id": "1", "code": "answer = 270\n"},                       # right within the tolerance
        {"id": "2", "code": "answer = 871\n"},                       # wrong answer
        {"id": "3", "code": "while True:\n    pass\n"},              # hostile: runs forever
        {"id": "4", "code": "import os\nos.system('echo hi')\nanswer = 1\n"},
        {"id": "99", "code": "answer = 1\n"},                        # no such gold id
    ]
    (tmp_path / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    (tmp_path / "pred.jsonl").write_text("".join(json.dumps(p) + "\n" for p in pred), encoding="utf-8")
    code = main(["score-python", "--gold", str(tmp_path / "gold.json"), "--pred", str(tmp_path / "pred.jsonl"),
                 "--json", "--timeout", "2"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["n"] == 6 and report["correct"] == 2 and report["accuracy"] == pytest.approx(2 / 6)
    by_id = {item["id"]: item for item in report["items"]}
    assert [by_id[k]["correct"] for k in "012345"] == [True, True, False, False, False, False]
    assert by_id["2"]["kind"] == "wrong_answer" and "differs" in by_id["2"]["reason"]
    assert by_id["3"]["kind"] == "timeout"
    assert by_id["4"]["kind"] == "forbidden"
    assert by_id["5"]["kind"] == "missing"
    assert report["extra_predictions"] == 1


def test_score_python_strict_tolerance(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "gold.jsonl").write_text(json.dumps({"id": "a", "answer": 269.99999999999994}) + "\n")
    (tmp_path / "pred.jsonl").write_text(json.dumps({"id": "a", "code": "answer = 270.001"}) + "\n")
    args = ["score-python", "--gold", str(tmp_path / "gold.jsonl"), "--pred", str(tmp_path / "pred.jsonl"), "--json"]
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["correct"] == 1
    assert main(args + ["--rel-tol", "1e-9"]) == 0
    assert json.loads(capsys.readouterr().out)["correct"] == 0


def test_score_python_bad_input_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "gold.json").write_text(json.dumps([{"id": "a"}]), encoding="utf-8")
    assert main(["score-python", "--gold", str(tmp_path / "gold.json"), "--pred", os.devnull]) == 2


def test_oversized_or_odd_snippets_never_raise() -> None:
    assert run_snippet("x = 1\n" * 200_000, LIMITS).kind == "too_long"
    odd = run_snippet("answer = '\ud800'\n", LIMITS)  # a lone surrogate cannot even be sent as UTF-8
    assert not odd.ok and odd.answer is None and odd.message
