// `greenlight generate` end to end: the real binary, the scripted model as a real HTTP server on
// 127.0.0.1, the real sandbox. The scripted model answers right only when the last prompt
// carries the evidence of the failure, so "passes in exactly 2 rounds" fails as soon as the
// feedback loses that evidence.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <set>
#include <thread>

#include "GenerateFixture.h"

using namespace greenlight::test::refine;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

// word_count: a stub, two tests in a test file. Wrong first (split(' ') gives [''] for "").
const char* kWcPy = "\"\"\"Counting words.\"\"\"\n\n\ndef word_count(s):\n    \"\"\"Return the number of words in s.\"\"\"\n    ...\n";
const char* kWcTest = "from wc import word_count\n\n\ndef test_empty():\n    assert word_count(\"\") == 0\n\n\ndef test_two():\n    assert word_count(\"a  b\") == 2\n";
// The wrong reply drops the stub's docstring (greenlight puts the user's back: the code shown
// and run has it, so the failing `return 1` is on line 8); the right one keeps it.
const char* kWrongPy = "def word_count(s):\n    parts = s.split()\n    if not parts:\n        return 1\n    return len(parts)";
const char* kWrongPyKept =
    "def word_count(s):\n    \"\"\"Return the number of words in s.\"\"\"\n    parts = s.split()\n    if not parts:\n"
    "        return 1\n    return len(parts)";
const char* kRightPy = "def word_count(s):\n    \"\"\"Return the number of words in s.\"\"\"\n    return len(s.split())";

json wrongThenRight(const std::string& lang, const std::string& wrong, const std::string& right, json evidence) {
  return {{"rules", json::array({{{"match", "greenlight"}, {"wrong", fenced(lang, wrong)}, {"right", fenced(lang, right)}, {"evidence", evidence}}})}};
}

json always(const std::string& reply) { return {{"rules", json::array()}, {"default", {{"text", reply}}}}; }

void pythonWorkspace(const Workspace& ws) {
  ws.write("wc.py", kWcPy);
  ws.write("test_wc.py", kWcTest);
}

// The request log must never hold the key, and greenlight's outputs neither.
void checkNoSecret(const ScriptedModel& model, const GenerateRun& run) {
  CHECK(model.logText().find("SECRET") == std::string::npos);
  CHECK(run.out.find("SECRET") == std::string::npos);
  CHECK(run.err.find("SECRET") == std::string::npos);
}

std::string describe(const GenerateRun& r) {
  return "exit " + std::to_string(r.exitCode) + (r.timedOut ? " (killed at the bound)" : "") + "\nstdout:\n" + r.out +
         "\nstderr:\n" + r.err;
}

}  // namespace

