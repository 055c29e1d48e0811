// Meson projects, run the way `meson test` runs them.
//
// greenlight's private build directory of the project (cmake/PrivateBuild.h: <cache>/cmake/
// <project>-<hash>/build) is set up once in the sandbox, offline: `meson setup --wrap-mode=
// nodownload` (subprojects come from the source tree's subprojects/, as the user's checkout has
// them), with the options of the user's own build directory (a directory of the project holding
// meson-info/: its buildtype and the project's options). Later changes to meson.build are
// ninja's to notice (Meson's regenerate rule).
//
// The tests: meson-info/intro-tests.json (what `meson introspect --tests` prints): each test()
// with its command, arguments, environment, working directory; should_fail from the meson.build
// call (the introspection leaves it out). Its program's target (intro-targets.json) gives the
// sources and include directories, so the tests near a file are those whose program compiles it
// or includes it. A program of a framework (GoogleTest, Catch2, doctest, Boost.Test: by its
// sources) runs with the framework's reporter, one result per test case ("<test name>::<case>");
// a plain program's exit code is its result, as `meson test` reads it (77 skips, should_fail
// inverts).
//
// Thread-safety: pure functions plus sandboxed steps; configure needs the PrivateBuild's Lock.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/testing/native/Programs.h"

namespace greenlight::core::testing::native {

struct MesonProject {
  std::string sourceDir;                // the top meson.build's directory
  std::vector<std::string> buildFiles;  // meson.build / meson_options.txt / meson.options under it
};

// The Meson project `file` belongs to: the highest directory with a meson.build declaring
// project() above it (stopping at the repository root or $HOME).
std::optional<MesonProject> findMesonProject(const std::string& file);

// Sets up the private build when it has no introspection yet, or when the user's options
// changed. False + `error` (Meson's own words; which subproject needs a download) when it fails.
bool mesonConfigure(cmake::PrivateBuild& build, const MesonProject& project, const RunOptions& options, std::string* error);

// The test programs of the configured build (intro-tests.json + intro-targets.json).
std::vector<Program> mesonPrograms(const MesonProject& project, const std::string& buildDir, std::string* error);

// The test names of the project's meson.build files declared with should_fail: true.
std::vector<std::string> mesonShouldFail(const std::vector<std::string>& buildFiles);

}  // namespace greenlight::core::testing::native
