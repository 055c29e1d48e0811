// Coverage of the new code (issue 35), end to end: `greenlight generate` against the scripted
// model and the real sandbox. The tests never reach one branch of the code the model writes:
// the verdict says so (JSON, progress, headline), and refine.requireCoverage buys exactly one
// more round whose feedback names the unrun line, after which the tight code wins.
#include <catch2/catch.hpp>

#include "GenerateFixture.h"

using namespace greenlight::test::refine;
using nlohmann::json;

namespace {

const char* kClampPy = "\"\"\"Clamping.\"\"\"\n\n\ndef clamp(x):\n    \"\"\"Return x limited to 0..100.\"\"\"\n    ...\n";
const char* kClampTest = "from clamp import clamp\n\n\ndef test_low():\n    assert clamp(-5) == 0\n\n\ndef test_mid():\n    assert clamp(50) == 50\n";
// Passes both tests; its `return 99` (wrong: it should be 100) is never run by them. Spliced at
// line 4: def 4, docstring 5, if 6, return 0 7, if 8, return 99 9, return x 10.
const char* kGappy =
    "def clamp(x):\n    \"\"\"Return x limited to 0..100.\"\"\"\n    if x < 0:\n        return 0\n    if x > 100:\n"
    "        return 99\n    return x";
const char* kTight = "def clamp(x):\n    \"\"\"Return x limited to 0..100.\"\"\"\n    return min(max(x, 0), 100)";

void clampWorkspace(const Workspace& ws, bool requireCoverage) {
  ws.write("clamp.py", kClampPy);
  ws.write("test_clamp.py", kClampTest);
  if (requireCoverage) ws.write(".greenlight.json", "{\"refine\": {\"requireCoverage\": true}}\n");
}

json gappyThenTight() {
  // The tight code only once the feedback names the line no test ran.
  return {{"rules", json::array({{{"match", "greenlight"},
                                  {"wrong", fenced("python", kGappy)},
                                  {"right", fenced("python", kTight)},
                                  {"evidence", json::array({"no test runs", "return 99"})}}})}};
}

std::string describe(const GenerateRun& r) {
  return "exit " + std::to_string(r.exitCode) + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err;
}

const json kGappyCoverage = {{"lines", {4, 6, 7, 8, 9, 10}}, {"run", {4, 6, 7, 8, 10}}, {"not_run", {9}}};

}  // namespace

TEST_CASE("coverage: a passing generation whose tests miss a branch says which new line no test ran", "[refine][e2e][coverage]") {
  Workspace ws;
  clampWorkspace(ws, false);
  ScriptedModel model(gappyThenTight());
  auto r = generate(ws, &model, {"clamp.py:4", "--json"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  const json& j = r.json;
  CHECK(j["status"] == "passed");
  CHECK(j["code"] == kGappy);  // requireCoverage is off: the first passing candidate stands
  REQUIRE(j["rounds"].size() == 1);
  CHECK(j["rounds"][0]["candidates"][0]["coverage"] == kGappyCoverage);
  CHECK(j["summary"]["coverage"] == kGappyCoverage);
  CHECK_FALSE(j["summary"].contains("coverage_round"));
  CHECK(model.requests().size() == 1);

  // The human verdict and the progress line say it too.
  Workspace ws2;
  clampWorkspace(ws2, false);
  ScriptedModel model2(gappyThenTight());
  auto h = generate(ws2, &model2, {"clamp.py:4"});
  INFO(describe(h));
  REQUIRE(h.exitCode == 0);
  CHECK_THAT(h.err, Catch::Contains("round 1/3: 2/2 passed · 5/6 new lines run\n"));
  CHECK_THAT(h.err, Catch::Contains("clamp: 2/2 tests passed in 1 round · 5/6 new lines run"));
}

TEST_CASE("coverage: refine.requireCoverage drives exactly one more round naming the unrun line", "[refine][e2e][coverage]") {
  Workspace ws;
  clampWorkspace(ws, true);
  ScriptedModel model(gappyThenTight());
  auto r = generate(ws, &model, {"clamp.py:4", "--json"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  const json& j = r.json;
  CHECK(j["status"] == "passed");
  CHECK(j["code"] == kTight);
  REQUIRE(j["rounds"].size() == 2);
  CHECK(candidateStatuses(j) == std::vector<std::vector<std::string>>{{"passed"}, {"passed"}});
  CHECK(j["rounds"][0]["candidates"][0]["coverage"] == kGappyCoverage);
  CHECK(j["rounds"][1]["candidates"][0]["coverage"]["not_run"] == json::array());
  CHECK(j["summary"]["coverage"]["not_run"] == json::array());
  CHECK(j["summary"]["coverage_round"] == true);
  CHECK_THAT(j["summary"]["coverage_reason"].get<std::string>(), Catch::Contains("5/6 new lines run"));
  CHECK_THAT(j["summary"]["coverage_reason"].get<std::string>(), Catch::Contains("chosen: the candidate that runs 2/2 new lines run"));
  // Exactly two requests; the second names the line (by its place in the code, with its text).
  auto requests = model.requests();
  REQUIRE(requests.size() == 2);
  CHECK_THAT(model.lastUser(1), Catch::Contains("line 6:         return 99"));
  CHECK_THAT(model.lastUser(1), Catch::Contains("no test runs"));
}

TEST_CASE("coverage: requireCoverage with every new line run adds no round, GREENLIGHT_COVERAGE=0 measures nothing",
          "[refine][e2e][coverage]") {
  {
    Workspace ws;
    clampWorkspace(ws, true);
    ScriptedModel model({{"rules", json::array()}, {"default", {{"text", fenced("python", kTight)}}}});
    auto r = generate(ws, &model, {"clamp.py:4", "--json"});
    INFO(describe(r));
    REQUIRE(r.exitCode == 0);
    CHECK(r.json["rounds"].size() == 1);
    CHECK(r.json["summary"]["coverage"] == json({{"lines", {4, 6}}, {"run", {4, 6}}, {"not_run", json::array()}}));
    CHECK_FALSE(r.json["summary"].contains("coverage_round"));
  }
  {
    // Off: the same outcome, nothing measured, so requireCoverage has nothing to act on.
    Workspace ws;
    clampWorkspace(ws, true);
    ScriptedModel model(gappyThenTight());
    GenerateOptions off;
    off.env = {"GREENLIGHT_COVERAGE=0"};
    auto r = generate(ws, &model, {"clamp.py:4", "--json"}, off);
    INFO(describe(r));
    REQUIRE(r.exitCode == 0);
    CHECK(r.json["status"] == "passed");
    CHECK(r.json["code"] == kGappy);
    CHECK(r.json["rounds"].size() == 1);
    CHECK_FALSE(r.json["summary"].contains("coverage"));
    CHECK_FALSE(r.json["rounds"][0]["candidates"][0].contains("coverage"));
  }
}
