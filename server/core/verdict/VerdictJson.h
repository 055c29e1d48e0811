// Verdict -> JSON, exactly the shape of DESIGN.md ("Verdict JSON"; also the `sandbox` member
// of `greenlight run --json`). Pure functions; thread-safe.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "sandbox/Sandbox.h"

namespace greenlight::core {

nlohmann::json isolationToJson(const sandbox::Isolation& isolation);
// Keys in DESIGN.md order. exit_code/signal/syscall/setup_error are null when not applicable;
// times are rounded to 0.01 ms. Captured output is not part of the verdict.
nlohmann::ordered_json verdictToJson(const sandbox::Verdict& verdict);
// One line, no trailing newline.
std::string verdictToJsonLine(const sandbox::Verdict& verdict);

}  // namespace greenlight::core
