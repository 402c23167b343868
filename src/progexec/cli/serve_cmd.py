"""``progexec serve --port N [--host 127.0.0.1] [--workers N]``: the HTTP reward server (docs/serve.md).

The application is :class:`progexec.reward.server.RewardApp`; the HTTP layer, uvicorn with the
deadlines, is :mod:`progexec.reward.http_run` and needs the ``serve`` extra: without it the command
refuses to start (exit 2) and names the extra.
"""

from __future__ import annotations

import argparse
import signal
import sys
from types import FrameType

from ..core.limits import current
from ..reward.gold import parse_policy
from ..reward.model import Policy
from .common import EXIT_OK
from ..core.errors import OptionError
from ..core.plural import plural

NAME = "serve"
HELP = ("serve the reward over HTTP (needs the serve extra): GET /health, POST /get_reward (OpenRLHF's "
        "remote reward shape), POST /batch")
EXIT_CODES = "exit codes: 0 stopped by SIGINT/SIGTERM, 2 usage error (a bad option, the port is taken, no serve extra)"
EXTRA_HINT = "progexec serve needs the serve extra: pip install 'progexec[serve]' (it installs uvicorn)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, required=True, help="TCP port to listen on (0 picks a free one)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1, loopback only)")
    parser.add_argument("--workers", type=int, default=1,
                        help="worker processes sharing the socket (default 1; throughput grows with cores)")
    parser.add_argument("--policy", choices=[policy.value for policy in Policy],
                        help="the policy for requests and golds that name none (default numeric)")


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise OptionError(f"--port must be 0..65535, got {args.port}")
    if not 1 <= args.workers <= current().max_serve_workers:
        raise OptionError(f"--workers must be 1..{current().max_serve_workers}, got {args.workers}")
    try:
        from ..reward import http_run
    except ImportError as error:
        raise OptionError(f"{EXTRA_HINT}; {error}") from None
    from ..reward.server import RewardApp

    limits = current()  # the command's --limit values (main installs them)
    app = RewardApp(parse_policy(args.policy) if args.policy else None, limits)
    try:
        sock = http_run.listening_socket(args.host, args.port)
    except OSError as error:
        raise OptionError(f"cannot listen on {args.host}:{args.port}: {error.strerror or error}") from None
    host, port = sock.getsockname()[:2]
    url = f"http://[{host}]:{port}" if ":" in str(host) else f"http://{host}:{port}"

    def announce() -> None:
        print(f"serve: listening on {url} ({plural(args.workers, 'worker process')}; "
              f"bodies up to {plural(limits.max_request_bytes, 'byte')}, "
              f"{plural(limits.max_request_items, 'sample')} a request)",
              file=sys.stderr, flush=True)

    previous = signal.signal(signal.SIGTERM, _interrupt)  # uvicorn re-raises the signal it stopped on
    try:
        http_run.serve(app, sock, args.workers, on_ready=announce)
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
        signal.signal(signal.SIGTERM, previous)
    return EXIT_OK


def _interrupt(signum: int, frame: FrameType | None) -> None:
    """SIGTERM ends the command as SIGINT does: a clean stop, exit 0."""
    raise KeyboardInterrupt
