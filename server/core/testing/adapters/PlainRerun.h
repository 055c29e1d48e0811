// Neutral instrumentation for the Python project runners: whatever greenlight adds to a run (its
// pytest plugin or unittest runner, the traced rerun for the line of origin, a warm interpreter)
// must never change an outcome. A test that fails under it is run once more as the user's own
// command runs it; the plain outcome is the one reported, and a warning says so.
#pragma once

#include <string>
#include <vector>

#include "core/testing/Runner.h"
#include "sandbox/Sandbox.h"

namespace greenlight::core::testing {

// GREENLIGHT_PLAIN=1 in greenlight's environment: Python runs get no traced rerun for the line of
// origin, no warm interpreter and no plain rerun of failures (only the reporting itself): the
// baseline the origin bench and the differential checks compare with.
bool pythonInstrumentationOff();

enum class PlainRunner { Pytest, Unittest };

// Reruns the failed tests of `result` (those with a runner id it can address, at most a few
// dozen) with `policy`'s interpreter, files and limits but `plainArgv` (the runner's own command,
// without greenlight's plugin or runner) plus their ids, cold. Those that pass alone are run once
// more with the run's own `selection` (its files or ids, in its order: a test that fails only
// after the others is a real failure); each that passes there too is reported passed, its
// instrumented failure kept in the message, with a RunWarning ("instrumented-only"). Passing
// runs pay nothing, failing ones one short cold run; GREENLIGHT_PLAIN_RERUN=0 turns it off alone
// (the origin bench separates the two costs).
void rerunFailuresPlain(RunResult& result, const sandbox::Policy& policy, const std::vector<std::string>& plainArgv,
                        const std::vector<std::string>& selection, PlainRunner runner, const RunOptions& options);

}  // namespace greenlight::core::testing
