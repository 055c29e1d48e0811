// What a run of a Python project's own runner (pytest, unittest) needs beyond the project's files
// (PythonProject.h): whether its interpreter can import the runner, asked in the sandbox, and the
// sandbox policy every such run starts from.
//
// Thread-safety: interpreterImports()' cache is locked; preparePythonRun() is pure but for its
// Staging.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/testing/PythonProject.h"
#include "core/testing/RunnerSteps.h"
#include "core/testing/adapters/Adapter.h"

namespace greenlight::core::testing {

// Whether `tool` (the project's interpreter) can import `module`, asked once per interpreter
// and workspace in the sandbox (a few tens of ms), then cached for the process.
bool interpreterImports(const Tool& tool, const std::string& module, const std::string& workspaceRoot,
                        const Config& config);

// What a project's Python runner (pytest, unittest) starts from: the project's files in place with
// the overlay copies bound over them (`stableOverlay` for a warm spare), the project's
// interpreter, greenlight's harness files and config.json in /work/.gl (with the C line tracer
// when `config` asks for coverage, PythonCoverTracer.h), and a policy whose
// workdir is the runner's root with the harness on PYTHONPATH. Its argv is left to the caller.
struct PythonRunSetup {
  sandbox::Policy policy;
  std::string python;  // the interpreter as the argv names it
};
// nullopt, with result.error saying why, when the root cannot be read by the sandbox's user, the
// staging fails or there is no interpreter.
std::optional<PythonRunSetup> preparePythonRun(const TestPlan& plan, const RunOptions& options, Staging& staging,
                                               const std::vector<std::pair<std::string, std::string_view>>& harnessFiles,
                                               nlohmann::json config, bool stableOverlay, RunResult& result);

}  // namespace greenlight::core::testing
