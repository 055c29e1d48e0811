#include "RunHelpers.h"

namespace greenlight::test {
using namespace core::testing;

RunOutcome runIn(const std::string& path, std::optional<int> line, double timeout, std::string python,
                 OverlayProvider overlay) {
  TestService::Options o;
  o.workers = 1;
  TestService service(o);
  RunRequest r;
  r.path = path;
  r.line = line;
  r.timeoutSeconds = timeout;
  r.config.pythonInterpreter = python;
  r.overlay = std::move(overlay);
  return service.runNow(std::move(r));
}

const TestResult* find(const RunResult& r, const std::string& name) {
  for (const auto& t : r.tests)
    if (t.name == name) return &t;
  return nullptr;
}

const Diagnostic* diagAt(const RunResult& r, const std::string& file, int line) {
  for (const auto& d : r.diagnostics)
    if (d.file == file && d.line == line) return &d;
  return nullptr;
}

std::string describe(const RunResult& r) {
  std::string s = "error=" + r.error + " stderr=" + r.stderrText + "\n";
  for (const auto& t : r.tests) s += t.name + " " + std::string(testStatusName(t.status)) + " " + t.message + "\n";
  for (const auto& d : r.diagnostics) s += d.file + ":" + std::to_string(d.line) + " " + d.code + " " + d.message + "\n";
  return s;
}

}  // namespace greenlight::test
