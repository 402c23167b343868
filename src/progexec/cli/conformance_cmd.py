"""``progexec conformance export DIR``: write the check-evaluator suite as versioned data files.

Exit 0 when the files are written, 2 for a usage error (bad arguments, a directory that cannot be written).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..checker.evaluator.cases import SUITES
from ..checker.evaluator.conformance import export
from .common import EXIT_OK, note_written
from ..core.errors import OptionError
from ..core.plural import plural

NAME = "conformance"
HELP = "export the FinQA evaluator conformance suite (JSON Lines and a decTest-style text form) for ports"
EXIT_CODES = ("exit codes: 0 the files are written, 2 usage error (bad arguments, a directory that cannot be "
              "written)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    command = actions.add_parser("export", help="write the suite into DIR", description="write the suite into DIR")
    command.add_argument("directory", metavar="DIR", help="output directory (created if missing)")
    command.add_argument("--suite", choices=sorted(SUITES) + ["reward"], default="all",
                         help="which suite (default all; reward: check-reward's cases, reward.jsonl)")
    command.add_argument("--cases", type=int, metavar="N", help="number of cases (default: the whole suite)")
    command.add_argument("--seed", type=int, default=0, metavar="S", help="suite seed (default 0)")


def run(args: argparse.Namespace) -> int:
    if args.cases is not None and args.cases < 1:
        raise OptionError("--cases must be at least 1")
    try:
        if args.suite == "reward":
            from ..checker.reward.suite import export as export_reward
            counts = export_reward(Path(args.directory), args.cases, args.seed)
        else:
            counts = export(Path(args.directory), args.suite, args.cases, args.seed)
    except OSError as error:
        raise OptionError(f"cannot write {args.directory}: {error}") from None
    for name, count in counts.items():
        print(f"{Path(args.directory) / name}: {plural(count, 'case', grouped=True)}")
        note_written(Path(args.directory) / name)
    if args.suite != "reward":  # the evaluator suites' export writes a README.md beside them; the reward one does not
        note_written(Path(args.directory) / "README.md")
    return EXIT_OK
