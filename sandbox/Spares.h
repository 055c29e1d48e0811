// Spare sandboxes: one built ahead per recently used policy shape, so that a run only sends
// its go request instead of paying for clone, namespaces, mounts, Landlock and seccomp.
//
// Threading model: one background thread (started by keepSpares(true), never joined; it
// lives as long as the process) builds spares. It must be long-lived because a spare's init
// has PR_SET_PDEATHSIG tied to the thread that cloned it: when the process ends, that thread
// dies and every spare with it. The pool (ready spares, build queue, stats) is guarded by one
// mutex; takeSpare()/wantSpare() may be called from any thread and never block on a build.
//
// What a spare shares with the run that takes it: everything in spareKey() (limits, binds,
// network, the seccomp profile, the sandbox mode). What each run brings (the go request): argv,
// environment, working directory, stdin and the /work seed. Each spare serves one run only;
// nothing of one run can reach the next.
#pragma once

#include <memory>
#include <string>

#include "sandbox/Plan.h"
#include "sandbox/Sandbox.h"

namespace greenlight::sandbox::detail {

bool sparesEnabled();

// The policy's shape: the fields a spare is built from. Same key, interchangeable spares.
std::string spareKey(const Policy& policy, Mode mode, bool tryUserNs);

// A ready spare for `key` (launched held; Execution.cpp's SandboxExecution), or null.
std::unique_ptr<Execution> takeSpare(const std::string& key);

// Asks the background thread to build a spare for `key` from `policy` unless one is ready or
// queued. No-op when spares are off.
void wantSpare(const std::string& key, const Policy& policy, Mode mode, bool tryUserNs);

// Counts a spare that could not be used (its owner destroys it).
void countDiscarded();

// Defined in Execution.cpp: launches a held sandbox for `policy`'s shape; a launch that failed
// at once comes back finished().
std::unique_ptr<Execution> launchSpare(const Policy& policy, Mode mode, bool tryUserNs);

}  // namespace greenlight::sandbox::detail
