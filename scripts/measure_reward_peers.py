"""Measure real reward functions with ``check-reward`` and write the table of docs/check-reward.md.

    PYTHONPATH=src python scripts/measure_reward_peers.py --verl /path/to/verl [--cases 1000] [--write]

``--verl`` is the ``verl`` package folder (an installed verl, ``pip install --no-deps verl``, or a
checkout's ``verl/``); Math-Verify must be importable (``pip install math-verify``). Each peer in
``scripts/reward_peers.py`` and each of progexec's own adapters runs on the same suite (seed 0)
with every probe; the script prints a Markdown table of their classes, their rate (cases/s: cases
answered per second of the calls of the main caller, one child process fed batches of 32 over a pipe,
batches with a hung case left out) and, per answer form, how often each accepted the answer.
``--write`` replaces the table between the ``peers`` markers in docs/check-reward.md. Exit 1 when
one of progexec's adapters has any finding.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from progexec.checker.reward.caller import Kind, Outcome, RewardCaller
from progexec.checker.reward.check import RewardReport, run_reward_check
from progexec.checker.reward.classes import ORDER
from progexec.checker.reward.forms import FORMS
from progexec.checker.reward.suite import RewardCase, build_suite

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "check-reward.md"
BEGIN, END = "<!-- peers -->", "<!-- /peers -->"
PROBED = ("thread_dependent", "nondeterministic")

PEERS = [  # (label, MODULE:FUNC, signature)
    ("Math-Verify `verify(parse(gold), parse(completion))`", "reward_peers:math_verify_reward", "plain"),
    ("verl `gsm8k.compute_score`", "reward_peers:verl_gsm8k", "plain"),
    ("verl `math_reward.compute_score`", "reward_peers:verl_math", "plain"),
    ("verl `prime_math.compute_score`", "reward_peers:verl_prime_math", "plain"),
]
OWN = [
    ("progexec `integrations.verl.compute_score`", "progexec.integrations.verl:compute_score", "verl"),
    ("progexec `integrations.verl.compute_score_batch`", "progexec.integrations.verl:compute_score_batch",
     "verl-batch"),
    ("progexec `integrations.openrlhf.reward_func`", "progexec.integrations.openrlhf:reward_func", "openrlhf"),
    ("progexec `integrations.trl.ProgexecReward()`", "reward_peers:progexec_trl", "trl"),
]


class Timed:
    """The main caller, timed: the seconds its calls take and the cases they answer (a call with a hung
    case is left out: the hang's timeout is the leash's, not the function's speed)."""

    def __init__(self, caller: RewardCaller) -> None:
        self.caller, self.seconds, self.cases = caller, 0.0, 0

    def call(self, cases: Sequence[RewardCase]) -> list[Outcome]:
        started = time.perf_counter()
        got = self.caller.call(cases)
        if not any(outcome.kind is Kind.HANG for outcome in got):
            self.seconds += time.perf_counter() - started
            self.cases += len(cases)
        return got

    def rate(self) -> float:
        return self.cases / self.seconds if self.seconds > 0 else 0.0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.caller, name)


def measure(spec: str, signature: str, cases: int, probe_cases: int, timeout: float) -> tuple[RewardReport, float]:
    """The check-reward report of a function and its rate in cases per second."""
    suite = build_suite(cases, 0)
    report = RewardReport(spec, signature, 0, 0.5, (0.0, 1.0), "record")
    timed: list[Timed] = []

    def factory(mode: str) -> Any:
        caller = RewardCaller.python(spec, signature, mode, batch=32, timeout=timeout)
        if mode != "main":
            return caller
        timed.append(Timed(caller))
        return timed[-1]

    run_reward_check(factory, suite, report, probe_cases=probe_cases)
    return report, timed[0].rate()


def rate_cell(rate: float) -> str:
    return f"{rate:,.0f}" if rate >= 10 else f"{rate:.1f}"


def percent(count: int, total: int) -> str:
    return f"{100 * count / total:.1f}" if total else "-"


