// The runner-side scripts, embedded into the binary at build time so that build/greenlight
// works from any directory and a fresh clone needs no install step.
//
// Each script is a real file beside this header (python_harness.py, node_harness.js,
// node_reporter.mjs, cxx_support.cc.inc) that Harnesses.cpp #includes inside a C++ raw string;
// the files open and close with lines that are both the raw string's delimiters for C++ and
// harmless for their own language, so the compiler tracks them as dependencies and they stay
// runnable and lintable on their own. The accessors strip those two wrapper lines.
//
// Thread-safety: the returned views point at static storage.
#pragma once

#include <string_view>

namespace greenlight::core::testing::harness {

std::string_view pythonHarness();   // python_harness.py
std::string_view nodeHarness();     // node_harness.js
// Warm starts (sandbox Policy::WarmStart): the interpreter a spare starts ahead of its run.
std::string_view pythonWarm();      // python_warm.py: loads python_harness.py, then awaits the run
std::string_view nodeWarm();        // node_warm.js: loads the rewriter and node:test, then awaits
std::string_view nodeReporter();    // node_reporter.mjs
std::string_view nodeRewriter();    // node_rewrite.js: rewrites test files' asserts to record values
std::string_view acornParser();     // third_party/acorn/acorn.js, the parser node_rewrite.js uses
// Project runners (EVENTS.md), written together to /work/.gl: the reporters require
// js_events.js beside them by path.
std::string_view jsEvents();        // js_events.js: the event writer and helpers the reporters share
// Line coverage of GREENLIGHT_COVER's files (issue 35): js_coverage.js beside the reporters and
// the node harness; vitest_coverage.mjs, vitest's custom coverage provider that runs it in workers.
std::string_view jsCoverage();      // js_coverage.js
std::string_view vitestCoverage();  // vitest_coverage.mjs: --coverage.customProviderModule=/work/.gl/vitest_coverage.mjs
std::string_view jestReporter();    // jest_reporter.js: --reporters=/work/.gl/jest_reporter.js
std::string_view vitestReporter();  // vitest_reporter.mjs: --reporter=/work/.gl/vitest_reporter.mjs
std::string_view mochaReporter();   // mocha_reporter.js: --require and --reporter /work/.gl/mocha_reporter.js
std::string_view jsProbe();         // js_probe.js: asks the project's runner for its config and test files
std::string_view jsWarm();          // js_warm.js: warm start with the runner's modules loaded
// vitest's main process on an older vite, read-only and offline: `node --import=/work/.gl/vite_sandbox.mjs`
std::string_view viteSandbox();     // vite_sandbox.mjs
// Plain node and TypeScript: `node --import /work/.gl/ts_hook.mjs`, with amaro.js beside it.
std::string_view tsHook();          // ts_hook.mjs
std::string_view amaroTransformer();  // third_party/amaro/amaro.js.gz inflated (3.7 MB: write it only for .ts runs)
std::string_view cxxSupport();      // cxx_support.cc.inc: crash/timeout backtraces, assert values
std::string_view cxxAssertHeader(); // cxx_assert.h.inc: <assert.h> whose assert shows both sides
// CMake projects: LD_PRELOADed into project test binaries, records where throws and crashes arose.
std::string_view cxxTrace();        // cxx_trace.cc.inc
// Project runners (EVENTS.md): pytest and unittest run the project as they would, reporting per test.
std::string_view pytestPlugin();       // pytest_plugin.py: staged as _greenlight_pytest.py (the hooks)
std::string_view pytestPluginEntry();  // pytest_plugin_entry.py: staged as greenlight_pytest.py, `-p greenlight_pytest`
std::string_view pythonOrigin();    // python_origin.py: staged as _greenlight_origin.py (the line of origin, for both)
// python_cover.py: staged as _greenlight_cover.py (the line coverage of the file under test, for all three)
std::string_view pythonCover();
// python_ctrace.c.inc: python_cover.py's tracer in C, built per interpreter (PythonCoverTracer.h)
std::string_view pythonCTrace();
std::string_view unittestRunner();  // unittest_runner.py: staged as greenlight_unittest.py, `-m greenlight_unittest`

}  // namespace greenlight::core::testing::harness
