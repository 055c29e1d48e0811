// probeIsolation() and the cached host probes. A run never waits for a probe: user namespaces
// are simply tried (and a failure remembered); probeIsolation() forks a short-lived child to
// find out up front, for `greenlight doctor` and for callers that want to refuse early.
#include "sandbox/Probe.h"

#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

#include "sandbox/Landlock.h"
#include "sandbox/Plan.h"
#include "sandbox/Sandbox.h"

extern "C" int mount(const char* source, const char* target, const char* fstype, unsigned long flags,
                     const void* data) noexcept;

namespace greenlight::sandbox {
namespace detail {
namespace {

std::atomic<bool> gUserNsUnusable{false};

// In a forked child: can this process get a user namespace that actually grants mount rights?
[[noreturn]] void userNsProbeChild() {
  if (::geteuid() == 0) {
    if (::setgroups(0, nullptr) != 0 || ::setresgid(kUnprivilegedHostGid, kUnprivilegedHostGid, kUnprivilegedHostGid) != 0 ||
        ::setresuid(kUnprivilegedHostUid, kUnprivilegedHostUid, kUnprivilegedHostUid) != 0)
      ::_exit(2);
  }
  if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) ::_exit(1);
  if (::mount(nullptr, "/", nullptr, 16384 /* MS_REC */ | (1 << 18) /* MS_PRIVATE */, nullptr) != 0) ::_exit(1);
  ::_exit(0);
}

bool probeUserNs() {
  long pid = ::syscall(SYS_clone, SIGCHLD, nullptr, nullptr, nullptr, nullptr);
  if (pid < 0) return false;
  if (pid == 0) userNsProbeChild();
  int status = 0;
  while (::waitpid(static_cast<pid_t>(pid), &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

int landlockAbi() {
  static const int abi = [] {
    long v = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, landlock::kCreateRulesetVersion);
    return v < 0 ? 0 : static_cast<int>(v);
  }();
  return abi;
}

bool userNsKnownUnusable() { return gUserNsUnusable.load(std::memory_order_relaxed); }
void markUserNsUnusable() { gUserNsUnusable.store(true, std::memory_order_relaxed); }

}  // namespace detail

const Isolation& probeIsolation() {
  static const Isolation isolation = [] {
    Isolation iso;
    bool root = ::geteuid() == 0;
    bool userNs = !detail::userNsKnownUnusable() && detail::probeUserNs();
    if (!userNs) detail::markUserNsUnusable();
    bool namespaces = userNs || root;  // root builds the other namespaces without a user one
    iso.userNs = userNs;
    iso.pidNs = iso.netNs = iso.mountNs = iso.ipcNs = iso.utsNs = namespaces;
    iso.cgroup = false;  // limits are enforced with rlimits (see steps/Cgroup.cpp)
    iso.landlockAbi = detail::landlockAbi();
    iso.seccomp = true;
    if (!userNs) iso.missing.push_back("user_ns");
    if (!namespaces) {
      for (const char* ns : {"pid_ns", "net_ns", "mount_ns", "ipc_ns", "uts_ns"}) iso.missing.push_back(ns);
    }
    if (iso.landlockAbi == 0) iso.missing.push_back("landlock");
    iso.degraded = !iso.missing.empty();
    return iso;
  }();
  return isolation;
}

}  // namespace greenlight::sandbox
