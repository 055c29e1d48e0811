// The `greenlight generate --json` object (DESIGN.md "Generate → run → refine"): every field,
// in DESIGN's order, with the right types and nulls; the headline; and unifiedDiff, checked by
// letting patch(1) apply it.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/refine/ResultJson.h"

using namespace greenlight::core::refine;
using nlohmann::ordered_json;

namespace {

std::vector<std::string> keysOf(const ordered_json& j) {
  std::vector<std::string> out;
  for (auto it = j.begin(); it != j.end(); ++it) out.push_back(it.key());
  return out;
}

RefineResult passedResult() {
  RefineResult r;
  r.status = "passed";
  r.file = "/abs/m.py";
  Target t;
  t.kind = TargetKind::Stub;
  t.name = "slugify";
  t.commentFirst = 3;
  t.commentLast = 3;
  t.first = 4;
  t.last = 5;
  r.target = t;
  r.code = "def slugify(s):\n    return s";
  TextEdit e;
  e.line = 4;
  e.column = 1;
  e.endLine = 5;
  e.endColumn = 9;
  e.newText = r.code;
  r.edit = e;
  r.additions.imports = {"import re"};
  TextEdit imports;
  imports.line = imports.endLine = 1;
  imports.column = imports.endColumn = 1;
  imports.newText = "import re\n";
  r.edits = {imports, e};
  RoundReport r1;
  r1.round = 1;
  r1.modelMs = 812.04;
  r1.testsMs = 55.06;
  CandidateReport c1;
  c1.status = "failed";
  c1.passed = 5;
  c1.failed = 2;
  c1.feedback = "5 of 7 tests passed";
  r1.candidates = {c1};
  RoundReport r2;
  r2.round = 2;
  r2.modelMs = 788.46;
  r2.testsMs = 55.14;
  CandidateReport c2;
  c2.status = "passed";
  c2.passed = 7;
  r2.candidates = {c2};
  r.rounds = {r1, r2};
  r.testsPassed = 7;
  r.modelMs = 1600.5;
  r.testsMs = 110.2;
  r.promptTokens = 1234;
  r.completionTokens = 300;
  return r;
}

std::string runPatch(const std::string& before, const std::string& diff) {
  char tmpl[] = "/tmp/greenlight-diff-XXXXXX";
  std::string dir = ::mkdtemp(tmpl);
  std::filesystem::create_directories(dir + "/src");
  std::ofstream(dir + "/src/m.py", std::ios::binary) << before;
  std::ofstream(dir + "/d.patch", std::ios::binary) << diff;
  std::string cmd = "cd '" + dir + "' && patch -s -p1 < d.patch 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  std::string out;
  char buf[256];
  while (p && std::fgets(buf, sizeof buf, p)) out += buf;
  int rc = p ? ::pclose(p) : -1;
  std::ifstream in(dir + "/src/m.py", std::ios::binary);
  std::stringstream after;
  after << in.rdbuf();
  std::filesystem::remove_all(dir);
  INFO("patch: " << out);
  REQUIRE(rc == 0);
  return after.str();
}

}  // namespace

