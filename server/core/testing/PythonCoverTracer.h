// python_cover.py's line tracer in C (harness/python_ctrace.c.inc), for CPython 3.8-3.11: the
// same counting, about three times cheaper per Python call than the Python trace function, which
// is what coverage adds to a run on those interpreters (issue 35).
//
// Built once per interpreter inside the sandbox, by the interpreter itself (isolated mode), with
// its own headers and compiler (sysconfig's CC, else cc, gcc, clang) and cached like the
// harness's bytecode (PythonBytecode.h). Where it cannot be built (no headers, no compiler, 3.12+
// where sys.monitoring is used, another implementation), the run counts with the Python tracer:
// the same lines, only slower. Thread-safe.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/testing/Staging.h"
#include "core/testing/Toolchain.h"
#include "sandbox/Sandbox.h"

namespace greenlight::core::testing {

// The shared object's bytes for `tool`, or nullopt. `policy`: the sandbox to build in.
std::optional<std::string> pythonCoverTracer(const Tool& tool, const sandbox::Policy& policy);

// When `config` asks for coverage (its "cover" list) and the tracer builds for `tool`: stages it
// as /work/.gl/_greenlight_ctrace.so and names it in config["cover_tracer"].
void stagePythonCoverTracer(const Tool& tool, const sandbox::Policy& policy, Staging& staging, nlohmann::json& config);

}  // namespace greenlight::core::testing
