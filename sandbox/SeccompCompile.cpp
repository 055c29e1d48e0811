// The allow-lists and their compilation (libseccomp). This file depends on nothing else of
// sandbox/: the build also compiles it into cmake/SeccompGen.cpp, which bakes every profile
// into the binary so a run never pays for libseccomp's compiler (SeccompProfiles.cpp).
//
// The allow-lists. Everything not allowed is refused with SECCOMP_RET_USER_NOTIF: the caller
// blocks, the supervisor names the call in the verdict and kills the tree. A few calls get a
// quiet errno instead because runtimes probe them and cope (clone3 -> ENOSYS makes glibc fall
// back to clone, whose flags we can inspect; foreign socket families -> EAFNOSUPPORT).
//
// Always refused (named): ptrace, bpf, perf_event_open, keyctl/add_key/request_key,
// userfaultfd, mount/umount2/pivot_root/chroot/move_mount/open_tree/fsopen..., unshare/setns,
// clone with any CLONE_NEW* flag, kexec/module calls, process_vm_readv/writev,
// open_by_handle_at, io_uring_*, ioctl(TIOCSTI/TIOCLINUX) (low 32 bits compared),
// socket(AF_INET/AF_INET6) without network. Non-native architectures are killed
// (SIGSYS, reported as a syscall violation).
//
// The profiles share one base (what glibc, the dynamic loader, CPython, node/libuv/V8, gcc's
// driver and its cc1plus/as/collect2/ld children were observed to need under the
// tests/sandbox workloads); each profile adds only what its runtime needs beyond it.
#include "sandbox/SeccompCompile.h"

#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <sched.h>