TEST_CASE("result json: every DESIGN field, in order, with its type", "[refine][json]") {
  ordered_json j = refineResultToJson(passedResult(), true);
  CHECK(keysOf(j) == std::vector<std::string>{"status", "file", "target", "code", "imports", "applied", "edit", "edits", "rounds", "summary", "error"});
  CHECK(j["status"] == "passed");
  CHECK(j["file"] == "/abs/m.py");
  CHECK(keysOf(j["target"]) == std::vector<std::string>{"name", "line", "end_line", "kind"});
  CHECK(j["target"]["name"] == "slugify");
  CHECK(j["target"]["line"] == 3);  // the comment above the stub is part of what the target is
  CHECK(j["target"]["end_line"] == 5);
  CHECK(j["target"]["kind"] == "stub");
  CHECK(j["code"] == "def slugify(s):\n    return s");
  CHECK(j["applied"] == true);
  CHECK(keysOf(j["edit"]) == std::vector<std::string>{"file", "line", "column", "end_line", "end_column", "new_text"});
  CHECK(j["edit"]["file"] == "/abs/m.py");
  CHECK(j["edit"]["line"] == 4);
  CHECK(j["edit"]["column"] == 1);
  CHECK(j["edit"]["end_line"] == 5);
  CHECK(j["edit"]["end_column"] == 9);
  CHECK(j["edit"]["new_text"] == j["code"]);
  // Every edit (the target's and the imports' above it), in text order.
  CHECK(j["imports"] == ordered_json::array({"import re"}));
  REQUIRE(j["edits"].size() == 2);
  CHECK(j["edits"][0]["line"] == 1);
  CHECK(j["edits"][0]["end_line"] == 1);
  CHECK(j["edits"][0]["new_text"] == "import re\n");
  CHECK(j["edits"][1] == j["edit"]);
  REQUIRE(j["rounds"].size() == 2);
  for (const auto& round : j["rounds"]) {
    CHECK(keysOf(round) == std::vector<std::string>{"round", "model_ms", "tests_ms", "candidates"});
    CHECK(round["model_ms"].is_number_float());
    CHECK(round["tests_ms"].is_number_float());
    for (const auto& c : round["candidates"])
      CHECK(keysOf(c) == std::vector<std::string>{"status", "passed", "failed", "errors", "feedback"});
  }
  CHECK(j["rounds"][0]["round"] == 1);
  CHECK(j["rounds"][0]["model_ms"].get<double>() == Approx(812.0));
  CHECK(j["rounds"][0]["tests_ms"].get<double>() == Approx(55.1));
  CHECK(j["rounds"][0]["candidates"][0]["status"] == "failed");
  CHECK(j["rounds"][0]["candidates"][0]["passed"] == 5);
  CHECK(j["rounds"][0]["candidates"][0]["failed"] == 2);
  CHECK(j["rounds"][0]["candidates"][0]["errors"] == 0);
  CHECK(j["rounds"][0]["candidates"][0]["feedback"] == "5 of 7 tests passed");
  CHECK(j["rounds"][1]["candidates"][0]["feedback"] == "");
  CHECK(keysOf(j["summary"]) ==
        std::vector<std::string>{"rounds", "passed", "failed", "model_ms", "tests_ms", "prompt_tokens", "completion_tokens"});
  CHECK(j["summary"]["rounds"] == 2);
  CHECK(j["summary"]["passed"] == 7);
  CHECK(j["summary"]["failed"] == 0);
  CHECK(j["summary"]["model_ms"].get<double>() == Approx(1600.5));
  CHECK(j["summary"]["tests_ms"].get<double>() == Approx(110.2));
  CHECK(j["summary"]["prompt_tokens"] == 1234);
  CHECK(j["summary"]["completion_tokens"] == 300);
  CHECK(j["error"].is_null());
}

TEST_CASE("result json: nulls where there is nothing, insert targets", "[refine][json]") {
  RefineResult usage;
  usage.status = "error";
  usage.file = "/abs/m.py";
  usage.error = "line 9 is blank";
  ordered_json j = refineResultToJson(usage, false);
  CHECK(keysOf(j) == std::vector<std::string>{"status", "file", "target", "code", "imports", "applied", "edit", "edits", "rounds", "summary", "error"});
  CHECK(j["target"].is_null());
  CHECK(j["edit"].is_null());
  CHECK(j["applied"] == false);
  CHECK(j["rounds"].is_array());
  CHECK(j["rounds"].empty());
  CHECK(j["summary"]["rounds"] == 0);
  CHECK(j["error"] == "line 9 is blank");

  RefineResult failed = passedResult();
  failed.status = "failed";
  failed.edit.reset();
  failed.target->kind = TargetKind::Insert;
  failed.target->first = 4;
  failed.target->last = 3;
  failed.testsPassed = 5;
  failed.testsFailed = 2;
  failed.error = "best candidate passed 5/7";
  j = refineResultToJson(failed, false);
  CHECK(j["edit"].is_null());
  CHECK(j["target"]["kind"] == "insert");
  CHECK(j["target"]["line"] == 3);
  CHECK(j["target"]["end_line"] == 3);  // an insert's target is its comment
  CHECK(j["summary"]["failed"] == 2);
  CHECK(j["error"] == "best candidate passed 5/7");
  // Serialisable whatever the strings hold.
  CHECK_NOTHROW(j.dump());
}

