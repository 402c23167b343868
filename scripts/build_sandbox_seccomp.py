"""Build the seccomp filters bubblewrap loads into the score-python sandbox (``--seccomp FD``).

Run with a Python that has libseccomp's own bindings (Debian ``python3-seccomp``):
``/usr/bin/python3 scripts/build_sandbox_seccomp.py`` writes one raw BPF program per
architecture to ``src/progexec/data/sandbox_seccomp_<arch>.bpf``. The filter allows
by default and refuses (EPERM, or ENOSYS for ``clone3`` so libc falls back to
``clone``) what a MathQA-Python snippet never needs: creating processes (``fork``,
``vfork``, ``clone`` without ``CLONE_THREAD``), sockets, tracing and reading other
processes' memory, mounts and namespaces, kernel modules, keyrings, BPF, perf,
io_uring, userfaultfd and the other host-wide administrative calls. System calls
of a foreign ABI (i386 or x32 on x86_64) kill the process. Output is byte-identical
on every run of the same libseccomp.
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
)


def build(arch: int) -> bytes:
    """The raw BPF program of the filter for one architecture."""
    syscall_filter = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    syscall_filter.remove_arch(seccomp.Arch.NATIVE)
    syscall_filter.add_arch(arch)
    refuse = seccomp.ERRNO(errno.EPERM)
    for name in DENIED:
        try:
            syscall_filter.add_rule(refuse, name)
        except (RuntimeError, ValueError):  # the call does not exist on this architecture (fork on aarch64)
            pass
    syscall_filter.add_rule(refuse, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_THREAD, 0))
    syscall_filter.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    with tempfile.TemporaryFile() as handle:
        syscall_filter.export_bpf(handle)
        handle.seek(0)
        return handle.read()


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"directory to write to (default {OUT})")
    out = parser.parse_args().out
    for name, arch in ARCHES.items():
        program = build(arch)
        path = out / f"sandbox_seccomp_{name}.bpf"
        path.write_bytes(program)
        print(f"{path}: {len(program) // 8} instructions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
