// Line coverage of C++ runs through gcov (issue 35): the test programs are compiled with
// --coverage (GCC only), write their counts (.gcda) into the run's private /out while they run,
// and gcov (the compiler's own version, in the sandbox) turns them into per-line counts of the
// file under test, summed over every translation unit that compiled or included it (a header's
// inline and template functions count in each TU that instantiated them).
//
// The counts of a run are only its own: the programs write under a fresh directory per run
// (GCOV_PREFIX), never next to the objects, so nothing accumulates between runs. Coverage is
// bounded and neutral: a missing gcov, a compiler that is not GCC (clang's data would need
// llvm-cov, whose gcov mode has no JSON), no data, or a gcov that fails or takes too long all
// mean "no coverage" (an empty vector), never a different outcome.
//
// GREENLIGHT_COVERAGE=0 in greenlight's environment turns it off: nothing is compiled with
// --coverage and nothing is collected (the with/without comparisons and the bench).
//
// Thread-safety: pure functions, plus sandboxed steps in collectGcov (reentrant).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/testing/Runner.h"
#include "core/testing/TestTypes.h"

namespace greenlight::core::testing::native {

// Compiled with --coverage next to it: the functions of the system's headers (the standard
// library, installed frameworks) and of fetched or bundled libraries are not instrumented (a
// test TU instruments Catch2's or GoogleTest's inline code otherwise: slower builds, bigger
// notes). A project under /usr or a file under test in such a directory gets no coverage.
inline constexpr char kCoverageExclude[] = "-fprofile-exclude-files=^/usr/|/_deps/|/third_party/";

// False when GREENLIGHT_COVERAGE is "0" (or "off", "false", "no") in greenlight's environment.
bool coverageEnabled();

// The gcov that reads what a compiler writes: "gcov-<major>" when installed where the sandbox
// finds it, else "gcov"; "" for a compiler that is not GCC (by its id, or its --version line).
// `compilerId` is CMake's ("GNU", "Clang"; "" when unknown); `version` its version or the
// first line of --version.
std::string gcovFor(const std::string& compilerId, const std::string& version);

// The same for a compiler known only by its command (compile_commands.json): by the name it
// resolves to on the sandbox's PATH ("x86_64-linux-gnu-g++-12" -> gcov-12; clang -> "").
std::string gcovForCommand(const std::string& compiler);

// The environment that sends a test program's counts under `sandboxDir` (absolute, writable).
std::vector<std::string> gcovEnvironment(const std::string& sandboxDir);

// `gcov --json-format --stdout` output (one JSON document per line, one per .gcda) -> the
// executable lines of the files `wanted` accepts (source paths made absolute against each
// document's working directory and normalized), counts summed over documents and over the
// functions that share a line (template instances). Malformed documents are skipped.
std::vector<FileCoverage> parseGcovJson(std::string_view text, const std::function<bool(const std::string&)>& wanted);

struct GcovRun {
  std::string gcov;        // gcovFor(...)
  std::string dataDir;     // host directory the programs' GCOV_PREFIX stands for
  std::string sandboxDataDir;  // the same directory inside the sandbox
  // Where the .gcno of a .gcda lives (absolute): with a prefix, the object's own directory;
  // "" : next to the .gcda already (a program compiled into the data directory).
  bool prefixed = true;
  std::vector<std::string> files;  // host paths to report (the file under test)
  // Whether an object's counts can hold the files' lines, by the object's host path without
  // its extension ("/b/CMakeFiles/t.dir/a.cpp" for a.cpp.o); empty: every object is read.
  // (A build's recorded dependencies spare gcov the objects that never include the file.)
  std::function<bool(const std::string&)> relevant;
  // Sandbox path of a source -> host path (identity for project builds).
  std::function<std::string(const std::string&)> toHost;
  // The sandboxed step that runs gcov: the caller's test policy shape (binds, limits).
  sandbox::Policy policy;
};

// Reads every .gcda under run.dataDir (capped), puts each object's .gcno beside it, runs gcov
// once over all of them in the sandbox and returns the coverage of run.files. Empty on any
// failure (logged).
std::vector<FileCoverage> collectGcov(const GcovRun& run, const RunOptions& options);

}  // namespace greenlight::core::testing::native
