"""FinanceReasoning through ``score-python``: the published hard runs reproduced item for item, the answer-rule
quirks against the official verdicts (tests/data/financereasoning_answers.json, read from the official code),
hostile solutions inside a real model file held, and ``--check-gold``'s counts against the issue's figures.

The data (its licence is unclear, so it is not in the repository) is read from ``shared/data/financereasoning``
beside the repository; the tests fail, not skip, without it or without the sandbox.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from .shared_data import shared_data
from progexec.cli import main
from progexec.isolation import bwrap as bubblewrap

ROOT = Path(__file__).resolve().parent.parent
DATA = shared_data() / "financereasoning"
ANSWERS = json.loads((ROOT / "tests" / "data" / "financereasoning_answers.json").read_text(encoding="utf-8"))
PUBLISHED = {"pot": ("gpt-4o-2024-11-20", "deepseek-v3", "claude-3-5-sonnet-20241022"), "cot": ("gpt-4o-2024-11-20",)}


def test_the_data_and_the_sandbox_are_present() -> None:
    assert (DATA / "hard.json.gz").exists(), f"FinanceReasoning data missing: {DATA}"
    assert bubblewrap.status().available, "no bubblewrap isolation on this machine"


def _load(path: Path) -> Any:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return json.load(handle)


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["score-python", *args, "--json", "--no-progress"]) == 0
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def _items(document: dict[str, Any], model: str, mode: str) -> dict[str, dict[str, Any]]:
    return {item["question_id"]: item for item in document["items"] if item["model"] == model and item["mode"] == mode}


# ---------------------------------------------------------------- hostile solutions inside a real model file

GOLD_PATH = str(DATA / "hard.json.gz")
HOSTILE: dict[str, tuple[str, int, int]] = {
    # name: (code, acc, execution_rate) as progexec must give them
    "ground_truths": ("import gc\ndef solution():\n    found = [o for o in gc.get_objects() if isinstance(o, dict) "
                      "and 'ground_truth' in o]\n    return found[0]['ground_truth']", 0, 0),
    "gold_file": (f"def solution():\n    return open({GOLD_PATH!r}, 'rb').read()[:5]", 0, 0),
    "result_channel": ("import os\ndef solution():\n    for fd in range(3, 40):\n        try:\n"
                       "            os.write(fd, b'{\"kind\": \"ok\", \"type\": \"int\", \"int\": \"1\", \"number\": 1}\\n')\n"
                       "        except OSError:\n            pass\n    return -1", 0, 0),  # its own report is spoilt
    "huge_int": ("def solution():\n    return 10**5000", 0, 1),
    "unpicklable": ("def solution():\n    return lambda: 1152", 0, 0),
    "own_class": ("class Yes:\n    def __ge__(self, other): return True\n    def __le__(self, other): return True\n"
                  "def solution():\n    return Yes()", 0, 0),
    "sleeping": ("import time\ndef solution():\n    time.sleep(60)\n    return 1", 0, 0),
    "spinning": ("def solution():\n    while True:\n        pass", 0, 0),
    "os_system": ("import os\ndef solution():\n    os.system('touch /tmp/progexec-financereasoning-pwned')\n"
                  "    return 1", 0, 0),
    "open_write": ("def solution():\n    open('/tmp/progexec-financereasoning-pwned', 'w').write('x')\n    return 1", 0, 0),
    "kill_parent": ("import os, signal\ndef solution():\n    os.kill(os.getppid(), signal.SIGKILL)\n    return 1", 0, 0),
    "memory": ("def solution():\n    return len('x' * 10**11)", 0, 0),
    "exit": ("import sys\ndef solution():\n    sys.exit(0)", 0, 0),
    "hanging_text": ("def solution():\n    return '10**10**10'", 0, 1),
    "text_runs_os": ("def solution():\n    return \"__import__('os').system('id') or 5\"", 0, 1),
    "patch_json": ("import json\njson.dumps = lambda *a, **k: '{\"k\": \"num\", \"p\": \"1\", \"q\": \"1\"}'\n"
                   "def solution():\n    return -1", 0, 0),  # the child's own report is spoilt
    "fork": ("import os\ndef solution():\n    os.fork()\n    return 1", 0, 0),
    "no_solution": ("x = 1", 0, 0),
}


@pytest.fixture(scope="module")
def hard_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, str]]:
    """The 4 shared published runs, plus a copy of gpt-4o's PoT run with hostile solutions in 18 of its items."""
    folder = tmp_path_factory.mktemp("runs")
    for mode, models in PUBLISHED.items():
        for model in models:
            (folder / mode / model).mkdir(parents=True)
            data = _load(DATA / "results" / "hard" / mode / f"{model}.evaluation.json.gz")
            (folder / mode / model / "evaluation.json").write_text(json.dumps(data), encoding="utf-8")
    records = _load(DATA / "results" / "hard" / "pot" / "gpt-4o-2024-11-20.evaluation.json.gz")
    replaced: dict[str, str] = {}
    for record, (name, (code, _, _)) in zip(records[::13], HOSTILE.items()):
        record["output"] = f"```python\n{code}\n```"
        replaced[record["question_id"]] = name
    (folder / "pot" / "hostile").mkdir()
    (folder / "pot" / "hostile" / "inference.json").write_text(json.dumps(records), encoding="utf-8")
    return {"folder": str(folder)}, replaced


