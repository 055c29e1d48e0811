// Included by Harnesses.cpp only. The harness files open with a C++ line splice ("//\") that
// hides a line from C++ but not from JavaScript; GCC's -Wcomment flags such splices and its
// diagnostic pragmas do not reach the lexer, so this header marks itself as a system header,
// which silences warnings for the files it includes. Nothing else is exempted.
#pragma once
#pragma GCC system_header

namespace greenlight::core::testing::harness::embedded {

inline constexpr char kPython[] =
#include "python_harness.py"
    ;
inline constexpr char kPythonWarm[] =
#include "python_warm.py"
    ;
inline constexpr char kPytestPlugin[] =
#include "pytest_plugin.py"
    ;
inline constexpr char kPytestPluginEntry[] =
#include "pytest_plugin_entry.py"
    ;
inline constexpr char kUnittestRunner[] =
#include "unittest_runner.py"
    ;
inline constexpr char kPythonOrigin[] =
#include "python_origin.py"
    ;
inline constexpr char kPythonCover[] =
#include "python_cover.py"
    ;
inline constexpr char kNodeWarm[] =
#include "node_warm.js"
    ;
inline constexpr char kNode[] =
#include "node_harness.js"
    ;
inline constexpr char kReporter[] =
#include "node_reporter.mjs"
    ;
inline constexpr char kRewriter[] =
#include "node_rewrite.js"
    ;
// third_party/acorn/acorn.js, byte for byte: the build wraps it (cmake/EmbedText.cmake).
inline constexpr char kAcorn[] =
#include "AcornEmbedded.inc"
    ;
// The project runners' side (jest / vitest / mocha reporters, the config probe, the warm start)
// and plain node's TypeScript hook.
inline constexpr char kJsEvents[] =
#include "js_events.js"
    ;
inline constexpr char kJsCoverage[] =
#include "js_coverage.js"
    ;
inline constexpr char kVitestCoverage[] =
#include "vitest_coverage.mjs"
    ;
inline constexpr char kJestReporter[] =
#include "jest_reporter.js"
    ;
inline constexpr char kVitestReporter[] =
#include "vitest_reporter.mjs"
    ;
inline constexpr char kMochaReporter[] =
#include "mocha_reporter.js"
    ;
inline constexpr char kJsProbe[] =
#include "js_probe.js"
    ;
inline constexpr char kJsWarm[] =
#include "js_warm.js"
    ;
inline constexpr char kViteSandbox[] =
#include "vite_sandbox.mjs"
    ;
inline constexpr char kTsHook[] =
#include "ts_hook.mjs"
    ;
// third_party/amaro/amaro.js.gz inflated, byte for byte: the build wraps it (cmake/EmbedText.cmake).
inline constexpr char kAmaro[] =
#include "AmaroEmbedded.inc"
    ;
inline constexpr char kCxx[] =
#include "cxx_support.cc.inc"
    ;
inline constexpr char kCxxTrace[] =
#include "cxx_trace.cc.inc"
    ;
inline constexpr char kPythonCTrace[] =
#include "python_ctrace.c.inc"
    ;
inline constexpr char kCxxAssert[] =
#include "cxx_assert.h.inc"
    ;

}  // namespace greenlight::core::testing::harness::embedded
