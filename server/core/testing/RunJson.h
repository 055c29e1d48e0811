// RunResult -> the `greenlight run --json` object of DESIGN.md, and the gcc-style text lines.
// Pure functions; thread-safe.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/testing/TestTypes.h"

namespace greenlight::core::testing {

nlohmann::ordered_json runResultToJson(const RunResult& result);
nlohmann::ordered_json testResultToJson(const TestResult& test);

// One "path:line:col: error: message" line per diagnostic (an editor's quickfix format), with
// "path:line:col: note: message" lines for related information, then "N passed, N failed"
// (failed counts failures, errors and timeouts).
std::string runResultToText(const RunResult& result);

}  // namespace greenlight::core::testing