TEST_CASE("generate python: wrong first, right on the failure's evidence: exactly 2 rounds, every JSON field", "[refine][e2e]") {
  Workspace ws;
  pythonWorkspace(ws);
  ScriptedModel model(wrongThenRight("python", kWrongPy, kRightPy, {"word_count(\"\") returned 1, expected 0", "return 1"}));
  auto r = generate(ws, &model, {"wc.py:4", "--json"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  const json& j = r.json;
  REQUIRE(j.is_object());
  CHECK(j["status"] == "passed");
  CHECK(j["file"] == ws.path("wc.py"));
  CHECK(j["target"] == json({{"name", "word_count"}, {"line", 4}, {"end_line", 6}, {"kind", "stub"}}));
  CHECK(j["code"] == kRightPy);
  CHECK(j["applied"] == false);
  CHECK(j["edit"] == json({{"file", ws.path("wc.py")}, {"line", 4}, {"column", 1}, {"end_line", 6}, {"end_column", 8}, {"new_text", kRightPy}}));
  REQUIRE(j["rounds"].size() == 2);
  CHECK(candidateStatuses(j) == std::vector<std::vector<std::string>>{{"failed"}, {"passed"}});
  const json& c1 = j["rounds"][0]["candidates"][0];
  CHECK(c1["passed"] == 1);
  CHECK(c1["failed"] == 1);
  CHECK(c1["errors"] == 0);
  // The feedback the model got: the failing test, the assertion with its values, the line that
  // returned the wrong value with the locals there; relative paths.
  const std::string fb = c1["feedback"];
  CHECK_THAT(fb, Catch::Contains("FAILED test_empty (test_wc.py:4)"));
  CHECK_THAT(fb, Catch::Contains("word_count(\"\") returned 1, expected 0"));
  CHECK_THAT(fb, Catch::Contains("word_count returned at wc.py:8 the value 1 with s='', parts=[]"));
  CHECK_THAT(fb, Catch::Contains("8 | return 1"));
  CHECK(fb.find(ws.root()) == std::string::npos);
  CHECK(j["rounds"][1]["candidates"][0]["passed"] == 2);
  for (const auto& round : j["rounds"]) {
    CHECK(round["model_ms"].get<double>() > 0);
    CHECK(round["tests_ms"].get<double>() > 0);
  }
  const json& s = j["summary"];
  CHECK(s["rounds"] == 2);
  CHECK(s["passed"] == 2);
  CHECK(s["failed"] == 0);
  CHECK(s["model_ms"].get<double>() == Approx(j["rounds"][0]["model_ms"].get<double>() + j["rounds"][1]["model_ms"].get<double>()).margin(0.2));
  CHECK(s["tests_ms"].get<double>() == Approx(j["rounds"][0]["tests_ms"].get<double>() + j["rounds"][1]["tests_ms"].get<double>()).margin(0.2));
  CHECK(s["model_ms"].get<double>() + s["tests_ms"].get<double>() <= r.wallMs);
  CHECK(s["prompt_tokens"].get<int>() > 0);
  CHECK(s["completion_tokens"].get<int>() > 0);
  CHECK(j["error"].is_null());
  // Exactly two requests; the second carries the round-1 code and its failure.
  auto requests = model.requests();
  REQUIRE(requests.size() == 2);
  CHECK_THAT(model.lastUser(1), Catch::Contains("returned 1, expected 0"));
  const auto& messages = requests[1]["body"]["messages"];
  REQUIRE(messages.size() >= 3);
  CHECK(messages[messages.size() - 2]["role"] == "assistant");
  CHECK_THAT(messages[messages.size() - 2]["content"].get<std::string>(), Catch::Contains("return 1"));
  // Not --apply: the file is untouched, and nothing else appeared in the workspace.
  CHECK(ws.read("wc.py") == kWcPy);
  CHECK(ws.files() == std::vector<std::string>{".greenlight.json", "test_wc.py", "wc.py"});
  checkNoSecret(model, r);
}

TEST_CASE("generate python: human output is one progress line per round and the code", "[refine][e2e]") {
  Workspace ws;
  pythonWorkspace(ws);
  ScriptedModel model(wrongThenRight("python", kWrongPy, kRightPy, "returned 1, expected 0"));
  auto r = generate(ws, &model, {"wc.py:5"});  // a line of the stub's body also means the stub
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.out == std::string(kRightPy) + "\n");
  CHECK_THAT(r.err, Catch::Contains("round 1/3: 1/2 passed\n"));
  CHECK_THAT(r.err, Catch::Contains("round 2/3: 2/2 passed · 2/2 new lines run\n"));
  CHECK_THAT(r.err, Catch::Contains("word_count: 2/2 tests passed in 2 rounds · 2/2 new lines run; not written (--apply writes it)"));
  CHECK(ws.read("wc.py") == kWcPy);
  checkNoSecret(model, r);
}

TEST_CASE("generate: without the evidence in the feedback the model never gets it right", "[refine][e2e]") {
  // The control for the 2-rounds tests: evidence the feedback does not carry is never matched.
  Workspace ws;
  pythonWorkspace(ws);
  ScriptedModel model(wrongThenRight("python", kWrongPy, kRightPy, "evidence greenlight never prints"));
  auto r = generate(ws, &model, {"wc.py:4", "--json", "--rounds", "2"});
  INFO(describe(r));
  CHECK(r.exitCode == 1);
  CHECK(r.json["status"] == "failed");
  CHECK(r.json["rounds"].size() == 2);
}

TEST_CASE("generate python: never right stops at maxRounds and writes nothing, even with --apply", "[refine][e2e]") {
  Workspace ws;
  pythonWorkspace(ws);
  ScriptedModel model(always(fenced("python", kWrongPy)));
  SECTION("default maxRounds (3), JSON") {
    auto r = generate(ws, &model, {"wc.py:4", "--json", "--apply"});
    INFO(describe(r));
    CHECK(r.exitCode == 1);
    CHECK(r.json["status"] == "failed");
    CHECK(r.json["applied"] == false);
    CHECK(r.json["edit"].is_null());
    CHECK(r.json["code"] == kWrongPyKept);  // the best attempt is shown, with the user's docstring
    CHECK(r.json["error"] == "best candidate passed 1/2");
    // The same code again is not run again.
    CHECK(candidateStatuses(r.json) == std::vector<std::vector<std::string>>{{"failed"}, {"duplicate"}, {"duplicate"}});
    CHECK(r.json["summary"]["rounds"] == 3);
    CHECK(r.json["summary"]["passed"] == 1);
    CHECK(r.json["summary"]["failed"] == 1);
    CHECK(model.requests().size() == 3);
  }
  SECTION("--rounds 2, human") {
    auto r = generate(ws, &model, {"wc.py:4", "--rounds", "2", "--apply"});
    INFO(describe(r));
    CHECK(r.exitCode == 1);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Contains("no candidate passed in 2 rounds: best candidate passed 1/2; see --json for the failures; nothing written"));
    CHECK(model.requests().size() == 2);
  }
  CHECK(ws.read("wc.py") == kWcPy);
  CHECK(ws.files() == std::vector<std::string>{".greenlight.json", "test_wc.py", "wc.py"});
}

