// One test job, flowing once through the adapter that owns the file (issue 34 item 7):
//
//   1. resolve   the request: the file's absolute path, its text (overlay first), its project root
//   2. detect    the first adapter, in order of preference (Adapter.h adapters()), that owns the
//                file; `tests.command` when none does, or when the owner found no test near it
//   3. plan      that adapter's TestPlan (planTests)
//   4. select    narrowed to the tests asked for, the adapter's own way (selectTests)
//   5. run       staged, run in the sandbox and its report parsed by the same adapter; a run that
//                coverage made too slow is run once more without it (runTests)
//   6. finish    the summary, the notes and the diagnostics
//
// The callers (TestService, the LSP's listings and lenses, the refine loop) see only this file;
// Discovery.h and Runner.h are the adapters' tools and know no adapter.
//
// Thread-safety: as the adapters (Adapter.h): every function may be called from any thread,
// concurrently.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/testing/Discovery.h"
#include "core/testing/Runner.h"

namespace greenlight::core::testing {

class RunnerAdapter;

// A plan and the adapter that made it (and runs it).
struct PlannedTests {
  TestPlan plan;
  const RunnerAdapter* adapter = nullptr;
};

// Steps 1-3. nullopt + `error` for a request that cannot be served (an unreadable file, an unknown
// language with no tests.command, a project runner that cannot run); an empty() plan when the
// file is fine but has no tests near it.
std::optional<PlannedTests> planTests(const DiscoveryRequest& request, std::string* error);
// The plan alone (listings, code lenses, the refine loop's reading of the tests).
std::optional<TestPlan> discoverTests(const DiscoveryRequest& request, std::string* error);

// Step 4: the tests named as the built-in harness names them (TestIds.h selectionForIds).
void selectTests(PlannedTests& planned, const std::vector<std::string>& names);

// Steps 5-6. With RunOptions::prepareOnly: only a warm spare is prepared, when the adapter can.
RunResult runTests(const PlannedTests& planned, const RunOptions& options);
// runTests() by the adapter the plan names (TestPlan::runner; empty: the language's built-in
// harness), for a plan made by hand.
RunResult runPlan(const TestPlan& plan, const RunOptions& options);

// The built-in harness of a language: "python", "node", "cxx", "command".
std::string_view defaultRunner(Language language);

}  // namespace greenlight::core::testing
