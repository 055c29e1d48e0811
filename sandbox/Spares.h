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
// network, the seccomp profile, the sandbox mode; for a warm spare also the interpreter's
// argv, environment and files, since it started with them). What each run brings (the go request): argv,
// environment, working directory, stdin and the /work seed. Each spare serves one run only;
// nothing of one run can reach the next. A spare idle for kSpareIdleSeconds is dropped by the
// builder thread (it wakes for that even with no build queued).
#pragma once

#include <memory>
#include <string>

#include "sandbox/Plan.h"
#include "sandbox/Sandbox.h"

namespace greenlight::sandbox::detail {

bool sparesEnabled();

// The policy's shape: the fields a spare is built from. Same key, interchangeable spares.
// A warm-eligible policy's shape also holds the interpreter: its argv, environment and files.
std::string spareKey(const Policy& policy, Mode mode, bool tryUserNs);

// A run that can go to a warm spare: WarmStart set, with a command, and no stdin.
bool warmEligible(const Policy& policy);

// Counts a run handed to a warm spare's interpreter.
void countWarmUsed();
// Counts a warm run whose interpreter was gone at go (it then ran cold).
void countWarmFellBack();

// Runs in progress (every Execution from start() until its verdict). A warm spare's
// interpreter takes tens of ms of CPU to load: the builder starts one only when no run is in
// progress (or after a few seconds), so that it never competes with the run it follows.
void runBegins();
void runEnds();

// A ready spare for `key` (launched held; Execution.cpp's SandboxExecution), or null.
std::unique_ptr<Execution> takeSpare(const std::string& key);

// Asks the background thread to build a spare for `key` from `policy` unless one is ready or
// queued. No-op when spares are off.
void wantSpare(const std::string& key, const Policy& policy, Mode mode, bool tryUserNs);

// The pid of a spare's init (its sandbox's pid 1 as the host sees it), or -1.
int spareInitPid(const Execution& spare);

// Counts a spare that could not be used (its owner destroys it).
void countDiscarded();

// Defined in Execution.cpp: launches a held sandbox for `policy`'s shape; a launch that failed
// at once comes back finished().
std::unique_ptr<Execution> launchSpare(const Policy& policy, Mode mode, bool tryUserNs);

}  // namespace greenlight::sandbox::detail