TEST_CASE("result json: text that is not UTF-8 (a Latin-1 test file, a path) still serialises", "[refine][json]") {
  RefineResult r = passedResult();
  r.file = "/abs/caf\xe9.py";
  r.code = "def f():\n    return 'na\xefve'";
  r.rounds[0].candidates[0].feedback = "at t.cpp:6: assert(f() == 4); // \xe9t\xe9 \xc3\x28 \xed\xa0\x80 \xf4\x90\x80\x80";
  r.error = "cut \xe2\x82";
  r.target->name = "\xff";
  std::string dumped;
  REQUIRE_NOTHROW(dumped = refineResultToJson(r, false).dump());
  auto back = nlohmann::json::parse(dumped);
  CHECK(back["file"] == "/abs/caf\xef\xbf\xbd.py");
  CHECK(back["code"] == "def f():\n    return 'na\xef\xbf\xbdve'");
  CHECK(back["rounds"][0]["candidates"][0]["feedback"] ==
        "at t.cpp:6: assert(f() == 4); // \xef\xbf\xbdt\xef\xbf\xbd \xef\xbf\xbd( \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd "
        "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
  CHECK(back["error"] == "cut \xef\xbf\xbd\xef\xbf\xbd");
  // Valid text, multi-byte included, is left exactly as it was.
  r = passedResult();
  r.code = "def f():\n    return 'caf\xc3\xa9 \xe2\x98\x95 \xf0\x9f\x98\x80'";
  CHECK(nlohmann::json::parse(refineResultToJson(r, false).dump())["code"] == r.code);
}

TEST_CASE("resultHeadline says what happened", "[refine][json]") {
  RefineResult r = passedResult();
  CHECK(resultHeadline(r) == "slugify: 7/7 tests passed in 2 rounds");
  r.rounds.resize(1);
  CHECK(resultHeadline(r) == "slugify: 7/7 tests passed in 1 round");
  r.status = "failed";
  r.testsPassed = 5;
  r.testsFailed = 2;
  CHECK(resultHeadline(r) == "slugify: no candidate passed (best 5/7)");
  r.status = "unverified";
  CHECK(resultHeadline(r) == "slugify: generated, unverified (no tests found)");
  r.status = "cancelled";
  CHECK(resultHeadline(r) == "slugify: cancelled");
}

TEST_CASE("unifiedDiff: one hunk with context that patch(1) applies", "[refine][diff]") {
  CHECK(unifiedDiff("same\n", "same\n", "m.py").empty());
  const std::string before = "import re\n\n# slug\ndef slugify(s):\n    pass\n\n\ndef other():\n    return 1\n\nx = 2\n";
  const std::string after = "import re\n\n# slug\ndef slugify(s):\n    s = s.lower()\n    return s\n\n\ndef other():\n    return 1\n\nx = 2\n";
  std::string d = unifiedDiff(before, after, "src/m.py");
  CHECK(d ==
        "--- a/src/m.py\n"
        "+++ b/src/m.py\n"
        "@@ -2,7 +2,8 @@\n"
        " \n"
        " # slug\n"
        " def slugify(s):\n"
        "-    pass\n"
        "+    s = s.lower()\n"
        "+    return s\n"
        " \n"
        " \n"
        " def other():\n");
  CHECK(runPatch(before, d) == after);

  // An insert at the very top, and at the end of a file without a newline.
  std::string top = "# doc\ndef f():\n    return 1\n";
  CHECK(runPatch("def f():\n    return 1\n", unifiedDiff("def f():\n    return 1\n", top, "src/m.py")) == top);
  std::string noNl = "x = 1\n\n# fib: `fib`";
  std::string withCode = "x = 1\n\n# fib: `fib`\ndef fib(n):\n    return n\n";
  d = unifiedDiff(noNl, withCode, "src/m.py");
  CHECK_THAT(d, Catch::Contains("\\ No newline at end of file"));
  CHECK(runPatch(noNl, d) == withCode);
  // And a stub at the end of a file without a newline, replaced by code without one.
  CHECK(runPatch("a = 1\ndef f():\n    pass", unifiedDiff("a = 1\ndef f():\n    pass", "a = 1\ndef f():\n    return 2", "src/m.py")) ==
        "a = 1\ndef f():\n    return 2");
  // CRLF lines survive.
  std::string crlf = "a = 1\r\ndef f():\r\n    pass\r\nb = 2\r\n";
  std::string crlfAfter = "a = 1\r\ndef f():\r\n    return 2\r\nb = 2\r\n";
  CHECK(runPatch(crlf, unifiedDiff(crlf, crlfAfter, "src/m.py")) == crlfAfter);
}

TEST_CASE("coverage of the new lines: in the headline, the summary, each candidate and the requireCoverage decision",
          "[refine][json][coverage]") {
  RefineResult r = passedResult();
  greenlight::core::testing::TargetCoverage c;
  c.lines = {4, 5, 6, 7};
  c.run = {4, 5, 7};
  c.notRun = {6};
  r.coverage = c;
  CHECK(resultHeadline(r) == "slugify: 7/7 tests passed in 2 rounds · 3/4 new lines run");
  r.rounds[0].candidates.resize(1);
  r.rounds[0].candidates[0].coverage = c;
  r.coverageRound = true;
  r.coverageReason = "requireCoverage: why";
  auto j = refineResultToJson(r, false);
  const nlohmann::ordered_json want = {{"lines", {4, 5, 6, 7}}, {"run", {4, 5, 7}}, {"not_run", {6}}};
  CHECK(j["summary"]["coverage"] == want);
  CHECK(j["rounds"][0]["candidates"][0]["coverage"] == want);
  CHECK(j["summary"]["coverage_round"] == true);
  CHECK(j["summary"]["coverage_reason"] == "requireCoverage: why");
  // Not measured: no field at all (never "0 % covered").
  RefineResult plain = passedResult();
  auto p = refineResultToJson(plain, false);
  CHECK_FALSE(p["summary"].contains("coverage"));
  CHECK_FALSE(p["summary"].contains("coverage_round"));
  CHECK(resultHeadline(plain) == "slugify: 7/7 tests passed in 2 rounds");
}
