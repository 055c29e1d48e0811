// What the C++ adapters for builds other than CMake share (issue 34 item 5): Meson projects
// (native/Meson.h) and projects that only have a compile_commands.json (native/CompileDb.h, Make
// through bear, Bazel's extractors). Both end in a ninja build in greenlight's private build
// directory of the project (cmake/PrivateBuild.h: lock, overlays, ccache, sandboxed steps), and in
// test programs run with their framework's reporter (cmake/FrameworkReports.h).
//
// A Program is one test executable as its build runs it (Meson: a test() with its arguments,
// working directory and environment; compile_commands.json: the test files linked with the
// framework's main). runPrograms() runs each once with the framework's report and the plan's
// selection; a plain program's exit code is its result (77 skips, should_fail inverts, as
// `meson test` does).
//
// Thread-safety: pure functions plus sandboxed steps; the caller holds the PrivateBuild's Lock.
#pragma once

#include <string>
#include <vector>

#include "core/testing/Discovery.h"
#include "core/testing/Runner.h"
#include "core/testing/Staging.h"
#include "core/testing/cmake/FrameworkReports.h"
#include "core/testing/cmake/PrivateBuild.h"
#include "core/testing/cmake/Project.h"

namespace greenlight::core::testing::native {

// A symlink whose paths the compiler names as they are written, though the file lives at `to`:
// Bazel's execroot/_main/src -> <workspace>/src (a project header read as
// <output base>/execroot/_main/src/x.h), or the workspace's bazel-out -> <output base>/... (a
// generated header that is not the project's, though its path is under the workspace).
struct PathLink {
  std::string from;  // the symlink, absolute
  std::string to;    // where it leads, canonical
};
// `path` with each link it passes through replaced by its target (`path` when none).
std::string followLinks(const std::vector<PathLink>& links, const std::string& path);

struct Program {
  std::string target;                // the first part of the ids ("<target>::<test>")
  std::string binary;                // absolute
  std::string buildTarget;           // what ninja builds for it
  std::vector<std::string> args;     // after the binary
  std::string workdir;               // "" : the build directory
  std::vector<std::string> env;      // NAME=value
  cmake::Framework framework = cmake::Framework::Plain;
  std::string testName;              // a plain program's test name (Meson's)
  bool shouldFail = false;           // Meson's should_fail
  std::vector<std::string> sources;  // the test sources compiled into it
  std::vector<std::string> linked;   // other project sources linked into it (a library's)
  std::vector<std::string> includeDirs;  // for the #include scan before a build
  // The links its compiles name files through (compile_commands.json of Bazel): the headers the
  // deps and the #include scan list are followed through them to the project's own paths.
  std::vector<PathLink> links;
  // The program is greenlight's own link of every test file of a framework (compile_commands.json):
  // a run for a header keeps the cases of the test files that include it, not the program's all.
  bool perFile = false;
  std::string file;                  // where a plain program's failure is shown (its main)
  int line = 0;
  // The gcov that reads the coverage counts of the program's objects (native/Gcov.h: compiled
  // with --coverage by GCC); "" : none measured.
  std::string gcov;
};

// The framework the sources use (by their #include lines and declarations); Plain when none.
cmake::Framework frameworkOfSources(const std::vector<std::string>& sources);

// Project files a program's sources read (ninja's deps when the build recorded them, else an
// #include scan), under `root`.
std::vector<std::string> headersOf(const Program& program, const cmake::DepsIndex& deps, const std::string& root,
                                   const std::string& buildRoot);

// `ninja -C <build dir> targets...` in the sandbox (overlays bound).
cmake::PrivateBuild::BuildResult ninjaBuild(cmake::PrivateBuild& build, const std::vector<std::string>& targets,
                                            const std::vector<cmake::OverlayBind>& binds, const RunOptions& options,
                                            double seconds);
// A build that failed as one error result with the compiler's first error (its file followed
// through `links`: the project's path of a header the compiler read through Bazel's execroot).
RunResult buildFailed(const TestPlan& plan, const RunOptions& options, const cmake::PrivateBuild::BuildResult& built,
                      RunResult result, const std::vector<PathLink>& links = {});

// Runs the programs the plan names with the plan's selection; results appended to `result`.
void runPrograms(const TestPlan& plan, const RunOptions& options, Staging& staging, const cmake::PrivateBuild& build,
                 const std::vector<cmake::OverlayBind>& binds, const std::vector<const Program*>& programs,
                 RunResult& result);

}  // namespace greenlight::core::testing::native
