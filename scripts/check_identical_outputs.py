#!/usr/bin/env python3
"""Run the same progexec commands with two sources and show that every output is byte-identical.

A speed change must not change a single output byte. This script runs ``exec`` on every embedded
corpus and on the downloaded datasets, ``score`` on every committed prediction set (the TAT-QA one
against the downloaded dev set), ``reward`` on the committed gold set under each policy, and ``report``
on the small committed file and on the downloaded TAT-QA dev set, and MathQA's own scorer on
predictions made from its downloaded test file, once with a
baseline source (for example ``git archive <commit> src | tar -x -C /tmp/base``) and once with
this repository's ``src``, then compares exit codes, standard output, standard error and every
file written, byte for byte. It prints one line per command and exits 1 on any difference.

    python scripts/check_identical_outputs.py --baseline-src /tmp/base/src [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests" / "data"


def commands(data: Path) -> list[tuple[str, list[str]]]:
    """(name, argv after ``python -m progexec``); ``{out}`` is replaced by a fresh output directory."""
    cases: list[tuple[str, list[str]]] = []
    for corpus in ("finqa", "convfinqa", "mathqa:test", "mathqa:dev", "mathqa:challenge_test"):
        cases.append((f"exec {corpus}", ["exec", corpus]))
    cases.append(("exec finqa:test max_literal_chars=4", ["exec", "finqa:test", "--limit", "max_literal_chars=4"]))
    cases.append(("exec finqa:dev max_steps=2", ["exec", "finqa:dev", "--limit", "max_steps=2"]))
    cases.append(("exec mathqa:test trax", ["exec", "mathqa:test", "--semantics", "trax"]))
    cases.append(("exec hostile snippets", ["exec", str(TESTS / "hostile_snippets.jsonl")]))
    cases.append(("exec report_small", ["exec", str(TESTS / "report_small.jsonl")]))
    for name in ("finqa/test.json", "finqa/dev.json", "finqa/train.json.gz", "convfinqa/dev.json"):
        if (data / name).exists():
            cases.append((f"exec {name}", ["exec", str(data / name)]))
    tatqa_dev = data / "tatqa" / "tatqa_dataset_dev.json"
    if tatqa_dev.exists():
        cases.append(("exec tatqa/tatqa_dataset_dev.json", ["exec", str(tatqa_dev)]))
        cases.append(("report tatqa/tatqa_dataset_dev.json", ["report", str(tatqa_dev), "--json", "--out", "{out}"]))
    for path in sorted((TESTS / "predictions").glob("*.gz")):
        if "tatqa" in path.name:  # the TAT-QA sample prediction scores against the downloaded dev set
            if tatqa_dev.exists():
                cases.append((f"score {path.name}", ["score", "--gold", str(tatqa_dev), "--pred", str(path),
                                                     "--out", "{out}", "--items", "{out}/items.jsonl"]))
            continue
        gold = "convfinqa:dev" if "convfinqa" in path.name else "finqa:dev" if "_dev_" in path.name else "finqa:test"
        cases.append((f"score {path.name}", ["score", "--gold", gold, "--pred", str(path), "--json",
                                             "--items", "{out}/items.jsonl"]))
    cases.append(("score small", ["score", "--gold", str(TESTS / "score_small" / "gold.json"), "--pred",
                                  str(TESTS / "score_small" / "pred.json"), "--scorer", "all", "--out", "{out}"]))
    for policy in ("official", "numeric", "helm"):
        for name in ("convfinqa_sonnet.jsonl.gz", "handwritten.jsonl"):
            source = TESTS / "rewards" / name
            cases.append((f"reward {name} {policy}", ["reward", "{out}/in.jsonl", "--policy", policy]))
            cases[-1] = (cases[-1][0] + f" <{source}>", cases[-1][1])
    mathqa_test = data / "mathqa" / "test.json.gz"
    if mathqa_test.exists():  # MathQA's own scorer, over predictions made from the downloaded test file
        cases.append((f"score mathqa {MATHQA_PREDICTIONS}", ["score", "--gold", str(mathqa_test), "--pred",
                                                             f"{{out}}/{MATHQA_PREDICTIONS}", "--out", "{out}/score"]))
    cases.append(("report report_small", ["report", str(TESTS / "report_small.jsonl"), "--json", "--out", "{out}"]))
    return cases


MATHQA_PREDICTIONS = "mathqa_predictions.jsonl"


def _mathqa_predictions(gold: Path, out: Path) -> None:
    """Predictions for MathQA's scorer: each problem's gold formula, every third one replaced by the formula of
    the problem before it (so right, wrong and unexecutable answers are all scored)."""
    import gzip
    import json

    records = json.loads(gzip.decompress(gold.read_bytes()))
    lines = []
    for index, record in enumerate(records):
        source = records[index - 1] if index % 3 == 2 else record
        lines.append(json.dumps({"id": str(index), "predicted": source["linear_formula"]}) + "\n")
    (out / MATHQA_PREDICTIONS).write_text("".join(lines), encoding="utf-8")


def _prepare_input(name: str, out: Path, data: Path) -> None:
    """The reward cases read a plain JSON Lines copy of their (possibly gzipped) gold set; MathQA's score case
    reads predictions made from the downloaded test file."""
    if name.startswith("score mathqa"):
        _mathqa_predictions(data / "mathqa" / "test.json.gz", out)
        return
    if "<" not in name:
        return
    import gzip

    source = Path(name.split("<", 1)[1].rstrip(">"))
    raw = source.read_bytes()
    (out / "in.jsonl").write_bytes(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)


def run_one(python: str, src: Path, argv: list[str], name: str, work: Path, data: Path) -> dict[str, str]:
    """Exit code, stdout, stderr and every written file of one command, as SHA-256 digests."""
    out = work
    out.mkdir(parents=True, exist_ok=True)
    _prepare_input(name, out, data)
    real = [word.replace("{out}", str(out)) for word in argv]
    env = {**os.environ, "PYTHONPATH": str(src), "NO_COLOR": "1"}
    done = subprocess.run([python, "-m", "progexec", *real], env=env, capture_output=True, cwd=str(work))
    result = {"exit": str(done.returncode), "stdout": _digest(done.stdout.replace(str(out).encode(), b"{out}")),
              "stderr": _digest(done.stderr.replace(str(out).encode(), b"{out}"))}
    for path in sorted(out.rglob("*")):
        if path.is_file() and path.name not in ("in.jsonl", MATHQA_PREDICTIONS):
            result[f"file {path.relative_to(out)}"] = _digest(path.read_bytes().replace(str(out).encode(), b"{out}"))
    return result


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--baseline-src", type=Path, required=True, help="the baseline's src directory")
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the source under test (default: this src)")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--only", default="", help="run only the commands whose name contains this text")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--jobs", type=int, default=1,
                        help="run the source under test with --jobs N (and small chunks) where a command has it; the "
                             "baseline runs serial, so its outputs must equal the serial baseline's")
    args = parser.parse_args(argv)
    parallel = ["--jobs", str(args.jobs), "--chunk-size", "97"] if args.jobs > 1 else []
    differences = 0
    with tempfile.TemporaryDirectory(prefix="identical-") as tmp:
        data = args.data.resolve()
        for index, (name, words) in enumerate(commands(data)):
            if args.only not in name:
                continue
            base = run_one(args.python, args.baseline_src.resolve(), words, name, Path(tmp) / f"{index}-base", data)
            extra = parallel if words[0] in ("exec", "report", "score", "reward") else []
            ours = run_one(args.python, args.src.resolve(), words + extra, name, Path(tmp) / f"{index}-ours", data)
            # the output directories differ by name only: compare the digests, not the paths
            same = base == ours
            differences += not same
            shown = name.split(" <")[0]
            print(f"{'same' if same else 'DIFFERENT'}  {shown}  (exit {ours['exit']}, {len(ours) - 3} files)",
                  flush=True)
            if not same:
                for key in sorted(set(base) | set(ours)):
                    if base.get(key) != ours.get(key):
                        print(f"    {key}: baseline {base.get(key)} vs ours {ours.get(key)}")
    print(f"\n{differences} command(s) differ" if differences else "\nevery output is byte-identical")
    return 1 if differences else 0


if __name__ == "__main__":
    raise SystemExit(main())
