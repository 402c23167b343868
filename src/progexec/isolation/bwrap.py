"""The OS-level boundary around model-written code: a bubblewrap (``bwrap``) command line for one snippet.

Each snippet runs in fresh namespaces (user when not root, PID, network, IPC, UTS,
cgroup), in a new session, with an empty environment, as uid/gid 65534, under a
seccomp filter (``src/progexec/data/{sandbox,solution}_seccomp_<arch>.bpf``, built with
libseccomp by ``scripts/build_sandbox_seccomp.py``) when one exists for the machine.
Its filesystem is a tmpfs holding read-only binds of the Python executable, its
standard library (with ``site-packages`` hidden under an empty tmpfs), the system's
shared libraries and the allowed third-party packages (numpy, scipy) — nothing else:
no ``/proc``, no ``/etc``, no ``/bin``, no home, no working directory, no progexec.
``/tmp`` is a private empty tmpfs; ``/dev`` holds only null, zero, full, random,
urandom and tty. As root, bwrap keeps the real user and ``setpriv`` (util-linux)
drops to 65534 inside, so ``RLIMIT_NPROC`` binds (the kernel exempts uid 0 from it).
:func:`status` probes once per process whether the machine can do all this.
"""

from __future__ import annotations

import importlib.util
import os
import platform
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from importlib import resources
from pathlib import Path

from ..core.limits import current
from ..core.errors import SetupError

SANDBOX_UID = 65534
"""The unprivileged user (``nobody``) every snippet runs as."""

THIRD_PARTY = ("numpy", "scipy")
"""Packages bound into the sandbox when installed (MathQA-Python's code may import scipy, which needs numpy)."""

CHILD_ENV = (("LANG", "C.UTF-8"), ("LC_ALL", "C.UTF-8"), ("PYTHONHASHSEED", "0"),
             ("OPENBLAS_NUM_THREADS", "1"), ("OMP_NUM_THREADS", "1"), ("MKL_NUM_THREADS", "1"))
"""The whole environment of a snippet (bwrap clears everything else): one BLAS thread, fixed hashing."""



IsolationUnavailable = SetupError
"""The documented name of a machine that cannot isolate model code (an :class:`~progexec.errors.SetupError`; the message says what and where)."""


class UidDrop(str, Enum):
    """How the snippet's process comes to run as uid 65534."""

    USER_NAMESPACE = "user_namespace"  # not root: a new user namespace maps the caller to 65534
    SETPRIV = "setpriv"                # root: setpriv changes the real uid inside the other namespaces


@dataclass(frozen=True, slots=True)
class Isolation:
    """What the probe found: ``available`` with how, or ``reason`` why not."""

    available: bool
    reason: str = ""
    seccomp: bool = False
    uid_drop: UidDrop | None = None

    def describe(self) -> str:
        if not self.available:
            return f"none ({self.reason})"
        seccomp = "seccomp filter" if self.seccomp else "no seccomp filter for this architecture"
        drop = self.uid_drop.value if self.uid_drop else "?"
        return f"bubblewrap, uid {SANDBOX_UID} via {drop}, {seccomp}"


@dataclass(frozen=True, slots=True)
class Runtime:
    """The files a sandboxed interpreter needs: the executable, its library dirs and the allowed packages."""

    executable: str
    binds: tuple[str, ...]
    hidden: tuple[str, ...]
    symlinks: tuple[tuple[str, str], ...]
    package_path: tuple[str, ...]


def _existing(paths: list[str]) -> list[str]:
    seen: list[str] = []
    for path in paths:
        if path and os.path.exists(path) and path not in seen:
            seen.append(path)
    return seen


def _package_dirs() -> tuple[list[str], list[str]]:
    """The installed THIRD_PARTY package dirs (and their vendored ``.libs``), and the dirs holding them."""
    binds: list[str] = []
    parents: list[str] = []
    for name in THIRD_PARTY:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        locations = list(spec.submodule_search_locations or []) if spec is not None else []
        for location in locations:
            real = os.path.realpath(location)
            binds += _existing([real, real + ".libs"])
            parent = os.path.dirname(real)
            if parent not in parents:
                parents.append(parent)
    return binds, parents


