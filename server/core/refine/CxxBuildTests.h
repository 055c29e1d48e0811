// Tests first in a C++ project with a build (issue 36; CMake, Meson, compile_commands.json): the proposed tests join an EXISTING test
// file of a test target that already compiles the target (it includes the target's header, or
// links the library the target is in), at its end, in that target's framework. No build file is
// edited: a test target is the only place the project's own flags, libraries and framework come
// together, and a new file would need a CMakeLists edit the user did not ask for. An existing
// file is overlaid (bind-mounted over) like any unsaved text, so nothing is written before the
// user accepts.
//
// Thread-safety: pure functions (placement reads the candidate test files from disk).
#pragma once

#include <optional>
#include <string>

#include "core/refine/Target.h"
#include "core/refine/TestsFirst.h"
#include "core/testing/Discovery.h"

namespace greenlight::core::refine {

// The C++ adapters that build the project's own test programs (Discovery.h TestPlan::runner):
// CMake, Meson, and compile_commands.json.
bool isBuildRunner(const std::string& runner);

// Where the new tests go, from the build's plan for the source (testing::discoverTests: the
// test files of the test targets that compile or include it). nullopt + `error` (one sentence)
// when the build has no test target to hold them or is not one greenlight builds. The placement's `inBuild` is
// set: the file exists and is compiled by the build, so it is an overlay, not an extra file.
std::optional<TestsPlacement> placeInBuild(const Target& target, const std::string& sourcePath,
                                           const testing::TestPlan& plan, std::string* error);

// The test file with the new cases at its end, and the target's #include added after the file's
// last #include when neither the file nor the new cases have it.
std::string appendToBuildTestFile(const TestsPlacement& placement, const std::string& testsCode);

}  // namespace greenlight::core::refine
