// The test executables of a CMake build, from the build graph first and CTest second.
//
// A test target is an executable of the File API's codemodel that uses a test framework (it
// links GoogleTest/GMock or Catch2's libraries, its objects include a framework's header, or a
// source defines the framework's main: DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN, CATCH_CONFIG_MAIN),
// whether CTest knows it or not: many projects build `tests` and run `./tests`. CTest
// registrations, where present, add what only they know (names per test case, arguments, the
// working directory, environment, labels, DISABLED), and make a target without a framework a
// test target too (a plain program whose exit code is the result). The old signature
// `add_test(name target args...)` is resolved to its target by PrivateBuild::tests.
//
// Which test targets exercise a file is the build graph's other half (FileApi.h targetsUsing:
// the compiler's recorded dependencies, else an #include scan).
//
// Thread-safety: pure functions.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/testing/cmake/FileApi.h"

namespace greenlight::core::testing::cmake {

struct TestTarget {
  const Target* target = nullptr;
  Framework framework = Framework::Plain;
  std::vector<const CtestTest*> ctest;  // the CTest tests that run it (none: not registered)
  bool registered() const { return !ctest.empty(); }
};

// By target name. Executables with a framework, and every target a CTest test runs (the
// placeholders gtest/catch/doctest_discover_tests list before the build included).
std::map<std::string, TestTarget> testTargets(const CodeModel& model, const std::vector<CtestTest>& tests,
                                              const DepsIndex* deps);

// GoogleTest filter patterns for every instance of TEST/TEST_F/TEST_P/TYPED_TEST(_P)(Suite, Name)
// ("Suite.Name", value-parameterized "Inst/Suite.Name/0", typed "Suite/0.Name" and
// "Inst/Suite/0.Name"), joined with ':'.
std::string gtestPatterns(const std::string& suiteDotName);

}  // namespace greenlight::core::testing::cmake
