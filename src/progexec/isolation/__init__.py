"""Running untrusted code on a bound: the one isolation package.

* :mod:`.process`: what every confined child shares — its process group killed, its output
  bounded, its stderr kept as head and tail, a deadline;
* :mod:`.leash`: a line-for-line exchange with a port (``check-rounder``, ``check-evaluator``,
  ``check-reward``), every way it can misbehave bounded; :mod:`.child` and :mod:`.reaper` start
  the port under a child subreaper, so nothing it starts outlives it;
* :mod:`.bwrap`: the bubblewrap + seccomp sandbox command (no network, a read-only
  filesystem holding only what the child needs, uid 65534), used by the snippet sandbox
  (:mod:`progexec.datasets.mathqa.sandbox`) and by the leash under ``--isolate``.

A command's ``--isolate``, in three lines::

    argv, sandbox = sandbox_for(["node", "port.js"])            # or python_sandbox(script, args, cwd)
    leash = ChildExchange(argv, timeout=20, sandbox=sandbox)    # SetupError at start without bwrap
    leash.start(); answers = leash.exchange(lines); leash.close()

Layer (docs/architecture.md): beside ``runner`` and ``records``. May import ``core``, ``jsoncodec``,
``textsource``; no dataset, no checker.
"""

from .bwrap import Isolation, PortSandbox, python_sandbox, sandbox_for, status
from .leash import Answer, ChildExchange, Fault, FaultKind
from .process import Deadline, StderrCapture, kill_group, read_bounded
from ..core.errors import SetupError

__all__ = ["Answer", "ChildExchange", "Deadline", "Fault", "FaultKind", "Isolation", "PortSandbox", "StderrCapture", "kill_group", "python_sandbox", "read_bounded", "sandbox_for",
           "status"]
