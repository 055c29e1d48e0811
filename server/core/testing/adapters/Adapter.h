// Runner adapters (DESIGN.md "Runners are adapters"): each way of running a project's tests is
// one adapter behind this interface, in the spirit of neotest's adapters. The LSP, the refine
// loop and TestService see only TestJob.h; Discovery.h and Runner.h are the adapters' tools and
// know no adapter.
//
//   discover  does this project use me for the file, and can its toolchain run me (detect); the
//             tests near the file, with stable ids and ranges, narrowed to a function (a TestPlan)
//   run       the sandbox command, files and overlay for the plan; the runner's own report
//             folded into per-test results with values and frames
//
// Adapters are asked in order of preference (adapters()): the project's own runner first
// (pytest, unittest; jest, vitest, mocha; CMake/CTest), greenlight's built-in harnesses last.
// The first adapter that returns a plan owns the file (TestJob.h planTests); TestPlan::runner
// names it, and runTests() hands the plan back to it.
//
// Thread-safety: adapters are stateless singletons (caches they keep are internally locked);
// discover() and run() may be called from any thread, concurrently.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/testing/Discovery.h"
#include "core/testing/Runner.h"
#include "core/testing/Staging.h"

namespace greenlight::core::testing {

class RunnerAdapter {
 public:
  virtual ~RunnerAdapter() = default;
  // "pytest", "unittest", "python", "node", "cxx", "command", ...
  virtual std::string_view name() const = 0;
  virtual bool handles(Language language) const = 0;
  // The plan for the tests near ctx.source, or nullopt when this is not the project's runner
  // (the next adapter is asked). A plan may be empty(): the runner owns the file and found no
  // test near it. `error` set with nullopt: a problem the user must hear about (stops the search).
  virtual std::optional<TestPlan> discover(const DiscoveryContext& ctx, std::string* error) const = 0;
  // Stages the plan (Staging is fresh), runs it in the sandbox, folds the runner's report into
  // `result` (file, language and files are already set).
  virtual RunResult run(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult result) const = 0;
  // Narrows `plan` to the tests named (as the built-in harness names them: `test_b`,
  // `TestA.test_b`, `TestA` for a class; TestIds.h selectionForIds): the runner's own way
  // (node ids for pytest, -k for unittest). Default: plan.selected.
  virtual void select(TestPlan& plan, const std::vector<std::string>& names) const { plan.selected = names; }
  // Whether a run can be prepared ahead (a warm spare: RunOptions::prepareOnly).
  virtual bool preparable() const { return false; }
};

// Every adapter, in order of preference.
const std::vector<const RunnerAdapter*>& adapters();
// The adapter a plan names; nullptr for an unknown name.
const RunnerAdapter* adapterNamed(std::string_view name);

}  // namespace greenlight::core::testing
