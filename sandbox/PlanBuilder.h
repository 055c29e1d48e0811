// Builds a LaunchPlan from a Policy, in the parent, before clone(). Not async-signal-safe
// (allocates, stats host paths); thread-safe (the /etc cache is built once under a lock).
#pragma once

#include <string>

#include "sandbox/Plan.h"
#include "sandbox/Sandbox.h"

namespace greenlight::sandbox::detail {

struct PlanOutcome {
  bool ok = false;
  std::string error;           // "plan: ..." when !ok
  std::string hostScratch;     // NoNamespaces: host scratch dir to remove after the run
};

PlanOutcome buildPlan(const Policy& policy, Mode mode, bool tryUserNs, LaunchPlan& plan);

// The per-run part of a plan (buildPlan calls it; a spare's go request is made of it): the
// working directory, argv, the scratch-built environment and argv[0]'s exec candidates.
// Returns an error message, or empty.
std::string planExec(const Policy& policy, const std::string& scratchDir, const std::string& tmpDir, LaunchPlan& plan);

// Appends up to `size` bytes of the file at `path` to `into` (plain read(2): iostreams cost
// more than the copy). A file that shrank meanwhile goes in as it was read. False, with
// errno, when it cannot be opened. `openFlags` are added to O_RDONLY | O_CLOEXEC.
bool readFileInto(const char* path, std::size_t size, std::string& into, int openFlags = 0);

// Removes a host scratch directory tree (NoNamespaces mode).
void removeTree(const std::string& path);

}  // namespace greenlight::sandbox::detail
