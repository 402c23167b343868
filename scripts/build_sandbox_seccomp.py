"""Build the seccomp filters the sandboxes load (bubblewrap's ``--seccomp FD``, or the solution pool's children).

Run with a Python that has libseccomp's own bindings (Debian ``python3-seccomp``):
``/usr/bin/python3 scripts/build_sandbox_seccomp.py`` writes two raw BPF programs per
architecture to ``src/progexec/data/``. ``sandbox_seccomp_<arch>.bpf`` (the ports of
the checkers) allows by default and refuses (EPERM, or ENOSYS for ``clone3`` so libc
falls back to ``clone``) what sandboxed code never needs: creating processes (``fork``,
``vfork``, ``clone`` without ``CLONE_THREAD``), sockets, tracing and reading other
processes' memory, mounts and namespaces, kernel modules, keyrings, BPF, perf,
io_uring, userfaultfd, SysV IPC and POSIX message queues (state that outlives the
process and reaches the next one), the other host-wide administrative calls, and
changing another process: ``prlimit64``, ``sched_setaffinity``, ``sched_setscheduler``,
``sched_setparam`` and ``sched_setattr`` on any pid but 0 (the caller), ``setpriority``
on anything but the calling process, and ``ioprio_set`` altogether.
``solution_seccomp_<arch>.bpf`` (MathQA-Python snippets and Python solutions, which
are single-threaded) also refuses every call that sends a signal (``kill``, ``tkill``,
``tgkill``, ``rt_sigqueueinfo``, ``rt_tgsigqueueinfo``) or makes the kernel send one to a chosen
process on I/O (``fcntl`` ``F_SETOWN``/``F_SETSIG``/``F_SETOWN_EX``, ``ioctl`` ``FIOSETOWN``/``SIOCSPGRP``):
a solution can signal no process, its worker included. System calls of a foreign ABI (i386 or x32 on x86_64)
kill the process. Output is byte-identical on every run of the same libseccomp.
"""

from __future__ import annotations

import argparse
import errno
import sys
import tempfile
from pathlib import Path

import seccomp  # type: ignore[import-not-found]

OUT = Path(__file__).resolve().parent.parent / "src" / "progexec" / "data"
ARCHES = {"x86_64": seccomp.Arch.X86_64, "aarch64": seccomp.Arch.AARCH64}
CLONE_THREAD = 0x00010000
DENIED = (
    "fork", "vfork", "socket", "socketpair", "ptrace", "process_vm_readv", "process_vm_writev", "kcmp",
    "pidfd_open", "pidfd_getfd", "pidfd_send_signal", "perf_event_open", "bpf", "userfaultfd",
    "io_uring_setup", "io_uring_enter", "io_uring_register", "keyctl", "add_key", "request_key",
    "mount", "umount2", "pivot_root", "chroot", "unshare", "setns", "move_mount", "open_tree", "fsopen",
    "fsmount", "fsconfig", "fspick", "mount_setattr", "open_by_handle_at", "name_to_handle_at",
    "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load", "reboot", "swapon",
    "swapoff", "acct", "syslog", "quotactl", "ioperm", "iopl", "personality", "sethostname",
    "setdomainname", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "mknod", "mknodat",
    "fanotify_init", "lookup_dcookie", "vhangup", "uselib", "execveat", "migrate_pages", "move_pages",
    "mbind", "set_mempolicy", "landlock_create_ruleset",
    "shmget", "shmat", "shmdt", "shmctl", "msgget", "msgsnd", "msgrcv", "msgctl", "semget", "semop",
    "semtimedop", "semctl", "ipc", "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify",
    "mq_getsetattr", "ioprio_set",
)
OWN_PID_ONLY = ("prlimit64", "sched_setaffinity", "sched_setscheduler", "sched_setparam", "sched_setattr")
"""Calls refused unless their first argument (a pid) is 0, the caller itself."""
SIGNALS = ("kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")
"""Calls that send a signal: refused in the solution filter."""
SIGNAL_OWNER = (("fcntl", (8, 10, 15)), ("ioctl", (0x8901, 0x8902)))
"""Calls that make the kernel signal a chosen process on I/O (``F_SETOWN``, ``F_SETSIG``, ``F_SETOWN_EX``;
``FIOSETOWN``, ``SIOCSPGRP``), by their second argument: refused in the solution filter."""
FILTERS = {"sandbox": False, "solution": True}
"""Each filter's name and whether it refuses signals (SIGNALS and SIGNAL_OWNER) beyond DENIED."""


def build(arch: int, signals: bool = False) -> bytes:
    """The raw BPF program of the filter for one architecture; ``signals``: refuse sending signals too."""
    syscall_filter = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    syscall_filter.remove_arch(seccomp.Arch.NATIVE)
    syscall_filter.add_arch(arch)
    refuse = seccomp.ERRNO(errno.EPERM)
    for name in DENIED + (SIGNALS if signals else ()):
        try:
            syscall_filter.add_rule(refuse, name)
        except (RuntimeError, ValueError):  # the call does not exist on this architecture (fork on aarch64)
            pass
    syscall_filter.add_rule(refuse, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_THREAD, 0))
    syscall_filter.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    for name in OWN_PID_ONLY:
        syscall_filter.add_rule(refuse, name, seccomp.Arg(0, seccomp.NE, 0))
    # setpriority(which, who, prio): only PRIO_PROCESS (0) of who 0 (the caller); PRIO_PGRP/PRIO_USER reach others
    syscall_filter.add_rule(refuse, "setpriority", seccomp.Arg(0, seccomp.NE, 0))
    syscall_filter.add_rule(refuse, "setpriority", seccomp.Arg(1, seccomp.NE, 0))
    if signals:
        for name, commands in SIGNAL_OWNER:
            for command in commands:
                syscall_filter.add_rule(refuse, name, seccomp.Arg(1, seccomp.EQ, command))
    with tempfile.TemporaryFile() as handle:
        syscall_filter.export_bpf(handle)
        handle.seek(0)
        return handle.read()


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"directory to write to (default {OUT})")
    out = parser.parse_args().out
    for kind, signals in FILTERS.items():
        for name, arch in ARCHES.items():
            program = build(arch, signals)
            path = out / f"{kind}_seccomp_{name}.bpf"
            path.write_bytes(program)
            print(f"{path}: {len(program) // 8} instructions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