TEST_CASE("generate: no tests and no examples is unverified: exit 3, written only with --allow-unverified --apply", "[refine][e2e]") {
  Workspace ws;
  const std::string text = "# Return the larger of a and b: `larger`\n\nx = 1\n";
  ws.write("lonely.py", text);
  const std::string code = "def larger(a, b):\n    return a if a > b else b";
  ScriptedModel model(always(fenced("python", code)));
  auto r = generate(ws, &model, {"lonely.py:1", "--json", "--apply"});
  INFO(describe(r));
  CHECK(r.exitCode == 3);
  CHECK(r.json["status"] == "unverified");
  CHECK(r.json["code"] == code);
  CHECK(r.json["applied"] == false);
  CHECK(r.json["rounds"].size() == 1);  // nothing to refine against
  CHECK(ws.read("lonely.py") == text);

  r = generate(ws, &model, {"lonely.py:1"});
  CHECK(r.exitCode == 3);
  CHECK(r.out == code + "\n");
  CHECK_THAT(r.err, Catch::Contains("unverified; nothing written (--apply --allow-unverified writes it)"));
  CHECK(ws.read("lonely.py") == text);

  r = generate(ws, &model, {"lonely.py:1", "--apply", "--allow-unverified", "--json"});
  INFO(describe(r));
  CHECK(r.exitCode == 3);
  CHECK(r.json["applied"] == true);
  CHECK(ws.read("lonely.py") == "# Return the larger of a and b: `larger`\n" + code + "\n\nx = 1\n");
}

TEST_CASE("generate: examples in the comment run as tests (Python >>>, C++ ==), never written to disk", "[refine][e2e]") {
  SECTION("python") {
    Workspace ws;
    const std::string text = "# Return n doubled: `double`\n# >>> double(2)\n# 4\n# >>> double(0)\n# 0\n\nx = 1\n";
    ws.write("dbl.py", text);
    ScriptedModel model(wrongThenRight("python", "def double(n):\n    return n + 2", "def double(n):\n    return 2 * n", "double(0) returned 2, expected 0"));
    auto r = generate(ws, &model, {"dbl.py:2", "--json", "--apply"});
    INFO(describe(r));
    REQUIRE(r.exitCode == 0);
    CHECK(r.json["rounds"].size() == 2);
    CHECK(r.json["summary"]["passed"] == 2);
    CHECK_THAT(model.lastUser(0), Catch::Contains("the examples in the comment are the tests"));
    CHECK(ws.read("dbl.py") == "# Return n doubled: `double`\n# >>> double(2)\n# 4\n# >>> double(0)\n# 0\ndef double(n):\n    return 2 * n\n\nx = 1\n");
    CHECK(ws.files() == std::vector<std::string>{".greenlight.json", "dbl.py"});
  }
  SECTION("c++") {
    Workspace ws;
    const std::string text = "// Twice x: `twice`\n// twice(2) == 4\n// twice(-3) == -6\n\nint unused = 0;\n";
    ws.write("twice.hpp", text);
    ScriptedModel model(wrongThenRight("cpp", "inline int twice(int x) { return x + 2; }", "inline int twice(int x) { return 2 * x; }",
                                       "twice(-3) == -6' failed"));
    auto r = generate(ws, &model, {"twice.hpp:1", "--json"});
    INFO(describe(r));
    REQUIRE(r.exitCode == 0);
    CHECK(r.json["rounds"].size() == 2);
    CHECK(ws.read("twice.hpp") == text);
    CHECK(ws.files() == std::vector<std::string>{".greenlight.json", "twice.hpp"});
  }
}

