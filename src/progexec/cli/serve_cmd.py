"""``progexec serve --port N [--host 127.0.0.1]``: the HTTP reward server (see :mod:`progexec.reward.server`)."""

from __future__ import annotations

import argparse
import sys

from ..reward.gold import parse_policy
from ..reward.model import Policy
from ..reward.server import MAX_ITEMS, MAX_REQUEST_BYTES, make_server
from .common import EXIT_OK, UsageError

NAME = "serve"
HELP = ("serve the reward over HTTP: GET /health, POST /get_reward (OpenRLHF's remote reward shape), "
        "POST /batch")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, required=True, help="TCP port to listen on (0 picks a free one)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1, loopback only)")
    parser.add_argument("--policy", choices=[policy.value for policy in Policy],
                        help="the policy for requests and golds that name none (default numeric)")


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be 0..65535, got {args.port}")
    try:
        server = make_server(args.host, args.port, parse_policy(args.policy) if args.policy else None)
    except OSError as error:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {error.strerror or error}") from None
    host, port = server.server_address[:2]
    print(f"serve: listening on http://{host!s}:{port} (bodies up to {MAX_REQUEST_BYTES} bytes, "
          f"{MAX_ITEMS} samples a request)", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return EXIT_OK