namespace greenlight::sandbox::detail {
namespace {

constexpr const char* kBase[] = {
    // files and descriptors
    "read", "write", "readv", "writev", "pread64", "pwrite64", "preadv", "pwritev", "preadv2", "pwritev2",
    "open", "openat", "openat2", "creat", "close", "close_range", "lseek", "stat", "fstat", "lstat",
    "newfstatat", "statx", "statfs", "fstatfs", "access", "faccessat", "faccessat2", "readlink",
    "readlinkat", "getdents", "getdents64", "getcwd", "chdir", "fchdir", "mkdir", "mkdirat", "rmdir",
    "unlink", "unlinkat", "rename", "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat",
    "chmod", "fchmod", "fchmodat", "chown", "fchown", "lchown", "fchownat", "truncate", "ftruncate",
    "fallocate", "fsync", "fdatasync", "sync", "syncfs", "sync_file_range", "utime", "utimes",
    "utimensat", "futimesat", "umask", "dup", "dup2", "dup3", "pipe", "pipe2", "fcntl", "flock",
    "mknod", "mknodat", "fadvise64", "readahead", "copy_file_range", "sendfile", "splice", "tee",
    "getxattr", "lgetxattr", "fgetxattr", "listxattr", "llistxattr", "flistxattr", "setxattr",
    "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr", "inotify_init",
    "inotify_init1", "inotify_add_watch", "inotify_rm_watch", "memfd_create", "eventfd", "eventfd2",
    "signalfd", "signalfd4", "timerfd_create", "timerfd_settime", "timerfd_gettime",
    "epoll_create", "epoll_create1", "epoll_ctl", "epoll_wait", "epoll_pwait", "epoll_pwait2", "poll",
    "ppoll", "select", "pselect6",
    // memory
    "brk", "mmap", "munmap", "mprotect", "mremap", "madvise", "msync", "mincore", "mlock", "mlock2",
    "munlock", "mlockall", "munlockall", "membarrier", "get_mempolicy",
    // threads, signals, time
    "futex", "futex_waitv", "set_robust_list", "get_robust_list", "set_tid_address", "rseq",
    "arch_prctl", "prctl", "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigsuspend",
    "rt_sigpending", "rt_sigtimedwait", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "sigaltstack",
    "restart_syscall", "kill", "tgkill", "tkill", "pause", "nanosleep", "clock_nanosleep",
    "clock_gettime", "clock_getres", "gettimeofday", "time", "alarm", "getitimer", "setitimer",
    "timer_create", "timer_settime", "timer_gettime", "timer_getoverrun", "timer_delete",
    "sched_yield", "sched_getaffinity", "sched_setaffinity", "sched_getparam", "sched_getscheduler",
    "sched_get_priority_max", "sched_get_priority_min", "sched_rr_get_interval", "getcpu",
    "getpriority", "setpriority", "ioprio_get",
    // processes and identity
    "execve", "execveat", "exit", "exit_group", "wait4", "waitid", "fork", "vfork", "getpid",
    "getppid", "gettid", "getuid", "geteuid", "getgid", "getegid", "getresuid", "getresgid",
    "getgroups", "setsid", "setpgid", "getpgid", "getpgrp", "getsid", "uname", "sysinfo",
    "getrlimit", "setrlimit", "prlimit64", "getrusage", "times", "capget", "getrandom",
    "pidfd_open", "pidfd_send_signal", "landlock_create_ruleset", "landlock_add_rule",
    "landlock_restrict_self", "seccomp",
    // local sockets (socket() itself is rule-checked below)
    "socketpair", "connect", "bind", "listen", "accept", "accept4", "getsockname", "getpeername",
    "sendto", "recvfrom", "sendmsg", "recvmsg", "sendmmsg", "recvmmsg", "shutdown", "setsockopt",
    "getsockopt",
    // System V IPC lives in the sandbox's own IPC namespace
    "shmget", "shmat", "shmdt", "shmctl", "semget", "semop", "semtimedop", "semctl", "msgget", "msgsnd",
    "msgrcv", "msgctl",
};

// CPython: asyncio/subprocess/multiprocessing are covered by the base; kept separate so the
// profile can grow without widening the others.
constexpr const char* kPython[] = {"mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_getsetattr"};
// node/libuv/V8: memory protection keys (V8 JIT hardening), async I/O contexts libuv may use.
constexpr const char* kNode[] = {"pkey_alloc", "pkey_free", "pkey_mprotect", "io_setup", "io_destroy",
                                 "io_submit", "io_getevents", "io_cancel", "set_mempolicy", "mbind"};
// gcc driver + cc1plus/as/ld: posix_spawn and make-style children only need the base.
constexpr const char* kCompiler[] = {"vmsplice"};
constexpr const char* kNative[] = {"pkey_alloc", "pkey_free", "pkey_mprotect"};

constexpr unsigned long long kCloneNewMask = CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC |
                                             CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | 0x80 /* NEWTIME */;

bool addAll(scmp_filter_ctx ctx, const char* const* names, std::size_t count, std::string* error) {
  for (std::size_t i = 0; i < count; ++i) {
    int nr = seccomp_syscall_resolve_name(names[i]);
    if (nr == __NR_SCMP_ERROR) continue;  // not a syscall on this architecture
    int rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
    if (rc != 0 && rc != -EEXIST) {
      *error = std::string("seccomp_rule_add(") + names[i] + "): " + std::to_string(rc);
      return false;
    }
  }
  return true;
}

template <std::size_t N>
bool addAll(scmp_filter_ctx ctx, const char* const (&names)[N], std::string* error) {
  return addAll(ctx, names, N, error);
}

}  // namespace

std::vector<sock_filter> compileSeccompFilter(Profile profile, bool network, std::string* error) {
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_NOTIFY);
  if (ctx == nullptr) {
    *error = "seccomp_init failed";
    return {};
  }
  struct Guard {
    scmp_filter_ctx c;
    ~Guard() { seccomp_release(c); }
  } guard{ctx};
  // Foreign architectures (x32 calls, int 0x80) die: they could dodge every rule above.
  if (seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS) != 0 ||
      seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0) != 0) {
    *error = "seccomp_attr_set failed";
    return {};
  }
  if (!addAll(ctx, kBase, error)) return {};
  bool ok = true;
  switch (profile) {
    case Profile::Python: ok = addAll(ctx, kPython, error); break;
    case Profile::Node: ok = addAll(ctx, kNode, error); break;
    case Profile::Compiler: ok = addAll(ctx, kCompiler, error); break;
    case Profile::Native:
    case Profile::Auto: ok = addAll(ctx, kNative, error); break;
  }
  if (!ok) return {};

  int rc = 0;
  // clone: only without namespace flags; clone3 hides its flags in memory -> ENOSYS, glibc
  // then falls back to clone.
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, kCloneNewMask, 0));
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
  // socket: local families always; TCP/UDP only with network (else the default: refused and
  // named).
  for (int family : {AF_UNIX, AF_NETLINK}) {
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 1,
                           SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, static_cast<scmp_datum_t>(family)));
  }
  if (network) {
    for (int family : {AF_INET, AF_INET6}) {
      rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 1,
                             SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, static_cast<scmp_datum_t>(family)));
    }
  }
  // mmap/mprotect with PROT_EXEC stay allowed (JITs, the loader); io_uring, ptrace & co. fall
  // to the default. ioctl is handled by the hand-written prefix below: libseccomp cannot
  // express "allow unless the low 32 bits equal X" next to an allow-everything-else rule.
  if (rc != 0) {
    *error = "seccomp_rule_add(clone/socket) failed";
    return {};
  }

  int memfd = ::memfd_create("greenlight-seccomp", MFD_CLOEXEC);
  if (memfd < 0) {
    *error = "memfd_create failed";
    return {};
  }
  rc = seccomp_export_bpf(ctx, memfd);
  off_t size = ::lseek(memfd, 0, SEEK_END);
  if (rc != 0 || size <= 0 || size % static_cast<off_t>(sizeof(sock_filter)) != 0) {
    ::close(memfd);
    *error = "seccomp_export_bpf failed: " + std::to_string(rc);
    return {};
  }
  std::vector<sock_filter> body(static_cast<std::size_t>(size) / sizeof(sock_filter));
  ssize_t got = ::pread(memfd, body.data(), static_cast<std::size_t>(size), 0);
  ::close(memfd);
  if (got != size) {
    *error = "seccomp_export_bpf: short read";
    return {};
  }

  // Prefix: a foreign architecture or an x32-ABI number goes to the supervisor (named, then
  // killed); on the native arch, ioctl is allowed unless its request's low 32 bits are
  // TIOCSTI or TIOCLINUX (named). Everything else falls through to the libseccomp program.
  constexpr std::uint32_t kRetNotify = 0x7fc00000u /* SECCOMP_RET_USER_NOTIF */;
  constexpr std::uint32_t kRetAllow = 0x7fff0000u /* SECCOMP_RET_ALLOW */;
  constexpr std::uint32_t kOffNr = 0, kOffArch = 4, kOffArg1Lo = 24;
  constexpr std::uint32_t kX32Bit = 0x40000000u;
  const std::uint32_t arch = seccomp_arch_native();
  auto stmt = [](std::uint16_t code, std::uint32_t k) { return sock_filter{code, 0, 0, k}; };
  auto jump = [](std::uint16_t code, std::uint32_t k, std::uint8_t jt, std::uint8_t jf) {
    return sock_filter{code, jt, jf, k};
  };
  std::vector<sock_filter> prefix = {
      stmt(BPF_LD | BPF_W | BPF_ABS, kOffArch),
      jump(BPF_JMP | BPF_JEQ | BPF_K, arch, 1, 0),
      stmt(BPF_RET | BPF_K, kRetNotify),  // foreign architecture (int 0x80): named, then killed
      stmt(BPF_LD | BPF_W | BPF_ABS, kOffNr),
      jump(BPF_JMP | BPF_JGE | BPF_K, kX32Bit, 5, 0),  // x32 ABI numbers -> notify (index 10)
      jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(SCMP_SYS(ioctl)), 0, 5),  // else body (11)
      stmt(BPF_LD | BPF_W | BPF_ABS, kOffArg1Lo),
      jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(TIOCSTI), 2, 0),
      jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(TIOCLINUX), 1, 0),
      stmt(BPF_RET | BPF_K, kRetAllow),
      stmt(BPF_RET | BPF_K, kRetNotify),
  };

  prefix.insert(prefix.end(), body.begin(), body.end());
  return prefix;
}


std::uint32_t seccompNativeArch() { return seccomp_arch_native(); }

}  // namespace greenlight::sandbox::detail
