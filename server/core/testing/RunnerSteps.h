// Internal to the runners (Runner.cpp, CxxRunner.cpp, the adapters): one sandboxed step and the pieces every
// language shares. Not part of the engine's API.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/testing/OutputParsing.h"
#include "core/testing/Runner.h"
#include "core/testing/Staging.h"
#include "core/testing/Toolchain.h"

namespace greenlight::core::testing {

struct StepOutput {
  sandbox::Verdict verdict;
  std::string stdoutText, stderrText;  // everything captured
  std::string stdoutRest, stderrRest;  // without harness event lines
  // The hang watchdog stopped the step (the verdict then says Timeout, not cancelled).
  std::optional<HungTest> hung;
};

// The C++ compile step's least bound (it gets max(this, 3 × the file's last compile)).
inline constexpr double kCompileSeconds = 60;

// The whole run's limit: RunOptions::timeoutSeconds, else the configured seconds.
double timeLimit(const RunOptions& options);
// A duration as the notes say it: "4.0 s", "31 s".
std::string secondsText(double seconds);
// The limit of one program whose progress is not visible live (a C++ test binary): with the
// hang watchdog on, it is one test of the run: max(3 × the hang bound, 3 × its last run),
// within the whole run's limit; else the whole run's limit.
double programTimeLimit(const RunOptions& options, double lastSeconds);
// Scratch, workdir /work/src, limits from the config, the workspace and the tool's prefixes
// bound read-only, PATH with the tool's directory first.
sandbox::Policy basePolicy(const TestPlan& plan, const RunOptions& options, const Staging& staging,
                           const Tool* tool);
// Runs one policy, streaming output; `onEvent` sees each harness event line as it arrives.
// With `onEvent` and options.hangSeconds, the hang watchdog (Watchdog.h) watches the events.
StepOutput executeStep(const sandbox::Policy& policy, const RunOptions& options,
                       const std::function<void(const nlohmann::json&)>& onEvent);
// Adds the outcome's results (mapped) and turns the verdict into a blamed result (timeout,
// memory, sandbox refusal...) for the test that was running.
void finishResult(RunResult& result, const std::optional<HarnessOutcome>& outcome, const StepOutput& step,
                  const PathMap& map);

// The toolchain a configured name stands for, in the plan's workspace.
std::optional<Tool> resolveFor(const std::string& name, const TestPlan& plan, const RunOptions& options,
                               std::string* error);
// The warm start for an interpreter command, built once per command: `files` go into /work
// (relative paths), the same for every run. Thread-safe.
std::shared_ptr<const sandbox::Policy::WarmStart> warmStart(
    const std::vector<std::string>& argv, std::initializer_list<std::pair<const char*, std::string_view>> files);
// Runs a harness that streams EVENTS.md lines: forwards each finished test as it arrives (paths
// mapped), then records the verdict and the output that was not events into `result`. With
// options.prepareOnly it only readies a spare of the policy's shape.
std::pair<StepOutput, HarnessOutcome> runHarness(const sandbox::Policy& p, const RunOptions& options,
                                                 const PathMap& map, RunResult& result);

RunResult runCxx(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult result);

}  // namespace greenlight::core::testing
