// Step: init and exec. With a pid namespace the sandbox child is pid 1 there, and pid 1 is
// special (signals without a handler are dropped, so a payload running as pid 1 could not
// even abort()). So pid 1 stays a tiny init: it forks the payload, reaps every orphan, and
// when the payload ends it counts the tasks still alive (which tells a fork bomb apart),
// kills every one of them, reaps them all, and only then reports the payload's wait status
// and the tree's resource use. A daemonised grandchild never outlives the run, and the
// supervisor can close the run on that report without waiting for the kernel to tear the
// namespaces down (unmounting, freeing the network namespace: ~0.5 ms it need not wait for).
// init holds no end of the output pipes once the payload is spawned, so they reach EOF as
// soon as the last untrusted task is gone.
// Without namespaces (degraded) the child execs the payload directly.
// A warm spare (Plan.h) starts its payload before the go, with kWarmRunFd a stream socket; at go it
// writes the run there (Sandbox.h's WarmStart) and from then on supervises it like any payload.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sandbox/steps/ChildIo.h"
#include "sandbox/steps/Steps.h"

namespace greenlight::sandbox::detail {
namespace {

struct LinuxDirent64 {
  ino64_t d_ino;
  off64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[1];
};

// Calls fn(name) for every entry of the directory at `path`. Raw getdents64 on a stack buffer:
// pid 1 of the sandbox runs this and must not allocate.
template <typename Fn>
void forEachEntry(const char* path, Fn fn) {
  int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  alignas(8) char buf[4096];
  for (;;) {
    long n = ::syscall(SYS_getdents64, fd, buf, sizeof buf);
    if (n <= 0) break;
    for (long off = 0; off < n;) {
      auto* d = reinterpret_cast<LinuxDirent64*>(buf + off);
      off += d->d_reclen;
      fn(static_cast<const char*>(d->d_name));
    }
  }
  ::close(fd);
}

// Counts entries of a directory that look like pids (all digits).
int countNumericEntries(const char* path) {
  int count = 0;
  forEachEntry(path, [&](const char* name) {
    bool numeric = name[0] != '\0';
    for (const char* p = name; *p != '\0'; ++p) numeric = numeric && *p >= '0' && *p <= '9';
    if (numeric) ++count;
  });
  return count;
}

// Tasks (threads included, as RLIMIT_NPROC counts them) alive in this pid namespace, not
// counting pid 1 itself.
int countLiveTasks() {
  int total = 0;
  forEachEntry("/proc", [&](const char* name) {
    if (name[0] < '1' || name[0] > '9' || std::strcmp(name, "1") == 0) return;
    char path[64] = "/proc/";
    appendStr(path, sizeof path, name);
    appendStr(path, sizeof path, "/task");
    int tasks = countNumericEntries(path);
    total += tasks > 0 ? tasks : 1;
  });
  return total;
}

// Runs in a vfork child: execve, write(2) and _exit only; no allocation, no return.
[[noreturn]] void execPayload(const LaunchPlan& plan, const ExecSpec& spec) {
  int lastErr = ENOENT;
  for (std::size_t i = 0; i < spec.candidateCount; ++i) {
    ::execve(spec.candidates[i], spec.argv, spec.envp);
    // Like execvp: a missing entry moves on; a real error (EACCES, ENOEXEC, ...) is kept.
    if (errno != ENOENT && errno != ENOTDIR) lastErr = errno;
  }
  reportFailure(plan.statusFd, "exec", "execve", spec.argv[0], lastErr);
  ::_exit(127);
}

// The sanitizer runtimes intercept vfork and re-poison the whole stack's shadow in the child,
// an mmap that RLIMIT_DATA (already applied to pid 1) refuses: ASan builds copy instead, with
// a raw clone(SIGCHLD), not glibc's fork(). pid 1 is a clone of one thread of a multithreaded
// process, and glibc's fork() still believes it is multithreaded: it takes the atfork, stdio
// list and malloc arena locks, and one that another thread of the parent held at the moment of
// the clone is never released here. pid 1 then hung before it spawned anything, until the
// run's deadline (a warm run in the ASan lane's corpus timed out after its full limit).
// A macro, not a helper function: a vfork child must never return from the function that
// called vfork (its return would clobber the frame the parent resumes in).
#if defined(__SANITIZE_ADDRESS__)
#define GREENLIGHT_INIT_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GREENLIGHT_INIT_UNDER_ASAN 1
#endif
#endif
#ifdef GREENLIGHT_INIT_UNDER_ASAN
#define GREENLIGHT_SPAWN_PAYLOAD() static_cast<pid_t>(::syscall(SYS_clone, SIGCHLD, nullptr, nullptr, nullptr, nullptr))
constexpr const char kSpawnCall[] = "clone";
#else
#define GREENLIGHT_SPAWN_PAYLOAD ::vfork
constexpr const char kSpawnCall[] = "vfork";
#endif

// The warm payload's exec: the run socket on kWarmRunFd (not close-on-exec), then as
// execPayload.
[[noreturn]] void execWarmPayload(const LaunchPlan& plan, const ExecSpec& spec, int runSock) {
  if (runSock == kWarmRunFd) {
    if (::fcntl(kWarmRunFd, F_SETFD, 0) != 0) {
      reportFailure(plan.statusFd, "warm", "fcntl", "run socket", errno);
      ::_exit(127);
    }
  } else if (::dup2(runSock, kWarmRunFd) != kWarmRunFd) {
    reportFailure(plan.statusFd, "warm", "dup2", "run socket", errno);
    ::_exit(127);
  }
  execPayload(plan, spec);
}

// Writes all of `data` to the warm payload's socket; false when it is gone.
bool sendAll(int sock, const char* data, std::size_t size) {
  while (size > 0) {
    long n = sendWithFds(sock, data, size, nullptr, 0);
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// Decimal text of `value` + NUL into `buf` (no allocation); returns its length with the NUL.
std::size_t formatCount(std::size_t value, char* buf) {
  char digits[24];
  std::size_t n = 0;
  do {
    digits[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  for (std::size_t i = 0; i < n; ++i) buf[i] = digits[n - 1 - i];
  buf[n] = '\0';
  return n + 1;
}

// Hands the go request's run to the warm payload: "<argc>\0<envc>\0" argv envp workdir, each
// NUL-terminated, then EOF. A payload already gone is a setup failure of step "warm", which
// the supervisor answers by starting the run cold.
bool handOverRun(const LaunchPlan& plan, pid_t payload, int runSock, const ExecSpec& spec) {
  int status = 0;
  if (::waitpid(payload, &status, WNOHANG) != 0) {
    reportFailure(plan.statusFd, "warm", "waitpid", "interpreter gone before its run", ECHILD);
    return false;
  }
  std::size_t argc = 0, envc = 0;
  while (spec.argv[argc] != nullptr) ++argc;
  while (spec.envp[envc] != nullptr) ++envc;
  char counts[48];
  std::size_t len = formatCount(argc, counts);
  len += formatCount(envc, counts + len);
  bool ok = sendAll(runSock, counts, len);
  for (std::size_t i = 0; ok && i < argc; ++i) ok = sendAll(runSock, spec.argv[i], std::strlen(spec.argv[i]) + 1);
  for (std::size_t i = 0; ok && i < envc; ++i) ok = sendAll(runSock, spec.envp[i], std::strlen(spec.envp[i]) + 1);
  if (ok) ok = sendAll(runSock, spec.workdir, std::strlen(spec.workdir) + 1);
  ::close(runSock);
  if (!ok) reportFailure(plan.statusFd, "warm", "sendmsg", "interpreter gone before its run", errno);
  return ok;
}

}  // namespace

void runInitAndPayload(const LaunchPlan& plan, std::uint32_t layers) {
  ChildMessage m;
  std::memset(&m, 0, sizeof m);
  m.kind = MessageKind::Layers;
  m.layers = layers;
  sendMessage(plan.statusFd, m);

  ExecSpec spec;
  spec.argv = plan.argv.data();
  spec.envp = plan.envp.data();
  spec.candidates = plan.candidatePtrs.data();
  spec.candidateCount = plan.candidatePtrs.size();
  if (plan.mode == Mode::NoNamespaces) execPayload(plan, spec);

  // The payload execs into dumpable; pid 1 itself must not be readable through /proc/1/mem.
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  const bool warm = plan.held && plan.warm;
  int runSock[2] = {-1, -1};
  if (warm) {
    if (!receivePreseed(plan)) ::_exit(125);
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, runSock) != 0) {
      reportFailure(plan.statusFd, "warm", "socketpair", "run socket", errno);
      ::_exit(125);
    }
  } else if (plan.held && !awaitGo(plan, &spec)) {
    ::_exit(125);
  }
  // vfork: the payload only execs (or reports and _exits), so it can borrow pid 1's memory
  // until then instead of copying its page tables and faulting every page back in: about
  // half a millisecond per run on a VM (bench/sandbox).
  pid_t pid = GREENLIGHT_SPAWN_PAYLOAD();
  if (pid < 0) {
    reportFailure(plan.statusFd, "init", kSpawnCall, "payload", errno);
    ::_exit(125);
  }
  if (pid == 0) {
    if (warm) execWarmPayload(plan, spec, runSock[1]);
    execPayload(plan, spec);
  }
  if (warm) {
    ::close(runSock[1]);
    // The interpreter loads while this waits; a go ends the wait with the run to hand over.
    if (!awaitGo(plan, &spec) || !handOverRun(plan, pid, runSock[0], spec)) {
      ::kill(pid, SIGKILL);
      ::_exit(125);
    }
  }
  for (int fd : {0, 1, 2}) ::close(fd);

  int payloadStatus = 0;
  for (;;) {
    int status = 0;
    pid_t r = ::wait4(-1, &status, __WALL, nullptr);
    if (r == pid) {
      payloadStatus = status;
      break;
    }
    if (r < 0 && errno == ECHILD) break;
  }
  std::memset(&m, 0, sizeof m);
  m.kind = MessageKind::Exited;
  m.waitStatus = payloadStatus;
  // Only a failed run can be a process-limit case; a clean exit skips the /proc walk.
  m.liveTasks = payloadStatus == 0 ? 0 : countLiveTasks();
  // From pid 1, kill(-1) reaches every other task of this pid namespace and nothing outside.
  ::kill(-1, SIGKILL);
  while (::wait4(-1, nullptr, __WALL, nullptr) > 0 || errno == EINTR) {
  }
  rusage usage;
  std::memset(&usage, 0, sizeof usage);
  ::getrusage(RUSAGE_CHILDREN, &usage);
  m.cpuUs = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000LL + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
  m.maxRssKb = usage.ru_maxrss;
  sendMessage(plan.statusFd, m);
  ::_exit(0);
}

}  // namespace greenlight::sandbox::detail