@lru_cache(maxsize=1)
def runtime() -> Runtime:
    """The current interpreter's files, found from sysconfig (a venv's base installation is what runs)."""
    executable = os.path.realpath(sys.executable)
    paths = sysconfig.get_paths(vars={"base": sys.base_prefix, "platbase": sys.base_exec_prefix,
                                      "installed_base": sys.base_prefix, "installed_platbase": sys.base_exec_prefix})
    stdlib = [os.path.realpath(paths["stdlib"]), os.path.realpath(paths["platstdlib"])]
    libdir = sysconfig.get_config_var("LIBDIR")
    soname = sysconfig.get_config_var("INSTSONAME")
    libpython = [os.path.realpath(os.path.join(libdir, soname))] if libdir and soname else []
    multiarch = sysconfig.get_config_var("MULTIARCH") or f"{platform.machine()}-linux-gnu"
    symlinks: list[tuple[str, str]] = []
    system: list[str] = []
    for top in ("/lib", "/lib64", "/lib32"):
        if os.path.islink(top):
            symlinks.append((os.readlink(top), top))
        elif os.path.isdir(top):
            system.append(top)
    system += [f"/usr/lib/{multiarch}", "/usr/lib64"]
    packages, package_path = _package_dirs()
    binds = _existing([executable, *stdlib, *libpython, *system, *packages])
    hidden = _existing([os.path.join(directory, "site-packages") for directory in stdlib])
    return Runtime(executable, tuple(binds), tuple(hidden), tuple(symlinks), tuple(package_path))


SECCOMP_KINDS = ("sandbox", "solution")
"""The filters ``scripts/build_sandbox_seccomp.py`` builds: ``sandbox`` for ports, ``solution`` (no signals at
all) for MathQA-Python snippets and Python solutions."""


def _seccomp_program(kind: str = "sandbox") -> Path | None:
    if kind not in SECCOMP_KINDS:
        raise ValueError(f"no seccomp filter named {kind!r} (known: {', '.join(SECCOMP_KINDS)})")
    program = resources.files("progexec.data").joinpath(f"{kind}_seccomp_{platform.machine()}.bpf")
    path = Path(str(program))
    return path if path.is_file() else None


def _ancestors(paths: tuple[str, ...]) -> list[str]:
    found: set[str] = set()
    for path in paths:
        parent = os.path.dirname(path)
        while parent not in ("/", ""):
            found.add(parent)
            parent = os.path.dirname(parent)
    return sorted(found)


