// `greenlight run FILE[:LINE]` through the engine (TestService), printing what the C++ coverage
// collector measured (RunResult::coverage) next to the tests' outcomes, as one JSON object:
//   {"error": E, "tests": {name: status}, "coverage": [{"file": F, "lines": [[line, count], ...]}]}
// check_coverage.py compares it with gcov run by hand. (`run --json` carries coverage once the
// core's JSON does: this reads the RunResult itself.)
#include <cstdio>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/testing/TestService.h"

using namespace greenlight::core::testing;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: coverage_probe FILE[:LINE]\n");
    return 2;
  }
  std::string path = argv[1];
  RunRequest r;
  const auto colon = path.rfind(':');
  if (colon != std::string::npos && colon + 1 < path.size() && path.find_first_not_of("0123456789", colon + 1) == std::string::npos) {
    r.line = std::stoi(path.substr(colon + 1));
    path = path.substr(0, colon);
  }
  r.path = path;
  TestService::Options o;
  o.workers = 1;
  TestService service(o);
  const RunOutcome outcome = service.runNow(std::move(r));
  nlohmann::json j;
  j["error"] = outcome.result.error;
  j["tests"] = nlohmann::json::object();
  for (const auto& t : outcome.result.tests) j["tests"][t.id.empty() ? t.name : t.id] = std::string(testStatusName(t.status));
  j["coverage"] = nlohmann::json::array();
  for (const auto& c : outcome.result.coverage) {
    nlohmann::json lines = nlohmann::json::array();
    for (const auto& [line, count] : c.hits) lines.push_back({line, count});
    j["coverage"].push_back({{"file", c.file}, {"lines", lines}});
  }
  std::cout << j.dump() << "\n";
  return 0;
}
