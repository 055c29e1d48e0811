// A tiny host-side process runner for trusted tools (`g++ --version`, `pyenv which`): never
// use it for workspace code, which runs only in the sandbox.
//
// Thread-safety: reentrant (fork+exec with a pipe; no shared state).
#pragma once

#include <string>
#include <vector>

namespace greenlight::core::testing {

struct HostCommandResult {
  int exitCode = -1;      // -1 when it could not start or was killed
  std::string output;     // stdout and stderr together, capped at 64 KiB
};

// Runs argv[0] (absolute path) with exactly `env`, in `cwd`, killing it after `timeoutSec`.
HostCommandResult runHostCommand(const std::vector<std::string>& argv,
                                 const std::vector<std::string>& env, const std::string& cwd,
                                 double timeoutSec);

}  // namespace greenlight::core::testing