@pytest.fixture(scope="module")
def hard_document(hard_runs: tuple[dict[str, Any], dict[str, str]]) -> dict[str, Any]:
    import contextlib
    import io
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(["score-python", "--gold", GOLD_PATH, "--pred", hard_runs[0]["folder"], "--json",
                     "--no-progress"]) == 0
    document: dict[str, Any] = json.loads(buffer.getvalue())
    return document


@pytest.mark.parametrize(("mode", "model"), [(mode, model) for mode, models in PUBLISHED.items() for model in models])
def test_published_runs_are_reproduced_item_for_item(hard_document: dict[str, Any], mode: str, model: str) -> None:
    published = _load(DATA / "results" / "hard" / mode / f"{model}.evaluation.json.gz")
    items = _items(hard_document, model, mode)     # named by the folder; the mode tells PoT from CoT
    assert len(items) == len(published) == 238
    for record in published:
        item = items[record["question_id"]]
        assert (item["acc"], item["execution_rate"]) == (record["result"]["acc"], record["result"]["execution_rate"])
    summary = next(m for m in hard_document["models"] if m["model"] == model and m["mode"] == mode)
    n = len(published)
    assert summary["avg_accuracy"] == round(sum(r["result"]["acc"] for r in published) / n * 100, 2)
    assert summary["avg_execution_rate"] == round(sum(r["result"]["execution_rate"] for r in published) / n * 100, 2)
    assert summary["published_disagreements"] == []


def test_hostile_solutions_are_held(hard_document: dict[str, Any],
                                    hard_runs: tuple[dict[str, Any], dict[str, str]]) -> None:
    replaced = hard_runs[1]
    assert len(replaced) == len(HOSTILE) == 18
    published = {r["question_id"]: r["result"]
                 for r in _load(DATA / "results" / "hard" / "pot" / "gpt-4o-2024-11-20.evaluation.json.gz")}
    items = _items(hard_document, "hostile", "pot")
    assert len(items) == 238
    for question, item in items.items():
        if question in replaced:
            _, acc, rate = HOSTILE[replaced[question]]
            assert (item["acc"], item["execution_rate"], item["strict"]) == (acc, rate, 0), replaced[question]
        else:
            assert (item["acc"], item["execution_rate"]) == (published[question]["acc"],
                                                             published[question]["execution_rate"]), question
    by_name = {replaced[question]: item for question, item in items.items() if question in replaced}
    assert any("official_stops" in note for note in by_name["huge_int"]["notes"])
    assert any("official_hangs" in note for note in by_name["hanging_text"]["notes"])
    assert by_name["hanging_text"]["eval_text"] and by_name["text_runs_os"]["eval_text"]
    assert by_name["unpicklable"]["status"] == "unpicklable"
    assert by_name["result_channel"]["status"] == "bad_result"
    assert not Path("/tmp/progexec-financereasoning-pwned").exists()


