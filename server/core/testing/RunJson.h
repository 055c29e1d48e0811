// RunResult -> the `greenlight run --json` object of DESIGN.md, and the gcc-style text lines.
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/testing/TestTypes.h"

namespace greenlight::core::testing {

// `coverFirst`..`coverLast`: the lines of the file under test its coverage is judged on (the
// function a FILE:LINE run asked about; last 0: to the end of the file).
nlohmann::ordered_json runResultToJson(const RunResult& result, int coverFirst = 1, int coverLast = 0);
nlohmann::ordered_json testResultToJson(const TestResult& test);

// One "path:line:col: error: message" line per diagnostic (an editor's quickfix format), with
// "path:line:col: note: message" lines for related information, then "N passed, N failed"
// (failed counts failures, errors and timeouts).
std::string runResultToText(const RunResult& result);

}  // namespace greenlight::core::testing
