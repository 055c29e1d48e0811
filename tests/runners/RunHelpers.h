// Helpers for the runner tests that run real tests through the sandbox (SandboxRunTest,
// ValuesRunTest): one run through a TestService, and lookups in its result.
#pragma once

#include <optional>
#include <string>

#include "core/testing/TestService.h"

namespace greenlight::test {

core::testing::RunOutcome runIn(const std::string& path, std::optional<int> line = std::nullopt, double timeout = 0,
                                std::string python = "python3", core::testing::OverlayProvider overlay = {});
const core::testing::TestResult* find(const core::testing::RunResult& r, const std::string& name);
const core::testing::Diagnostic* diagAt(const core::testing::RunResult& r, const std::string& file, int line);
// Every test and diagnostic in one line each, for failure messages.
std::string describe(const core::testing::RunResult& r);

}  // namespace greenlight::test