TEST_CASE("generate --apply writes atomically, keeps the mode, leaves nothing else", "[refine][e2e]") {
  Workspace ws;
  pythonWorkspace(ws);
  ::chmod(ws.path("wc.py").c_str(), 0640);
  struct stat before {};
  ::stat(ws.path("wc.py").c_str(), &before);
  ScriptedModel model(always(fenced("python", kRightPy)));
  auto r = generate(ws, &model, {"wc.py:4", "--apply"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK_THAT(r.err, Catch::Contains("written to wc.py"));
  CHECK(ws.read("wc.py") == std::string("\"\"\"Counting words.\"\"\"\n\n\n") + kRightPy + "\n");
  struct stat after {};
  ::stat(ws.path("wc.py").c_str(), &after);
  CHECK((after.st_mode & 07777) == 0640);
  CHECK(after.st_ino != before.st_ino);  // a new file renamed over the old one
  CHECK(ws.files() == std::vector<std::string>{".greenlight.json", "test_wc.py", "wc.py"});
}

TEST_CASE("generate --apply through a symlink replaces the file it points to, the link stays", "[refine][e2e]") {
  Workspace ws;
  ws.write("real/wc.py", kWcPy);
  ws.write("test_wc.py", kWcTest);
  REQUIRE(::symlink("real/wc.py", ws.path("wc.py").c_str()) == 0);
  ScriptedModel model(always(fenced("python", kRightPy)));
  auto r = generate(ws, &model, {"wc.py:4", "--apply"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  struct stat st {};
  REQUIRE(::lstat(ws.path("wc.py").c_str(), &st) == 0);
  CHECK(S_ISLNK(st.st_mode));
  CHECK(ws.read("real/wc.py") == std::string("\"\"\"Counting words.\"\"\"\n\n\n") + kRightPy + "\n");
  CHECK(ws.files() == std::vector<std::string>{".greenlight.json", "real/wc.py", "test_wc.py", "wc.py"});
}

TEST_CASE("generate --apply refuses when the file changed on disk meanwhile", "[refine][e2e]") {
  Workspace ws;
  pythonWorkspace(ws);
  // The reply stays open until the edit is on disk: the edit lands while the model is writing.
  ScriptedModel model(json{{"rules", json::array()}, {"default", {{"text", fenced("python", kRightPy)}, {"hold_until", "edited"}}}});
  const std::string edited = std::string(kWcPy) + "\n# the user typed this meanwhile\n";
  GenerateOptions o;
  o.watch = [&](const GenerateRun&) {
    if (model.requests().empty()) return 0;
    std::ofstream(ws.path("wc.py"), std::ios::binary) << edited;
    model.release("edited");
    return -1;  // the edit is made: stop watching
  };
  auto r = generate(ws, &model, {"wc.py:4", "--apply", "--json"}, o);
  INFO(describe(r));
  CHECK(r.exitCode == 1);
  CHECK_THAT(r.err, Catch::Contains("changed on disk while the code was being generated; nothing was written"));
  CHECK(r.json["applied"] == false);
  CHECK(ws.read("wc.py") == edited);
  CHECK(ws.files() == std::vector<std::string>{".greenlight.json", "test_wc.py", "wc.py"});
}

TEST_CASE("generate --diff prints a unified diff that patch applies, the file is untouched", "[refine][e2e]") {
  Workspace ws;
  pythonWorkspace(ws);
  ScriptedModel model(always(fenced("python", kRightPy)));
  auto r = generate(ws, &model, {"wc.py:4", "--diff"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.out.rfind("--- a/wc.py\n+++ b/wc.py\n@@ ", 0) == 0);
  CHECK(ws.read("wc.py") == kWcPy);
  ws.write("change.patch", r.out);
  int rc = std::system(("cd '" + ws.root() + "' && patch -s -p1 < change.patch").c_str());
  CHECK(rc == 0);
  CHECK(ws.read("wc.py") == std::string("\"\"\"Counting words.\"\"\"\n\n\n") + kRightPy + "\n");
  r = generate(ws, &model, {"wc.py:4", "--diff", "--apply"});
  CHECK(r.exitCode == 2);
  CHECK_THAT(r.err, Catch::Contains("--apply and --diff exclude each other"));
}

TEST_CASE("generate without a provider exits 2 with the lines to set one up", "[refine][e2e]") {
  Workspace ws;
  pythonWorkspace(ws);
  GenerateOptions o;
  o.noProvider = true;
  o.env = {"OLLAMA_HOST=127.0.0.1:9"};  // discard port: nothing answers there
  auto r = generate(ws, nullptr, {"wc.py:4"}, o);
  INFO(describe(r));
  CHECK(r.exitCode == 2);
  CHECK_THAT(r.err, Catch::Contains("no LLM provider is configured"));
  CHECK_THAT(r.err, Catch::Contains("export OPENAI_API_KEY="));
  CHECK_THAT(r.err, Catch::Contains("GREENLIGHT_BASE_URL="));
  CHECK_THAT(r.err, Catch::Contains(ws.root() + "/.greenlight.json"));
  CHECK(r.out.empty());
  CHECK(ws.read("wc.py") == kWcPy);
}

TEST_CASE("generate with a bad LINE exits 2 with a sentence, without asking the model", "[refine][e2e]") {
  Workspace ws;
  pythonWorkspace(ws);
  ws.write("done.py", "# Documented function.\ndef f(x):\n    return x\n\n\n\ny = 2\n");
  ScriptedModel model(always(fenced("python", kRightPy)));
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const Case cases[] = {
      {{"done.py:5"}, "done.py:5: line 5 is blank; generate needs a comment block that says what to write, or a stub"},
      {{"done.py:7"}, "line 7 holds code, not a comment or a stub"},
      {{"done.py:2"}, "line 2 is the header of f(), which already has a body"},
      {{"done.py:1"}, "documents the code below it (line 2)"},
      {{"done.py:99"}, "line 99 is outside the file (it has 7 lines)"},
      {{"done.py:0"}, "line must be a positive number in 'done.py:0'"},
      {{"done.py:abc"}, "expected PATH:LINE (the line of the comment or stub), got 'done.py:abc'"},
      {{"done.py"}, "expected PATH:LINE"},
      {{"nope.py:1"}, "nope.py: no such file"},
      {{".greenlight.json:1"}, "generate supports Python (.py), JavaScript (.js, .mjs, .cjs) and C++ files"},
      {{"wc.py:4", "--rounds", "0"}, "--rounds needs a number from 1 to 10"},
      {{"wc.py:4", "--candidates", "x"}, "--candidates needs a number from 1 to 8"},
      {{"wc.py:4", "--timeout", "-1"}, "--timeout needs a positive number of seconds"},
      {{"wc.py:4", "--bogus"}, "unknown option --bogus"},
      {{}, "missing PATH:LINE"},
  };
  for (const auto& c : cases) {
    auto r = generate(ws, &model, c.args);
    INFO(describe(r));
    CHECK(r.exitCode == 2);
    CHECK_THAT(r.err, Catch::Contains(c.says));
    CHECK(r.out.empty());
  }
  CHECK(model.requests().empty());
  CHECK(ws.read("wc.py") == kWcPy);
}

TEST_CASE("generate --candidates N: round 1 asks N, the best carries on, identical ones run once", "[refine][e2e]") {
  Workspace ws;
  pythonWorkspace(ws);
  // The N requests run concurrently, so which request gets which choice is not fixed: the
  // checks below do not depend on the order.
  const std::string none = "def word_count(s):\n    return -1";                 // 0/2
  const std::string half = "def word_count(s):\n    return len(s.split()) or 1";  // 1/2: "" gives 1
  const std::string crash = "def word_count(s):\n    raise ValueError('no')";     // 0/2, 2 errors
  SECTION("none passes: the best (most passed) is the result and the next round's history") {
    ScriptedModel model(json{{"rules", json::array({{{"match", "greenlight"}, {"choices", {fenced("python", none), fenced("python", half), fenced("python", crash)}}}})}});
    auto r = generate(ws, &model, {"wc.py:4", "--json", "--candidates", "3", "--rounds", "2", "--apply"});
    INFO(describe(r));
    CHECK(r.exitCode == 1);
    REQUIRE(r.json["rounds"].size() == 2);
    const auto& c = r.json["rounds"][0]["candidates"];
    REQUIRE(c.size() == 3);
    std::multiset<std::pair<int, int>> scores;  // (passed, errors)
    for (const auto& x : c) scores.insert({x["passed"].get<int>(), x["errors"].get<int>()});
    CHECK(scores == std::multiset<std::pair<int, int>>{{0, 0}, {0, 2}, {1, 0}});
    CHECK(r.json["rounds"][1]["candidates"].size() == 1);  // later rounds ask for one
    CHECK(r.json["code"] == "def word_count(s):\n    \"\"\"Return the number of words in s.\"\"\"\n    return len(s.split()) or 1");
    CHECK(r.json["error"] == "best candidate passed 1/2");
    auto requests = model.requests();
    REQUIRE(requests.size() == 4);  // 3 in round 1 (separate requests: not api.openai.com), 1 in round 2
    for (std::size_t i = 0; i < 3; ++i) CHECK(requests[i]["body"].value("n", 1) == 1);
    const auto& messages = requests[3]["body"]["messages"];
    CHECK_THAT(messages[messages.size() - 2]["content"].get<std::string>(), Catch::Contains("len(s.split()) or 1"));
    CHECK(ws.read("wc.py") == kWcPy);
  }
  SECTION("one of them passes: done in round 1") {
    ScriptedModel model(json{{"rules", json::array({{{"match", "greenlight"}, {"choices", {fenced("python", none), fenced("python", half), fenced("python", kRightPy)}}}})}});
    auto r = generate(ws, &model, {"wc.py:4", "--json", "--candidates", "3"});
    INFO(describe(r));
    REQUIRE(r.exitCode == 0);
    REQUIRE(r.json["rounds"].size() == 1);
    CHECK(r.json["rounds"][0]["candidates"].back()["status"] == "passed");
    CHECK(r.json["code"] == kRightPy);
    CHECK(model.requests().size() == 3);
  }
  SECTION("the tokens of every completion are counted, also those after the one that passed") {
    // Three identical right answers: the first passes and the other two are never looked at,
    // but all three were paid for (the scripted model reports 10 prompt tokens a request).
    ScriptedModel model(json{{"rules", json::array({{{"match", "greenlight"}, {"text", fenced("python", kRightPy)}}})}});
    auto r = generate(ws, &model, {"wc.py:4", "--json", "--candidates", "3"});
    INFO(describe(r));
    REQUIRE(r.exitCode == 0);
    CHECK(r.json["rounds"][0]["candidates"].size() == 1);
    CHECK(model.requests().size() == 3);
    CHECK(r.json["summary"]["prompt_tokens"] == 30);
  }
  SECTION("two identical candidates: the second is not run") {
    ScriptedModel model(json{{"rules", json::array({{{"match", "greenlight"}, {"choices", {fenced("python", none), fenced("python", none)}}}})}});
    auto r = generate(ws, &model, {"wc.py:4", "--json", "--candidates", "2", "--rounds", "1"});
    INFO(describe(r));
    CHECK(r.exitCode == 1);
    CHECK(candidateStatuses(r.json) == std::vector<std::vector<std::string>>{{"failed", "duplicate"}});
  }
}

TEST_CASE("generate: model_ms and tests_ms are measured apart (a slow model, a slow test)", "[refine][e2e]") {
  SECTION("slow model") {
    Workspace ws;
    pythonWorkspace(ws);
    // ~45 pieces of 8 characters at 60 ms each: at least 2.5 s of model time.
    const std::string reply = fenced("python", kRightPy);
    ScriptedModel model(json{{"rules", json::array()}, {"default", {{"text", reply}, {"delay_ms", 60}}}});
    auto r = generate(ws, &model, {"wc.py:4", "--json"});
    INFO(describe(r));
    REQUIRE(r.exitCode == 0);
    const double pieces = static_cast<double>((reply.size() + 7) / 8);
    CHECK(r.json["summary"]["model_ms"].get<double>() >= (pieces - 1) * 60);
    CHECK(r.json["summary"]["model_ms"].get<double>() + r.json["summary"]["tests_ms"].get<double>() <= r.wallMs);
  }
  SECTION("slow test") {
    Workspace ws;
    ws.write("wc.py", kWcPy);
    ws.write("test_wc.py", std::string(kWcTest) + "\n\ndef test_slow():\n    import time\n    time.sleep(1.5)\n    assert word_count('x') == 1\n");
    ScriptedModel model(always(fenced("python", kRightPy)));
    auto r = generate(ws, &model, {"wc.py:4", "--json"});
    INFO(describe(r));
    REQUIRE(r.exitCode == 0);
    CHECK(r.json["summary"]["tests_ms"].get<double>() >= 1500);
    CHECK(r.json["summary"]["model_ms"].get<double>() + r.json["summary"]["tests_ms"].get<double>() <= r.wallMs);
  }
}

TEST_CASE("generate: a stalled model is stopped by refine.timeoutSeconds, or by the provider's timeout", "[refine][e2e]") {
  Workspace ws;
  pythonWorkspace(ws);
  ScriptedModel model(json{{"rules", json::array()}, {"default", {{"text", fenced("python", kRightPy)}, {"stall", true}}}});
  SECTION("--timeout") {
    auto r = generate(ws, &model, {"wc.py:4", "--json", "--timeout", "2", "--apply"});
    INFO(describe(r));
    CHECK(r.exitCode == 1);
    CHECK(r.json["status"] == "failed");
    CHECK(r.json["error"] == "stopped after refine.timeoutSeconds (2 s)");
  }
  SECTION("the provider's timeoutSeconds") {
    ws.write(".greenlight.json", "{\"timeoutSeconds\": 2, \"maxRetries\": 0}\n");
    auto r = generate(ws, &model, {"wc.py:4", "--json", "--apply"});
    INFO(describe(r));
    CHECK(r.exitCode == 1);
    CHECK(r.json["status"] == "error");
    CHECK(candidateStatuses(r.json) == std::vector<std::vector<std::string>>{{"provider_error"}});
    CHECK(r.json["error"] == "openai-compatible (" + model.baseUrl() +
                                 "/chat/completions): no complete reply within timeoutSeconds=2 (1 attempt). "
                                 "Raise greenlight.timeoutSeconds or lower maxTokens.");
  }
  CHECK(ws.read("wc.py") == kWcPy);
  CHECK(ws.files() == std::vector<std::string>{".greenlight.json", "test_wc.py", "wc.py"});
}

TEST_CASE("generate: Ctrl-C during the model call exits 130 at once and writes nothing", "[refine][e2e]") {
  Workspace ws;
  pythonWorkspace(ws);
  ScriptedModel model(json{{"rules", json::array()}, {"default", {{"text", fenced("python", kRightPy)}, {"stall", true}}}});
  GenerateOptions o;
  o.bound = 60s;  // the stall lasts forever: only the interrupt ends the run within the bound
  o.watch = [&](const GenerateRun&) { return model.requests().empty() ? 0 : SIGINT; };
  auto r = generate(ws, &model, {"wc.py:4", "--apply"}, o);
  INFO(describe(r));
  CHECK_FALSE(r.timedOut);
  CHECK(r.exitCode == 130);
  CHECK_THAT(r.err, Catch::Contains("interrupted; nothing written"));
  CHECK(r.out.empty());
  CHECK(ws.read("wc.py") == kWcPy);
}

TEST_CASE("generate: Ctrl-C while a candidate runs stops the sandbox too", "[refine][e2e]") {
  Workspace ws;
  pythonWorkspace(ws);
  ws.write(".greenlight.json", "{\"sandbox\": {\"timeLimitSeconds\": 120}}\n");
  ScriptedModel model(always(fenced("python", "def word_count(s):\n    while True:\n        pass")));
  GenerateOptions o;
  o.bound = 60s;
  o.trackChildren = true;
  o.watch = [&](const GenerateRun& run) { return !model.requests().empty() && !run.children.empty() ? SIGINT : 0; };
  auto r = generate(ws, &model, {"wc.py:4", "--apply", "--json"}, o);
  INFO(describe(r));
  CHECK_FALSE(r.timedOut);
  CHECK(r.exitCode == 130);
  CHECK(r.json["status"] == "cancelled");
  CHECK(r.json["applied"] == false);
  CHECK(ws.read("wc.py") == kWcPy);
  // The sandbox greenlight started is gone with it.
  REQUIRE_FALSE(r.children.empty());
  const auto deadline = std::chrono::steady_clock::now() + scaled(10s);
  bool anyAlive = true;
  while (anyAlive && std::chrono::steady_clock::now() < deadline) {
    anyAlive = false;
    for (pid_t c : r.children) anyAlive = anyAlive || processAlive(c);
    if (anyAlive) std::this_thread::sleep_for(20ms);
  }
  CHECK_FALSE(anyAlive);
}

TEST_CASE("generate javascript: wrong first, right on node:assert's evidence, exactly 2 rounds, --apply", "[refine][e2e]") {
  Workspace ws;
  const std::string text = "'use strict';\n\n// Count the words of s: `wordCount`\n\nmodule.exports = { wordCount };\n";
  ws.write("wc.js", text);
  ws.write("wc.test.js",
           "const test = require('node:test');\nconst assert = require('node:assert');\nconst { wordCount } = require('./wc.js');\n\n"
           "test('empty', () => {\n  assert.strictEqual(wordCount(''), 0);\n});\n\ntest('two', () => {\n  assert.strictEqual(wordCount('a  b'), 2);\n});\n");
  const std::string wrong = "function wordCount(s) {\n  return s.split(' ').length;\n}";
  const std::string right = "function wordCount(s) {\n  return s.split(/\\s+/).filter(Boolean).length;\n}";
  // node:assert's strictEqual failure already reaches the feedback with both values (the test
  // file in the first prompt holds the assertion's text, so that is no evidence of a run).
  ScriptedModel model(wrongThenRight("javascript", wrong, right, "wordCount('') returned 1, expected 0"));
  auto r = generate(ws, &model, {"wc.js:3", "--json", "--apply"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.json["rounds"].size() == 2);
  CHECK(candidateStatuses(r.json) == std::vector<std::vector<std::string>>{{"failed"}, {"passed"}});
  CHECK(r.json["target"]["kind"] == "insert");
  CHECK(r.json["target"]["name"] == "wordCount");
  CHECK(r.json["applied"] == true);
  CHECK(ws.read("wc.js") == "'use strict';\n\n// Count the words of s: `wordCount`\n" + right + "\n\nmodule.exports = { wordCount };\n");
  checkNoSecret(model, r);
}

TEST_CASE("generate c++: wrong first, right on the assertion's evidence, exactly 2 rounds", "[refine][e2e]") {
  Workspace ws;
  const std::string text = "// Twice x.\nint twice(int x) {}\n";
  ws.write("twice.cpp", text);
  ws.write("twice_test.cpp", "#include <cassert>\n\nint twice(int x);\n\nint main() {\n  assert(twice(0) == 0);\n  assert(twice(2) == 4);\n  return 0;\n}\n");
  // C++ feedback today: the failing assert's text and glibc's "Assertion `...' failed." (no
  // operand values yet: issue 13).
  ScriptedModel model(wrongThenRight("cpp", "int twice(int x) {\n  return x + 2;\n}", "int twice(int x) {\n  return 2 * x;\n}",
                                     "Assertion `twice(0) == 0' failed"));
  auto r = generate(ws, &model, {"twice.cpp:1", "--json", "--apply"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.json["rounds"].size() == 2);
  CHECK(r.json["target"] == json({{"name", "twice"}, {"line", 1}, {"end_line", 2}, {"kind", "stub"}}));
  CHECK(ws.read("twice.cpp") == "// Twice x.\nint twice(int x) {\n  return 2 * x;\n}\n");
  checkNoSecret(model, r);
}

TEST_CASE("generate c++: a candidate that does not compile is fed back as file:line errors", "[refine][e2e]") {
  Workspace ws;
  ws.write("twice.cpp", "// Twice x.\nint twice(int x) {}\n");
  ws.write("twice_test.cpp", "#include <cassert>\n\nint twice(int x);\n\nint main() {\n  assert(twice(2) == 4);\n  return 0;\n}\n");
  ScriptedModel model(wrongThenRight("cpp", "int twice(int x) {\n  return y * 2;\n}", "int twice(int x) {\n  return 2 * x;\n}",
                                     "was not declared in this scope"));
  auto r = generate(ws, &model, {"twice.cpp:2", "--json"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.json["rounds"].size() == 2);
  // The compiler's error, at the file and line of the user's file (not the staging copy's, nor
  // the compiler's column), with the line quoted.
  const std::string feedback = r.json["rounds"][0]["candidates"][0]["feedback"].get<std::string>();
  CHECK_THAT(feedback, Catch::Contains("The code does not compile:\n  twice.cpp:3: error: "));
  CHECK_THAT(feedback, Catch::Contains("was not declared in this scope\n      3 | return y * 2;\n"));
}

TEST_CASE("generate on the examples: python/triangle.py from its comment, exactly 2 rounds", "[refine][e2e]") {
  Workspace ws;
  for (const char* f : {"triangle.py", "test_triangle.py"}) {
    std::ifstream in(std::string(GL_EXAMPLES_DIR) + "/python/" + f, std::ios::binary);
    REQUIRE(in.good());
    std::stringstream s;
    s << in.rdbuf();
    ws.write(std::string("python/") + f, s.str());
  }
  const std::string before = ws.read("python/triangle.py");
  ScriptedModel model(wrongThenRight("python", "def triangular(n):\n    return n * (n + 1) // 2",
                                     "def triangular(n):\n    if n <= 0:\n        return 0\n    return n * (n + 1) // 2",
                                     "triangular(-3) returned 3, expected 0"));
  auto r = generate(ws, &model, {"python/triangle.py:5", "--json", "--apply"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.json["rounds"].size() == 2);
  CHECK(r.json["target"]["name"] == "triangular");
  CHECK(ws.read("python/triangle.py") != before);
  CHECK_THAT(ws.read("python/triangle.py"), Catch::Contains("# Return the n-th triangular number, 1 + 2 + ... + n; 0 for n <= 0.\ndef triangular(n):\n"));
}

TEST_CASE("generate: the same failure reads the same in two runs (staging paths, addresses, timings gone)", "[refine][e2e]") {
  Workspace ws;
  pythonWorkspace(ws);
  ScriptedModel model(always(fenced("python",
                                    "import time\n\n\ndef word_count(s):\n"
                                    "    print(object(), __file__, 'took %.4f ms' % ((lambda t: (time.perf_counter() - t) * 1000)(time.perf_counter())))\n"
                                    "    raise ValueError('no words in %r at %s' % (s, hex(id(s) | 0x7f0000000000)))")));
  auto first = generate(ws, &model, {"wc.py:4", "--json", "--rounds", "1"});
  auto second = generate(ws, &model, {"wc.py:4", "--json", "--rounds", "1"});
  INFO(describe(first));
  REQUIRE(first.json.is_object());
  REQUIRE(second.json.is_object());
  const std::string a = first.json["rounds"][0]["candidates"][0]["feedback"];
  const std::string b = second.json["rounds"][0]["candidates"][0]["feedback"];
  CHECK(a == b);
  CHECK_THAT(a, Catch::Contains("ValueError: no words in '' at 0x…"));
  CHECK_THAT(a, Catch::Contains("<object> wc.py took …s"));
  CHECK(a.find("greenlight-run") == std::string::npos);
  CHECK(a.find(ws.root()) == std::string::npos);
}