def command(child_argv: list[str], seccomp_fd: int | None, *, extra_binds: tuple[str, ...] = (),
            workdir: str = "/tmp", env: tuple[tuple[str, str], ...] = ()) -> list[str]:
    """The bwrap command line that runs ``child_argv`` (an absolute interpreter path first) confined.

    ``extra_binds``: more host paths bound read-only at their own place (a port's directory and
    the programs its command names); ``workdir``: the working directory inside; ``env``: more
    variables beside :data:`CHILD_ENV`.
    """
    setpriv = shutil.which("setpriv") if os.geteuid() == 0 else None
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SetupError("bubblewrap (bwrap) is not installed")
    files = runtime()
    argv = [bwrap, "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
            "--die-with-parent", "--new-session", "--clearenv", "--hostname", "sandbox"]
    for name, value in CHILD_ENV + env:
        argv += ["--setenv", name, value]
    if os.geteuid() == 0:
        if setpriv is None:
            raise SetupError("running as root needs setpriv (util-linux) to drop to an unprivileged uid")
        argv += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        argv += ["--unshare-user", "--disable-userns", "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID)]
    binds = files.binds + ((os.path.realpath(setpriv),) if setpriv else ()) + \
        tuple(path for path in extra_binds if path not in files.binds)
    # the private, empty /tmp first: a runtime that lives under /tmp (a virtual environment in a checkout
    # there) is bound on top of it below, instead of being hidden by it
    argv += ["--perms", "1777", "--tmpfs", "/tmp"]
    for directory in _ancestors(binds):
        argv += ["--perms", "0755", "--dir", directory]
    for target, link in files.symlinks:
        argv += ["--symlink", target, link]
    for path in binds:
        argv += ["--ro-bind", path, path]
    for path in files.hidden:
        argv += ["--tmpfs", path, "--remount-ro", path]
    argv += ["--dev", "/dev", "--chdir", workdir]
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    argv.append("--")
    if setpriv:
        argv += [os.path.realpath(setpriv), f"--reuid={SANDBOX_UID}", f"--regid={SANDBOX_UID}", "--clear-groups",
                 "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
    return argv + child_argv


def open_seccomp(kind: str = "sandbox") -> int | None:
    """A fresh read-only descriptor of a filter (see :data:`SECCOMP_KINDS`) for one bwrap run (bwrap reads it
    to the end), or None when there is none for this machine."""
    program = _seccomp_program(kind)
    return None if program is None else os.open(program, os.O_RDONLY | os.O_CLOEXEC)


def _probe() -> Isolation:
    if shutil.which("bwrap") is None:
        return Isolation(False, "bubblewrap (bwrap) is not installed")
    seccomp_fd = open_seccomp()
    try:
        argv = command([runtime().executable, "-I", "-S", "-c", "import os; print(os.getuid())"], seccomp_fd)
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=current().isolation_probe_seconds,
                              pass_fds=() if seccomp_fd is None else (seccomp_fd,), env={})
    except SetupError as error:
        return Isolation(False, str(error))
    except (OSError, subprocess.SubprocessError) as error:
        return Isolation(False, f"bwrap could not be run ({type(error).__name__}: {error})")
    finally:
        if seccomp_fd is not None:
            os.close(seccomp_fd)
    if done.returncode != 0 or done.stdout.strip() != str(SANDBOX_UID).encode():
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return Isolation(False, "bwrap cannot create the sandbox here (user namespaces disabled?): "
                                + (detail[-1][:300] if detail else f"exit code {done.returncode}"))
    return Isolation(True, seccomp=seccomp_fd is not None,
                     uid_drop=UidDrop.SETPRIV if os.geteuid() == 0 else UidDrop.USER_NAMESPACE)


@lru_cache(maxsize=1)
def status() -> Isolation:
    """Whether (and how) this machine isolates snippets; probed by running one confined interpreter."""
    return _probe()


@dataclass(frozen=True, slots=True)
class PortSandbox:
    """What a port sees in the sandbox besides the interpreter runtime: its own directory and the programs it names.

    Everything is read-only: ``directory`` (the port's own files, also its working directory
    unless ``workdir`` says otherwise) and ``files`` (the executables its command names, the
    reaper and the ``--python`` child). ``env`` adds variables to :data:`CHILD_ENV`.
    """

    directory: str
    files: tuple[str, ...] = ()
    workdir: str = ""
    env: tuple[tuple[str, str], ...] = ()

    def command(self, child_argv: list[str], seccomp_fd: int | None) -> list[str]:
        """The bwrap command line that runs ``child_argv`` with this view of the host."""
        files = tuple(path for path in self.files if os.path.commonpath([self.directory, path]) != self.directory)
        return command(child_argv, seccomp_fd, extra_binds=(self.directory, *files),
                       workdir=self.workdir or self.directory, env=self.env)


def sandbox_for(argv: Sequence[str], cwd: str | None = None, *, directory: str | None = None,
                files: Sequence[str] = ()) -> tuple[list[str], PortSandbox]:
    """A port's command ready for the sandbox (its paths made absolute), and what the sandbox shows of the host.

    The port's own directory is ``directory`` when given; else the directory of the first
    argument after the program that names an existing file (``node ports/eval.js`` →
    ``ports``); else, when the program is given as a path (``./eval``), its directory; else the
    working directory. The program (found on ``PATH`` when it is a bare name) and ``files`` are
    bound too (by their real paths: the command runs the real file, not a symlink to it), read-only
    like the rest; the working directory inside is the port's directory.
    """
    base = os.path.abspath(cwd or os.getcwd())
    program = argv[0]
    if os.sep in program:
        resolved: str | None = os.path.normpath(os.path.join(base, program))
    else:
        resolved = shutil.which(program)
    command_line = [os.path.realpath(resolved) if resolved else program]  # no symlink chain to follow inside
    first_file: str | None = None
    for word in argv[1:]:
        path = os.path.normpath(os.path.join(base, word)) if word and not word.startswith("-") else ""
        if path and os.path.exists(path):
            command_line.append(path)
            first_file = first_file or path
        else:
            command_line.append(word)
    if directory is not None:
        own = os.path.abspath(os.path.join(base, directory))
    elif first_file is not None:
        own = first_file if os.path.isdir(first_file) else os.path.dirname(first_file)
    elif os.sep in program and resolved is not None:
        own = os.path.dirname(resolved)
    else:
        own = base
    binds = [os.path.realpath(path) for path in [*([resolved] if resolved else []), *files]]
    return command_line, PortSandbox(own, tuple(path for path in dict.fromkeys(binds)
                                                if os.path.commonpath([own, path]) != own))


def python_sandbox(script: str, args: Sequence[str], cwd: str | None = None) -> tuple[list[str], PortSandbox]:
    """A Python child program (``script ARGS``) ready for the sandbox, and its view of the host.

    It runs on the base interpreter of :func:`runtime` (its standard library; numpy and scipy
    importable through ``PYTHONPATH``), with ``script`` bound read-only and the working directory
    (``cwd``: where the child imports the user's module from) as the port's own directory. The
    checkers' ``--python`` child (and ``check-reward``'s) use it for ``--isolate``.
    """
    packages = runtime().package_path
    env = (("PYTHONPATH", os.pathsep.join(packages)),) if packages else ()
    directory = os.path.abspath(cwd or os.getcwd())
    script = os.path.realpath(script)
    return [runtime().executable, "-s", script, *args], PortSandbox(directory, (script,), env=env)
