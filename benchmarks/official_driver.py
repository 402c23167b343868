"""Run the official FinQA / ConvFinQA evaluator code from a checkout, for bench_user_path.py.

Nothing here re-implements the official code: each command imports the official module from the
checkout given on the command line and calls its own functions. It exists because the ConvFinQA
``general_utils.py`` has no usable ``__main__`` (hard-coded paths), and because the official
per-program loop has to be timed inside one process, without interpreter start-up.

    python official_driver.py exec-loop DIR MODULE INPUT [--repeat N]   # prints one JSON object
    python official_driver.py convfinqa-inputs DIR MODULE DEV_JSON OUT_DIR
    python official_driver.py convfinqa-score DIR MODULE PRED GOLD OUT_DIR
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

TURN_FILE = "convfinqa_dev_turn.json"
GOLD_AS_PRED_FILE = "convfinqa_dev_gold_as_predictions.json"
SWAPPED_FILE = "convfinqa_dev_swapped_last_args_predictions.json"
"""Files written by ``convfinqa-inputs``, read by bench_user_path.py."""


def _official(directory: str, module: str) -> ModuleType:
    """Import the official module (``evaluate`` or ``general_utils``) from the checkout directory."""
    sys.path.insert(0, directory)
    return importlib.import_module(module)


def program_pairs(path: Path) -> list[tuple[str, Any]]:
    """(program text, table) for every FinQA item or ConvFinQA turn in the file, in file order."""
    data = json.loads(path.read_text(encoding="utf-8"))
    pairs: list[tuple[str, Any]] = []
    for item in data:
        if "qa" in item:
            pairs.append((item["qa"]["program"], item["table"]))
        else:
            pairs.extend((program, item["table"]) for program in item["annotation"]["turn_program"])
    return pairs


def exec_loop(directory: str, module: str, source: Path, repeat: int) -> dict[str, Any]:
    """Time the official ``program_tokenization`` + ``eval_program`` loop over every program in ``source``."""
    started = time.perf_counter()
    official = _official(directory, module)
    imported = time.perf_counter()
    pairs = program_pairs(source)
    loaded = time.perf_counter()
    walls: list[float] = []
    cpus: list[float] = []
    valid = 0
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        valid = 0
        for program, table in pairs:
            invalid, _value = official.eval_program(official.program_tokenization(program), table)
            valid += invalid == 0
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return {"n": len(pairs), "valid": valid, "wall": min(walls), "cpu": min(cpus),
            "import_seconds": imported - started, "load_seconds": loaded - imported}


def _swap_last_arguments(tokens: list[str]) -> list[str]:
    """The token list with the two arguments of its last step swapped (``[..., op(, a, b, ), EOF]``)."""
    if len(tokens) < 5:
        return list(tokens)
    return [*tokens[:-4], tokens[-3], tokens[-4], *tokens[-2:]]


def convfinqa_inputs(directory: str, module: str, dev: Path, out_dir: Path) -> None:
    """Write the turn gold file and two synthetic prediction files the ConvFinQA ``evaluate_result`` reads.

    No real ConvFinQA prediction set is in the generator's format, so the predictions are the gold
    turn programs themselves, and the same with the last step's two arguments swapped (equal
    programs for add/multiply, different values for subtract/divide). The official evaluator takes
    a turn file (one item per turn, ``annotation.exe_ans``) and ``{key: [{id, pred_prog,
    ref_prog}, ...]}``; programs are tokenized by the official ``program_tokenization``.
    """
    official = _official(directory, module)
    turns: list[dict[str, Any]] = []
    gold_as_pred: dict[str, list[dict[str, Any]]] = {}
    swapped_pred: dict[str, list[dict[str, Any]]] = {}
    for conversation in json.loads(dev.read_text(encoding="utf-8")):
        annotation = conversation["annotation"]
        for turn, (program, answer) in enumerate(zip(annotation["turn_program"], annotation["exe_ans_list"])):
            turn_id = f"{conversation['id']}_{turn}"
            turns.append({"id": turn_id, "table": conversation["table"],
                          "annotation": {"cur_program": program, "exe_ans": answer}})
            tokens = official.program_tokenization(program)
            gold_as_pred[turn_id] = [{"id": turn_id, "pred_prog": tokens, "ref_prog": tokens}]
            swapped = _swap_last_arguments(tokens)
            swapped_pred[turn_id] = [{"id": turn_id, "pred_prog": swapped, "ref_prog": tokens}]
    (out_dir / TURN_FILE).write_text(json.dumps(turns), encoding="utf-8")
    (out_dir / GOLD_AS_PRED_FILE).write_text(json.dumps(gold_as_pred), encoding="utf-8")
    (out_dir / SWAPPED_FILE).write_text(json.dumps(swapped_pred), encoding="utf-8")


def convfinqa_score(directory: str, module: str, pred: Path, gold: Path, out_dir: Path) -> None:
    """Call the official ConvFinQA ``evaluate_result``; it prints ``Exe acc:`` and ``Prog acc:``."""
    official = _official(directory, module)
    official.evaluate_result(str(pred), str(gold), str(out_dir / "all_res.json"), str(out_dir / "error.json"), "seq")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False,
                                     description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    loop = commands.add_parser("exec-loop")
    loop.add_argument("directory")
    loop.add_argument("module")
    loop.add_argument("input", type=Path)
    loop.add_argument("--repeat", type=int, default=1)
    inputs = commands.add_parser("convfinqa-inputs")
    score = commands.add_parser("convfinqa-score")
    for command in (inputs, score):
        command.add_argument("directory")
        command.add_argument("module")
    inputs.add_argument("dev", type=Path)
    inputs.add_argument("out_dir", type=Path)
    score.add_argument("pred", type=Path)
    score.add_argument("gold", type=Path)
    score.add_argument("out_dir", type=Path)
    args = parser.parse_args(argv)
    if args.command == "exec-loop":
        print(json.dumps(exec_loop(args.directory, args.module, args.input, args.repeat)))
    elif args.command == "convfinqa-inputs":
        convfinqa_inputs(args.directory, args.module, args.dev, args.out_dir)
    else:
        convfinqa_score(args.directory, args.module, args.pred, args.gold, args.out_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
