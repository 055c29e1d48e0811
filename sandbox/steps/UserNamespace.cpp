// Step: user namespace. One uid and one gid are mapped; setgroups is denied.
//
// UserNs mode (unprivileged caller): the clone() already created the namespace; the child maps
// its own host uid/gid to kSandboxUid/kSandboxGid (a single-id self-map needs no privilege,
// so no round trip to the parent is needed).
//
// RootThenUserNs mode (host root): the mounts were built with real root rights (a bind of
// /root/.pyenv/versions/X needs to traverse the 0700 /root). Only then do we drop every
// privilege: supplementary groups cleared, uid/gid set to the unprivileged host id, and a new
// user namespace mapping that id to kSandboxUid. Untrusted code never runs as host uid 0.
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sandbox/steps/ChildIo.h"
#include "sandbox/steps/Steps.h"

namespace greenlight::sandbox::detail {
namespace {

constexpr const char* kStep = "user_ns";

bool writeMaps(const LaunchPlan& plan) {
  int err = writeWholeFile("/proc/self/uid_map", plan.uidMap.c_str(), plan.uidMap.size(), 0);
  if (err != 0) {
    reportFailure(plan.statusFd, kStep, "write", "/proc/self/uid_map", err);
    return false;
  }
  err = writeWholeFile("/proc/self/setgroups", "deny", 4, 0);
  if (err != 0) {
    reportFailure(plan.statusFd, kStep, "write", "/proc/self/setgroups", err);
    return false;
  }
  err = writeWholeFile("/proc/self/gid_map", plan.gidMap.c_str(), plan.gidMap.size(), 0);
  if (err != 0) {
    reportFailure(plan.statusFd, kStep, "write", "/proc/self/gid_map", err);
    return false;
  }
  return true;
}

}  // namespace

bool userNamespaceEarly(const LaunchPlan& plan) {
  if (plan.mode != Mode::UserNs) return true;
  return writeMaps(plan);
}

bool userNamespaceLate(const LaunchPlan& plan, bool* applied) {
  *applied = plan.mode == Mode::UserNs;
  if (plan.mode != Mode::RootThenUserNs) return true;
  // Raw system calls, not glibc's wrappers: in a multithreaded process glibc's setgroups/
  // setresgid/setresuid broadcast the change to every thread it knows of (__nptl_setxid).
  // This child of clone() has only one thread but a copy of the parent's thread list, so the
  // wrapper can wait forever on the lock of a thread that was starting at clone time (seen as
  // a sandbox that hung before exec on every other run in a process with a worker pool).
  if (::syscall(SYS_setgroups, 0, nullptr) != 0) {
    reportFailure(plan.statusFd, kStep, "setgroups", nullptr, errno);
    return false;
  }
  if (::syscall(SYS_setresgid, plan.hostGid, plan.hostGid, plan.hostGid) != 0) {
    reportFailure(plan.statusFd, kStep, "setresgid", nullptr, errno);
    return false;
  }
  if (::syscall(SYS_setresuid, plan.hostUid, plan.hostUid, plan.hostUid) != 0) {
    reportFailure(plan.statusFd, kStep, "setresuid", nullptr, errno);
    return false;
  }
  if (!plan.tryUserNs) return true;
  // The uid change made us non-dumpable, which hands /proc/self/* to root; we need to write
  // our own id maps there.
  ::prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
  if (::unshare(CLONE_NEWUSER) != 0) {
    // EPERM/ENOSPC/EINVAL: user namespaces are restricted here. The privileges are already
    // dropped; continue without (the parent records the missing layer).
    return true;
  }
  if (!writeMaps(plan)) return false;
  *applied = true;
  return true;
}

}  // namespace greenlight::sandbox::detail