def tables(results: list[tuple[str, RewardReport, float]], cases: int) -> str:
    head = "| reward function | " + " | ".join(kind.value for kind in ORDER) + " | cases/s |"
    lines = [f"Suite: {cases:,} cases, seed 0, every probe. Rates in % of the cases; `thread_dependent` and "
             f"`nondeterministic` in % of the cases the probes called again; cases/s: cases answered per second "
             f"of the main caller's calls (one child process, batches of 32 over a pipe, on the machine of the run).",
             "", head, "|---|" + "---|" * (len(ORDER) + 1)]
    for label, report, rate in results:
        probed = max((sizes[0] for sizes in report.probes.values()), default=0)
        cells = [percent(report.by_class[kind.value], probed if kind.value in PROBED else report.cases)
                 for kind in ORDER]
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {rate_cell(rate)} |")
    lines += ["", "Accepted (reward ≥ 0.5), % of each form's cases:", "",
              "| form | deserves | " + " | ".join(f"({index + 1})" for index in range(len(results))) + " |",
              "|---|---|" + "---|" * len(results)]
    for form in FORMS:
        cells = []
        for _, report, _ in results:
            stats = report.forms.get(form.name)
            if stats is None or not stats.cases:
                cells.append("-")
                continue
            wrong = stats.classes["false_negative" if form.correct else "false_positive"]
            accepted = stats.cases - wrong if form.correct else wrong
            failed = sum(stats.classes[kind] for kind in ("hang", "crash", "bad_return"))
            accepted -= failed if form.correct else 0
            cells.append(percent(accepted, stats.cases))
        lines.append(f"| `{form.name}` | {'reward' if form.correct else 'no reward'} | " + " | ".join(cells) + " |")
    lines += [""] + [f"({index + 1}) {label}" + ("  " if index + 1 < len(results) else "")
                     for index, (label, _, _) in enumerate(results)]
    lines += ["", "The simplest example of each class found, per function (completion's end; gold; what came back):", ""]
    for label, report, _ in results:
        for kind in ORDER:
            for finding in report.simplest(kind.value, 1):
                text = finding.case.completion
                shown = text[-90:].replace("\n", "\\n").replace("|", "\\|")
                size = f" ({len(text):,} characters)" if len(text) > 90 else ""
                probe = f", {finding.probe}: {finding.probe_got.describe()}" if finding.probe_got else ""
                lines.append(f"- {label}, `{kind.value}` on `{finding.case.form}`: `{shown}`{size}; gold "
                             f"`{finding.case.gold.get('answer')}`; got {finding.got.describe()}{probe}"[:400])
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False,
                                     description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--verl", required=True, help="the verl package folder (holds utils/reward_score)")
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--probe-cases", type=int, default=120)
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--write", action="store_true", help=f"replace the table in {DOC.relative_to(ROOT)}")
    args = parser.parse_args()
    if not (Path(args.verl) / "utils" / "reward_score" / "gsm8k.py").is_file():
        parser.error(f"{args.verl} is not a verl package folder (no utils/reward_score/gsm8k.py)")
    os.environ["PROGEXEC_VERL_ROOT"] = str(Path(args.verl).resolve())
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "scripts"), os.environ.get("PYTHONPATH")]))
    results = []
    for label, spec, signature in PEERS + OWN:
        report, rate = measure(spec, signature, args.cases, args.probe_cases, args.timeout)
        print(f"{label}: {report.cases} cases, {rate_cell(rate)} cases/s, " + ", ".join(
            f"{kind} {count}" for kind, count in sorted(report.by_class.items())), file=sys.stderr)
        results.append((label, report, rate))
    table = tables(results, args.cases)
    print(table)
    if args.write:
        text = DOC.read_text(encoding="utf-8")
        start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
        DOC.write_text(text[:start] + "\n" + table + "\n" + text[end:], encoding="utf-8")
    own_findings = [label for label, report, _ in results[len(PEERS):] if report.by_class]
    if own_findings:
        print(f"progexec's own adapters have findings: {', '.join(own_findings)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
