#include "core/testing/harness/Harnesses.h"

#include "core/testing/harness/EmbeddedTexts.h"

namespace greenlight::core::testing::harness {
namespace {

// Drops the wrapper lines: everything up to and including the first line that holds
// `openMarker`, and the last line that holds `closeMarker` onwards.
std::string_view unwrap(std::string_view raw, std::string_view openMarker, std::string_view closeMarker) {
  auto open = raw.find(openMarker);
  if (open != std::string_view::npos) {
    auto nl = raw.find('\n', open);
    raw.remove_prefix(nl == std::string_view::npos ? raw.size() : nl + 1);
  }
  auto close = raw.rfind(closeMarker);
  if (close != std::string_view::npos) {
    auto nl = raw.rfind('\n', close);
    raw = raw.substr(0, nl == std::string_view::npos ? 0 : nl + 1);
  }
  return raw;
}

using embedded::kCxx;
using embedded::kCxxAssert;
using embedded::kCxxTrace;
using embedded::kPythonCTrace;
using embedded::kNode;
using embedded::kNodeWarm;
using embedded::kPythonWarm;
using embedded::kPython;
using embedded::kReporter;
using embedded::kRewriter;
using embedded::kAcorn;
using embedded::kAmaro;
using embedded::kJestReporter;
using embedded::kJsEvents;
using embedded::kJsCoverage;
using embedded::kVitestCoverage;
using embedded::kJsProbe;
using embedded::kJsWarm;
using embedded::kViteSandbox;
using embedded::kMochaReporter;
using embedded::kTsHook;
using embedded::kVitestReporter;
using embedded::kPytestPlugin;
using embedded::kPytestPluginEntry;
using embedded::kUnittestRunner;
using embedded::kPythonOrigin;
using embedded::kPythonCover;

}  // namespace

// Python: the raw string starts right after `R"GLPY(` on line 1 (content: `"` + newline) and
// ends before `)GLPY"` on the last line (content: `"`).
std::string_view pythonHarness() { return unwrap(kPython, "\"", "\""); }
// JavaScript: the content starts with "\n*/\n" and ends with "/*\n".
std::string_view pythonWarm() { return unwrap(kPythonWarm, "\"", "\""); }
std::string_view nodeHarness() { return unwrap(kNode, "*/", "/*"); }
std::string_view nodeWarm() { return unwrap(kNodeWarm, "*/", "/*"); }
std::string_view nodeReporter() { return unwrap(kReporter, "*/", "/*"); }
std::string_view nodeRewriter() { return unwrap(kRewriter, "*/", "/*"); }
std::string_view acornParser() { return {kAcorn, sizeof kAcorn - 1}; }
std::string_view jsEvents() { return unwrap(kJsEvents, "*/", "/*"); }
std::string_view jsCoverage() { return unwrap(kJsCoverage, "*/", "/*"); }
std::string_view vitestCoverage() { return unwrap(kVitestCoverage, "*/", "/*"); }
std::string_view jestReporter() { return unwrap(kJestReporter, "*/", "/*"); }
std::string_view vitestReporter() { return unwrap(kVitestReporter, "*/", "/*"); }
std::string_view mochaReporter() { return unwrap(kMochaReporter, "*/", "/*"); }
std::string_view jsProbe() { return unwrap(kJsProbe, "*/", "/*"); }
std::string_view jsWarm() { return unwrap(kJsWarm, "*/", "/*"); }
std::string_view viteSandbox() { return unwrap(kViteSandbox, "*/", "/*"); }
std::string_view tsHook() { return unwrap(kTsHook, "*/", "/*"); }
std::string_view amaroTransformer() { return {kAmaro, sizeof kAmaro - 1}; }
std::string_view cxxSupport() { return unwrap(kCxx, "*/", "/*"); }
std::string_view cxxTrace() { return unwrap(kCxxTrace, "*/", "/*"); }
std::string_view pythonCTrace() { return unwrap(kPythonCTrace, "*/", "/*"); }
std::string_view cxxAssertHeader() { return unwrap(kCxxAssert, "*/", "/*"); }
std::string_view pytestPlugin() { return unwrap(kPytestPlugin, "\"", "\""); }
std::string_view pytestPluginEntry() { return unwrap(kPytestPluginEntry, "\"", "\""); }
std::string_view unittestRunner() { return unwrap(kUnittestRunner, "\"", "\""); }
std::string_view pythonOrigin() { return unwrap(kPythonOrigin, "\"", "\""); }
std::string_view pythonCover() { return unwrap(kPythonCover, "\"", "\""); }

}  // namespace greenlight::core::testing::harness