# ---------------------------------------------------------------- the answer-rule quirks

def test_answer_quirks_match_the_official_verdicts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, cot, pot = [], [], []
    for number, case in enumerate(ANSWERS):
        question = f"q{number}"
        gold.append({"question_id": question, "python_solution": "answer = 0", "ground_truth": case["gt"],
                     "source": "FinanceReasoning-test-0", "context": "", "question": ""})
        cot.append({"question_id": question, "output": "", "result": {"extracted_answer": case["text"]}})
        pot.append({"question_id": question, "output": f"```python\ndef solution():\n    return {case['text']!r}\n```"})
    (tmp_path / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    for name, records in (("cot", cot), ("pot", pot)):
        (tmp_path / "runs" / name).mkdir(parents=True)
        (tmp_path / "runs" / name / "evaluation.json").write_text(json.dumps(records), encoding="utf-8")
    document = _run(["--gold", str(tmp_path / "gold.json"), "--pred", str(tmp_path / "runs"),
                     "--out", str(tmp_path / "board")], capsys)
    _check_outputs(tmp_path / "board", len(ANSWERS))
    for mode in ("cot", "pot"):
        items = _items(document, mode, mode)
        for number, case in enumerate(ANSWERS):
            item = items[f"q{number}"]
            assert (item["acc"], item["strict"], item["divergence"]) == (case["acc"], case["strict"], case["class"]), \
                (mode, case)
            # eval_cot's vailid(): an answer containing "none" is not executed
            assert item["execution_rate"] == int(mode == "pot" or "none" not in case["text"].lower()), case
            if not item["execution_rate"]:
                continue
            assert item["eval_text"] == (case["text"] != "1.0000" and case["text"] not in ("26.923", "27.05",
                                                                                            "40.28", "-40.264",
                                                                                            "40264", "12.345"))


def test_generated_answers_match_the_official_verdicts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """700 generated CoT answers (numbers written many ways, units, words, expressions) whose official verdicts
    were computed by the official get_acc (scripts/crosscheck_financereasoning.py --write-fixture)."""
    cases = json.loads((ROOT / "tests" / "data" / "financereasoning_generated_answers.json").read_text(encoding="utf-8"))
    assert len(cases) == 700
    gold = [{"question_id": f"g{n}", "python_solution": "answer = 0", "ground_truth": case["gt"], "source": "x",
             "context": ""} for n, case in enumerate(cases)]
    run = [{"question_id": f"g{n}", "result": {"extracted_answer": case["text"]}} for n, case in enumerate(cases)]
    (tmp_path / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    (tmp_path / "generated.evaluation.json").write_text(json.dumps(run), encoding="utf-8")
    document = _run(["--gold", str(tmp_path / "gold.json"), "--pred", str(tmp_path / "generated.evaluation.json")],
                    capsys)
    items = _items(document, "generated", "cot")
    for n, case in enumerate(cases):
        item = items[f"g{n}"]
        assert (item["acc"], item["execution_rate"]) == (case["acc"], case["execution_rate"]), case
        if item["acc"] and not item["strict"]:
            assert item["divergence"] is not None


def _check_outputs(board: Path, n: int) -> None:
    """The classes and eval_text flags are in items.jsonl, leaderboard.json, the text report and the HTML."""
    items = [json.loads(line) for line in (board / "items.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(items) == 2 * n
    assert all("divergence" in item and "eval_text" in item for item in items)
    summary = json.loads((board / "leaderboard.json").read_text(encoding="utf-8"))
    assert {model["model"] for model in summary["models"]} == {"cot", "pot"}
    assert summary["divergences"]["totals"]["eval_text"] > 0
    text = (board / "leaderboard.txt").read_text(encoding="utf-8")
    assert "official-correct answers the strict rule rejects" in text and "eval_text" in text
    index = (board / "index.html").read_text(encoding="utf-8")
    assert all(name in index for name in ("eval_text", "text_normalized", "first_element", "within_0.2_percent"))
    assert (board / "model-pot-pot.html").exists() and (board / "model-cot-cot.html").exists()


def test_values_a_solution_returns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = [  # (return expression, gt, acc, strict, class), the official verdict read from get_acc
        ("True", 1, 1, 0, "bool_as_number"), ("1", True, 1, 0, "bool_as_number"),
        ("[12.345, 99]", 12.345, 1, 0, "first_element"), ("(5,)", 5, 1, 0, "first_element"),
        ("[]", 0, 0, 0, None), ("np.array([5.0])", 5, 1, 0, "one_element_array"),
        ("np.array([5.0, 6.0])", 5, 0, 0, None), ("np.float64(5.004)", 5, 1, 1, None),
        ("np.bool_(True)", True, 1, 1, None), ("np.bool_(True)", 1, 1, 0, "bool_as_number"),
        ("float('nan')", 5, 0, 0, None), ("float('inf')", 5, 0, 0, None), ("None", 0, 0, 0, None),
        ("{}", 0, 0, 0, None), ("Decimal('27.05')", 27, 1, 1, None), ("Fraction(1, 3)", 0.3334, 1, 0,
                                                                        "within_0.2_percent"),
        ("' ' * 1500 + '5'", 5, 1, 1, None), ("'x' * 1500", 5, 0, 0, None), ("' ' * 1500 + '2**3'", 8, 1, 0,
                                                                              "eval_text"),
        ("26.923", 27, 0, 1, None), ("'40.264'", 40.264, 1, 1, None), ("1+0j", True, 1, 0, "bool_as_number"),
    ]
    gold = [{"question_id": f"v{n}", "python_solution": "answer = 0", "ground_truth": gt, "source": "x",
             "context": ""} for n, (_, gt, _, _, _) in enumerate(cases)]
    pot = [{"question_id": f"v{n}", "output": "```python\nimport numpy as np\nfrom decimal import Decimal\nfrom "
            f"fractions import Fraction\ndef solution():\n    return {expression}\n```"}
           for n, (expression, _, _, _, _) in enumerate(cases)]
    (tmp_path / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    (tmp_path / "m.inference.json").write_text(json.dumps(pot), encoding="utf-8")
    document = _run(["--gold", str(tmp_path / "gold.json"), "--pred", str(tmp_path / "m.inference.json")], capsys)
    items = _items(document, "m", "pot")
    for n, (expression, _, acc, strict, kind) in enumerate(cases):
        item = items[f"v{n}"]
        assert (item["acc"], item["strict"], item["divergence"], item["execution_rate"]) == (acc, strict, kind, 1), \
            expression


def test_models_are_named_by_their_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = [{"question_id": "a", "python_solution": "answer = 1", "ground_truth": 1, "source": "x", "context": ""}]
    (tmp_path / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    for model in ("llama3.1-405b-instruct", "llama3.3-70b-instruct"):
        (tmp_path / "runs" / model).mkdir(parents=True)
        (tmp_path / "runs" / model / "inference.json").write_text(
            json.dumps([{"question_id": "a", "output": "def solution():\n    return 1"}]), encoding="utf-8")
    (tmp_path / "runs" / "raw_pot_outputs").mkdir()
    (tmp_path / "runs" / "raw_pot_outputs" / "other.json").write_text("not JSON", encoding="utf-8")  # not a run
    document = _run(["--gold", str(tmp_path / "gold.json"), "--pred", str(tmp_path / "runs")], capsys)
    assert sorted(model["model"] for model in document["models"]) == ["llama3.1-405b-instruct",
                                                                      "llama3.3-70b-instruct"]
    for level in ("easy", "hard"):   # one model, one mode, twice: named by their paths
        (tmp_path / "levels" / level / "m").mkdir(parents=True)
        (tmp_path / "levels" / level / "m" / "evaluation.json").write_text(
            json.dumps([{"question_id": "a", "output": "def solution():\n    return 1"}]), encoding="utf-8")
    document = _run(["--gold", str(tmp_path / "gold.json"), "--pred", str(tmp_path / "levels")], capsys)
    assert sorted(model["model"] for model in document["models"]) == ["easy/m", "hard/m"]


# ---------------------------------------------------------------- the golds

def test_check_gold_counts_by_source(capsys: pytest.CaptureFixture[str]) -> None:
    totals: dict[str, int] = {}
    conventions: dict[str, int] = {}
    failing = 0
    golds: dict[str, dict[str, Any]] = {}
    for level in ("easy", "medium", "hard"):
        document = _run(["--gold", str(DATA / f"{level}.json.gz"), "--check-gold"], capsys)
        for source, row in document["by_source"].items():
            totals[source] = totals.get(source, 0) + row["n"]
        for name, count in document["by_convention"].items():
            conventions[name] = conventions.get(name, 0) + count
        failing += document["failing"]
        golds.update({gold["question_id"]: gold for gold in document["golds"]})
    # the figures: the BizBench sets, FinanceMath's validation set and 908 new questions; 94 fail
    assert totals == {"CodeFinQA": 795, "CodeTAT-QA": 288, "FinCode": 47, "FinanceMath": 200, "FinanceReasoning": 908}
    assert failing == 94
    key_errors = sorted(q for q, g in golds.items() if g["source"] == "CodeTAT-QA" and g["status"] != "ok")
    assert key_errors == ["test-1151", "test-1515", "test-265"]
    assert all(golds[q]["message"].startswith("KeyError") for q in key_errors)
    assert (golds["test-281"]["acc"], golds["test-281"]["ground_truth"]) == (0, 27)        # 26.923..., unrounded
    assert (golds["test-54"]["value"], golds["test-54"]["acc"]) == ("40264", 0)           # thousands, not millions
    assert golds["test-660"]["message"].startswith("TypeError")                           # 13,981.9 is a tuple
    assert golds["test-422"]["convention"] == "last_assignment" and golds["test-422"]["acc"] == 1
    # 1,108 solution() and 1,058 answer variables as the issue counts them (4 of the latter fail to run)
    assert conventions["solution"] == 1108 and conventions["answer"] + conventions["(did not run)"] == 1058


def test_unusable_input_is_a_usage_error(tmp_path: Path) -> None:
    gold = [{"question_id": 5, "python_solution": "answer = 1", "ground_truth": 1, "source": "x", "context": ""}]
    (tmp_path / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    (tmp_path / "run.json").write_text("[]", encoding="utf-8")
    assert main(["score-python", "--gold", str(tmp_path / "gold.json"), "--pred", str(tmp_path / "run.json")]) == 2
    good = [{**gold[0], "question_id": "a"}]
    (tmp_path / "good.json").write_text(json.dumps(good), encoding="utf-8")
    assert main(["score-python", "--gold", str(tmp_path / "good.json")]) == 2            # neither --pred nor --check-gold
    assert main(["score-python", "--gold", str(tmp_path / "good.json"), "--pred", str(tmp_path / "none")]) == 2
    (tmp_path / "cot" / "m").mkdir(parents=True)   # a CoT inference.json: its answers need the official LLM
    (tmp_path / "cot" / "m" / "inference.json").write_text(json.dumps([{"question_id": "a", "output": "It is 1."}]),
                                                          encoding="utf-8")
    assert main(["score-python", "--gold", str(tmp_path / "good.json"), "--pred", str(tmp_path / "cot")]) == 2
