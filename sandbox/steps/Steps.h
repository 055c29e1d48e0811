// The sandbox child's setup, as nsjail's containProc does it: a flat, ordered list of
// single-purpose steps, each in its own file. Every step runs in the child of clone(), so it
// is async-signal-safe (see Plan.h), returns false after reporting "<step>: <call>: <errno>"
// on the status socket, and the child then exits.
//
// Order (Child.cpp runs it):
//   userNamespaceEarly   UserNs mode: map our own uid/gid, deny setgroups
//   mounts               new root on tmpfs, binds, /proc, /dev, /tmp, /work (+seed), pivot_root
//   userNamespaceLate    RootThenUserNs mode: drop to the unprivileged host uid, unshare a user
//                        namespace and map it (mounts were made with real root rights first)
//   processSetup         setsid, stdio, close-on-exec for every other fd, PDEATHSIG, no_new_privs
//   rlimits              CPU, DATA, FSIZE, NOFILE, NPROC, CORE, STACK
//   cgroup               nothing to do in the child (see Cgroup.cpp for the probe)
//   landlock             write (and in degraded mode read) restrictions, TCP, scopes
//   seccomp              the cached BPF with a user-notification listener handed to the parent
//   (warm spares: receive the interpreter's files, start the interpreter with kWarmRunFd
//                        its run socket, so that it loads while the spare waits)
//   awaitGo              spares only: block until the go request, then seed /work, stdin, cwd
//                        (warm: hand the interpreter argv, env and workdir on kWarmRunFd)
//   init/exec            pid 1 forks the payload and reports its exit; the payload execs
#pragma once

#include <cstdint>

#include "sandbox/Plan.h"

namespace greenlight::sandbox::detail {

bool userNamespaceEarly(const LaunchPlan& plan);
bool mountFilesystem(const LaunchPlan& plan);
// Sets *applied to whether a user namespace is in force afterwards.
bool userNamespaceLate(const LaunchPlan& plan, bool* applied);
bool processSetup(const LaunchPlan& plan);
bool applyRlimits(const LaunchPlan& plan);
bool applyLandlock(const LaunchPlan& plan, bool* applied);
bool loadSeccomp(const LaunchPlan& plan);
// Held spares: blocks for the supervisor's go, then fills `spec` from its request.
bool awaitGo(const LaunchPlan& plan, ExecSpec* spec);
// Warm spares: receives the interpreter's files and writes them under /work.
bool receivePreseed(const LaunchPlan& plan);
// Never returns: runs as pid 1 (fork payload, reap, report) or execs directly (degraded).
[[noreturn]] void runInitAndPayload(const LaunchPlan& plan, std::uint32_t layers);

// The whole child: runs every step in order. Never returns.
[[noreturn]] void childMain(const LaunchPlan& plan);

}  // namespace greenlight::sandbox::detail
