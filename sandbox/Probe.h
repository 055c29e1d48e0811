// Host capability probes shared by the planner and probeIsolation(). Thread-safe.
#pragma once

namespace greenlight::sandbox::detail {

// The Landlock ABI of the running kernel (0: none, or disabled). One syscall, cached.
int landlockAbi();

// A writable cgroup v2 subtree with memory and pids controllers delegated to us (Cgroup.cpp).
bool probeDelegatedCgroup();

// User namespaces: learnt the first time a run needs one (or by probeIsolation()), then
// remembered for the life of the process so that later runs skip a doomed attempt.
bool userNsKnownUnusable();
void markUserNsUnusable();

}  // namespace greenlight::sandbox::detail
