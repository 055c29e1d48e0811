// Tests first (issue 36) end to end through `greenlight generate`: the real binary, the scripted
// model on 127.0.0.1 and the real sandbox. The model answers the test-writing request with
// tests, and the implementation request wrong first, right only when the prompt carries the
// failure; so "passes in exactly 2 rounds" also proves the accepted tests are what ran.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "GenerateFixture.h"

using namespace greenlight::test::refine;
using nlohmann::json;

namespace {

const char* kDurPy =
    "# parse_duration(text): \"1h30m\" -> 5400 seconds; \"90s\" -> 90; raises ValueError on junk\n"
    "def parse_duration(text):\n"
    "    raise NotImplementedError\n";

// What the model proposes: three real tests and one that passes on any stub.
const char* kProposed =
    "from dur import parse_duration\n\n\n"
    "def test_hours_minutes():\n    assert parse_duration(\"1h30m\") == 5400\n\n\n"
    "def test_seconds():\n    assert parse_duration(\"90s\") == 90\n\n\n"
    "def test_junk():\n    try:\n        parse_duration(\"junk\")\n    except ValueError:\n        return\n"
    "    assert False, \"no ValueError\"\n\n\n"
    "def test_trivial():\n    assert True\n";

// The user's edit: durations in MINUTES, and test_trivial gone.
const char* kEdited =
    "from dur import parse_duration\n\n\n"
    "def test_hours_minutes():\n    assert parse_duration(\"1h30m\") == 90\n\n\n"
    "def test_minutes():\n    assert parse_duration(\"45m\") == 45\n";

const char* kSecondsImpl =
    "def parse_duration(text):\n"
    "    import re\n"
    "    m = re.fullmatch(r'(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?', text)\n"
    "    if not text or not m:\n"
    "        raise ValueError(text)\n"
    "    h, mi, s = (int(g or 0) for g in m.groups())\n"
    "    return h * 3600 + mi * 60 + s";

const char* kMinutesImpl =
    "def parse_duration(text):\n"
    "    import re\n"
    "    m = re.fullmatch(r'(?:(\\d+)h)?(?:(\\d+)m)?', text)\n"
    "    if not text or not m:\n"
    "        raise ValueError(text)\n"
    "    h, mi = (int(g or 0) for g in m.groups())\n"
    "    return h * 60 + mi";

// Tests for the test-writing request; for the implementation: wrong (0) first, then the version
// whose evidence the failure carries: seconds for the proposed tests, minutes for the edited ones.
json script(const std::string& tests = kProposed) {
  return {{"rules",
           json::array({{{"match", "Write the tests for parse_duration()"}, {"text", fenced("python", tests)}},
                        {{"match", "1h30m\") returned 0, expected 90\n"}, {"text", fenced("python", kMinutesImpl)}},
                        {{"match", "parse_duration()"},
                         {"wrong", fenced("python", "def parse_duration(text):\n    return 0")},
                         {"right", fenced("python", kSecondsImpl)},
                         {"evidence", "returned 0, expected 5400"}}})}};
}

std::string describe(const GenerateRun& r) {
  return "exit " + std::to_string(r.exitCode) + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err;
}

}  // namespace

TEST_CASE("tests first, plain python: proposed from the comment alone, a stub-passing test flagged, nothing written",
          "[refine][e2e][testsfirst]") {
  Workspace ws;
  ws.write("dur.py", kDurPy);
  ScriptedModel model(script());
  auto r = generate(ws, &model, {"dur.py:1", "--tests-first", "--json"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 3);
  const json& j = r.json;
  REQUIRE(j.is_object());
  CHECK(j["status"] == "tests_proposed");
  CHECK(j["applied"] == false);
  CHECK(j["edit"].is_null());
  const json& t = j["tests"];
  CHECK(t["file"] == ws.path("test_dur.py"));
  CHECK(t["uri"] == "file://" + ws.path("test_dur.py"));
  CHECK(t["exists"] == false);
  CHECK_FALSE(t.contains("original"));
  CHECK(t["text"] == kProposed);
  CHECK(t["count"] == 4);
  CHECK(t["names"] == json::array({"test_hours_minutes", "test_seconds", "test_junk", "test_trivial"}));
  REQUIRE(t["flagged"].size() == 1);
  CHECK(t["flagged"][0]["name"] == "test_trivial");
  CHECK(t["flagged"][0]["line"] == 20);
  CHECK(t["flagged"][0]["message"] == "passes on the stub: it asserts nothing about parse_duration");
  CHECK(t["error"].is_null());
  // One request, the test-writing one: the comment, the stub, where and how; no implementation.
  auto requests = model.requests();
  REQUIRE(requests.size() == 1);
  const std::string prompt = requests[0]["body"].dump();
  CHECK_THAT(prompt, Catch::Contains("1h30m"));
  CHECK_THAT(prompt, Catch::Contains("raise NotImplementedError"));
  CHECK_THAT(prompt, Catch::Contains("test_dur.py"));
  CHECK_THAT(prompt, Catch::Contains("from dur import parse_duration"));
  CHECK(prompt.find("re.fullmatch") == std::string::npos);
  CHECK(prompt.find("return 0") == std::string::npos);
  // Nothing written: the workspace is as it was.
  CHECK(ws.files() == std::vector<std::string>{".greenlight.json", "dur.py"});
  CHECK(ws.read("dur.py") == kDurPy);
}

TEST_CASE("tests first: without --json or a terminal the proposal is printed and nothing is written",
          "[refine][e2e][testsfirst]") {
  Workspace ws;
  ws.write("dur.py", kDurPy);
  ScriptedModel model(script());
  auto r = generate(ws, &model, {"dur.py:2", "--tests-first", "--apply"});
  INFO(describe(r));
  CHECK(r.exitCode == 3);
  CHECK(r.out == kProposed);
  CHECK_THAT(r.err, Catch::Contains("test_dur.py:20: warning: test_trivial: passes on the stub"));
  CHECK_THAT(r.err, Catch::Contains("nothing written"));
  CHECK(ws.files() == std::vector<std::string>{".greenlight.json", "dur.py"});
}

TEST_CASE("tests first: --yes --apply accepts, runs the loop against the tests, writes both files",
          "[refine][e2e][testsfirst]") {
  Workspace ws;
  ws.write("dur.py", kDurPy);
  ScriptedModel model(script());
  auto r = generate(ws, &model, {"dur.py:1", "--tests-first", "--yes", "--apply", "--json"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  const json& j = r.json;
  CHECK(j["status"] == "passed");
  CHECK(j["applied"] == true);
  CHECK(j["tests"] == json({{"uri", "file://" + ws.path("test_dur.py")}, {"file", ws.path("test_dur.py")}, {"count", 4}, {"new", true}}));
  CHECK(j["summary"]["rounds"] == 2);
  CHECK(j["summary"]["passed"] == 4);
  CHECK_THAT(r.err, Catch::Contains("test_trivial: passes on the stub"));
  CHECK(ws.read("test_dur.py") == kProposed);
  CHECK_THAT(ws.read("dur.py"), Catch::Contains("return h * 3600 + mi * 60 + s"));
  // Three requests: the tests, then the code twice; the code's requests are separate ones.
  auto requests = model.requests();
  REQUIRE(requests.size() == 3);
  CHECK(requests[0]["body"].dump().find("tester") != std::string::npos);
  CHECK(requests[1]["body"].dump().find("tester") == std::string::npos);
  CHECK_THAT(model.lastUser(1), Catch::Contains("def test_seconds"));
}

TEST_CASE("tests first: the user's edit is what the code must pass (--tests-file)", "[refine][e2e][testsfirst]") {
  Workspace ws;
  ws.write("dur.py", kDurPy);
  const std::string edited = ws.root() + ".edited_tests.py";
  {
    std::ofstream(edited) << kEdited;
  }
  ScriptedModel model(script());
  auto r = generate(ws, &model, {"dur.py:1", "--tests-file", edited, "--apply", "--json"});
  std::remove(edited.c_str());
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.json["status"] == "passed");
  CHECK(r.json["tests"]["count"] == 2);
  CHECK(r.json["summary"]["rounds"] == 2);
  // The minutes version passed: the seconds one (right for the proposal) would not have.
  CHECK(r.json["code"] == kMinutesImpl);
  CHECK(ws.read("test_dur.py") == kEdited);
  CHECK_THAT(model.lastUser(1), Catch::Contains("returned 0, expected 90"));
  // No test-writing request: the tests were given.
  for (const auto& req : model.requests()) CHECK(req["body"].dump().find("Write the tests for") == std::string::npos);
}

TEST_CASE("tests first, pytest project with tests/: placed in tests/, imported through the src/ package",
          "[refine][e2e][testsfirst]") {
  Workspace ws;
  ws.write("pyproject.toml", "[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n");
  ws.write("src/timing/__init__.py", "");
  ws.write("src/timing/dur.py", kDurPy);
  ws.write("tests/test_other.py", "import pytest\nfrom timing import other\n\n\ndef test_x():\n    assert other.x() == 1\n");
  ws.write("src/timing/other.py", "def x():\n    return 1\n");
  std::string tests = std::string(kProposed);
  tests.replace(0, std::string("from dur import").size(), "from timing.dur import");
  ScriptedModel model(script(tests));
  auto r = generate(ws, &model, {"src/timing/dur.py:1", "--tests-first", "--json"});
  INFO(describe(r));
  if (r.exitCode == 2 && r.err.find("pytest") != std::string::npos) {
    WARN("SKIP: no interpreter here imports pytest (scripts/deps.sh installs python3-pytest)");
    return;
  }
  REQUIRE(r.exitCode == 3);
  CHECK(r.json["tests"]["file"] == ws.path("tests/test_dur.py"));
  CHECK(r.json["tests"]["flagged"].size() == 1);
  CHECK(r.json["tests"]["error"].is_null());
  const std::string prompt = model.requests().at(0)["body"].dump();
  CHECK_THAT(prompt, Catch::Contains("from timing.dur import parse_duration"));
  CHECK_THAT(prompt, Catch::Contains("pytest"));
  CHECK_THAT(prompt, Catch::Contains("tests/test_other.py"));
  CHECK(ws.files() == std::vector<std::string>{".greenlight.json", "pyproject.toml", "src/timing/__init__.py",
                                                     "src/timing/dur.py", "src/timing/other.py", "tests/test_other.py"});

  // Accepted tests that use pytest (pytest.raises) run with an interpreter that imports it.
  const std::string withPytest =
      "import pytest\nfrom timing.dur import parse_duration\n\n\n"
      "def test_hours_minutes():\n    assert parse_duration(\"1h30m\") == 5400\n\n\n"
      "def test_junk():\n    with pytest.raises(ValueError):\n        parse_duration(\"junk\")\n";
  ScriptedModel again(script(withPytest));
  auto accepted = generate(ws, &again, {"src/timing/dur.py:1", "--tests-first", "--yes", "--apply", "--json"});
  INFO(describe(accepted));
  REQUIRE(accepted.exitCode == 0);
  CHECK(accepted.json["summary"]["rounds"] == 2);
  CHECK(accepted.json["summary"]["passed"] == 2);
  CHECK(ws.read("tests/test_dur.py") == withPytest);
  CHECK_THAT(again.lastUser(2), Catch::Contains("DID NOT RAISE"));
}

TEST_CASE("tests first: without --tests-first (generate.testsFirst \"ask\") the CLI keeps the unverified result", "[refine][e2e][testsfirst]") {
  Workspace ws;
  ws.write("dur.py", kDurPy);
  ScriptedModel model(script());
  auto r = generate(ws, &model, {"dur.py:1", "--json"});
  INFO(describe(r));
  CHECK(r.exitCode == 3);
  CHECK(r.json["status"] == "unverified");
  CHECK_FALSE(r.json.contains("tests"));
  for (const auto& req : model.requests()) CHECK(req["body"].dump().find("Write the tests for") == std::string::npos);
}

TEST_CASE("tests first, plain JavaScript: node:test beside the module, the new function exported, both files written",
          "[refine][e2e][testsfirst]") {
  Workspace ws;
  const char* source = "// slugify(text): lowercase words joined by \"-\"; \"Hello World\" -> \"hello-world\"\n\n";
  ws.write("slug.js", source);
  const char* tests =
      "const test = require('node:test');\nconst assert = require('node:assert');\nconst { slugify } = require('./slug.js');\n\n"
      "test('two words', () => {\n  assert.strictEqual(slugify('Hello World'), 'hello-world');\n});\n\n"
      "test('one word', () => {\n  assert.strictEqual(slugify('Hi'), 'hi');\n});\n";
  const char* body = "function slugify(text) {\n  return text.toLowerCase().split(/\\s+/).filter(Boolean).join('-');\n}\n";
  // Wrong first: the function is not exported, so the tests cannot call it.
  json js = {{"rules",
              json::array({{{"match", "Write the tests for slugify()"}, {"text", fenced("javascript", tests)}},
                           {{"match", "slugify()"},
                            {"wrong", fenced("javascript", body)},
                            {"right", fenced("javascript", std::string(body) + "module.exports = { slugify };\n")},
                            {"evidence", "slugify is not a function"}}})}};
  ScriptedModel model(js);
  auto proposed = generate(ws, &model, {"slug.js:1", "--tests-first", "--json"});
  INFO(describe(proposed));
  REQUIRE(proposed.exitCode == 3);
  CHECK(proposed.json["tests"]["file"] == ws.path("slug.test.js"));
  CHECK(proposed.json["tests"]["names"] == json::array({"two words", "one word"}));
  CHECK(proposed.json["tests"]["flagged"] == json::array());
  CHECK_THAT(model.requests().at(0)["body"].dump(), Catch::Contains("require('./slug.js')"));
  CHECK(ws.files() == std::vector<std::string>{".greenlight.json", "slug.js"});

  auto r = generate(ws, &model, {"slug.js:1", "--tests-first", "--yes", "--apply", "--json"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.json["summary"]["rounds"] == 2);
  CHECK(r.json["tests"]["count"] == 2);
  CHECK(ws.read("slug.test.js") == tests);
  CHECK_THAT(ws.read("slug.js"), Catch::Contains("join('-')"));
  CHECK_THAT(ws.read("slug.js"), Catch::Contains("slugify"));
}

TEST_CASE("tests first, C++ without a build: an assert program beside the source, a main that asserts nothing flagged",
          "[refine][e2e][testsfirst]") {
  Workspace ws;
  const char* source = "// clamp_add(a, b, hi): a + b, but never more than hi\nint clamp_add(int a, int b, int hi) {\n  throw 0;\n}\n";
  ws.write("add.cpp", source);
  const char* tests =
      "#include <cassert>\n#include \"add.cpp\"\n\nint main() {\n  assert(clamp_add(2, 3, 10) == 5);\n"
      "  assert(clamp_add(8, 5, 10) == 10);\n  return 0;\n}\n";
  json cxx = {{"rules",
               json::array({{{"match", "Write the tests for clamp_add()"}, {"text", fenced("cpp", tests)}},
                            {{"match", "clamp_add()"},
                             {"text", fenced("cpp", "int clamp_add(int a, int b, int hi) {\n  return a + b > hi ? hi : a + b;\n}")}}})}};
  ScriptedModel model(cxx);
  auto r = generate(ws, &model, {"add.cpp:1", "--tests-first", "--yes", "--apply", "--json"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.json["tests"]["file"] == ws.path("add_test.cpp"));
  CHECK(r.json["tests"]["count"] == 1);
  CHECK(ws.read("add_test.cpp") == tests);
  CHECK_THAT(ws.read("add.cpp"), Catch::Contains("return a + b > hi ? hi : a + b;"));
  CHECK_THAT(model.requests().at(0)["body"].dump(), Catch::Contains("#include \\\"add.cpp\\\""));

  // A program that asserts nothing passes on the stub: flagged, nothing written.
  Workspace empty;
  empty.write("add.cpp", source);
  const json idleScript = {{"rules", json::array({{{"match", "Write the tests for clamp_add()"},
                                                  {"text", fenced("cpp", "#include \"add.cpp\"\n\nint main() {\n  return 0;\n}\n")}}})}};
  ScriptedModel idle(idleScript);
  auto p = generate(empty, &idle, {"add.cpp:1", "--tests-first", "--json"});
  INFO(describe(p));
  REQUIRE(p.exitCode == 3);
  REQUIRE(p.json["tests"]["flagged"].size() == 1);
  CHECK(p.json["tests"]["flagged"][0]["name"] == "main");
  CHECK(empty.files() == std::vector<std::string>{".greenlight.json", "add.cpp"});
}

TEST_CASE("tests first, TypeScript without a runner: <name>.test.ts beside it, imported as an ES module",
          "[refine][e2e][testsfirst]") {
  Workspace ws;
  ws.write("slug.ts", "// slugify(text: string): lowercase words joined by \"-\"\nexport function slugify(text: string): string {\n"
                      "  throw new Error(\"todo\");\n}\n");
  const char* tests =
      "import test from 'node:test';\nimport assert from 'node:assert';\nimport { slugify } from './slug.ts';\n\n"
      "test('two words', () => {\n  assert.strictEqual(slugify('Hello World'), 'hello-world');\n});\n";
  json ts = {{"rules",
              json::array({{{"match", "Write the tests for slugify()"}, {"text", fenced("typescript", tests)}},
                           {{"match", "slugify()"},
                            {"text", fenced("typescript", "export function slugify(text: string): string {\n"
                                                          "  return text.toLowerCase().split(/\\s+/).filter(Boolean).join('-');\n}")}}})}};
  ScriptedModel model(ts);
  auto r = generate(ws, &model, {"slug.ts:1", "--tests-first", "--yes", "--apply", "--json"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.json["tests"]["file"] == ws.path("slug.test.ts"));
  CHECK(ws.read("slug.test.ts") == tests);
  CHECK_THAT(model.requests().at(0)["body"].dump(), Catch::Contains("import { slugify } from './slug.ts';"));
  CHECK_THAT(ws.read("slug.ts"), Catch::Contains("join('-')"));
}

TEST_CASE("tests first: proposed tests that do not collect say so, and --yes refuses them", "[refine][e2e][testsfirst]") {
  Workspace ws;
  ws.write("dur.py", kDurPy);
  const std::string broken = "from dur import parse_duration\n\n\ndef test_a(:\n    assert parse_duration('1h') == 3600\n";
  ScriptedModel model(script(broken));
  auto r = generate(ws, &model, {"dur.py:1", "--tests-first", "--json"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 3);
  CHECK(r.json["status"] == "tests_proposed");
  CHECK(r.json["tests"]["text"] == broken);
  CHECK_THAT(r.json["tests"]["error"].get<std::string>(), Catch::StartsWith("the proposed tests did not collect: SyntaxError"));
  auto yes = generate(ws, &model, {"dur.py:1", "--tests-first", "--yes", "--apply"});
  INFO(describe(yes));
  CHECK(yes.exitCode == 1);
  CHECK_THAT(yes.err, Catch::Contains("did not collect"));
  CHECK(model.requests().size() == 2);  // two test-writing requests, no implementation asked for
  CHECK(ws.files() == std::vector<std::string>{".greenlight.json", "dur.py"});
}

TEST_CASE("tests first: an existing test file of that name gains the new tests at its end, its own kept",
          "[refine][e2e][testsfirst]") {
  Workspace ws;
  ws.write("dur.py", kDurPy);
  // A test file named after the module that tests another one: not dur.py's tests.
  const std::string old = "from other import x\n\n\ndef test_old():\n    assert x() == 1\n";
  ws.write("other.py", "def x():\n    return 1\n");
  ws.write("tests/test_dur.py", old);
  ScriptedModel model(script());
  auto p = generate(ws, &model, {"dur.py:1", "--tests-first", "--json"});
  INFO(describe(p));
  REQUIRE(p.exitCode == 3);
  const json& t = p.json["tests"];
  CHECK(t["file"] == ws.path("tests/test_dur.py"));
  CHECK(t["exists"] == true);
  CHECK(t["original"] == old);
  CHECK(t["text"] == old + "\n\n" + kProposed);
  CHECK(t["names"] == json::array({"test_hours_minutes", "test_seconds", "test_junk", "test_trivial"}));
  REQUIRE(t["flagged"].size() == 1);  // test_old passes too, but it is not a proposed test
  CHECK(t["flagged"][0]["name"] == "test_trivial");
  CHECK(ws.read("tests/test_dur.py") == old);

  auto r = generate(ws, &model, {"dur.py:1", "--tests-first", "--yes", "--apply", "--json"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.json["tests"]["count"] == 4);
  CHECK(r.json["tests"]["new"] == false);
  CHECK(ws.read("tests/test_dur.py") == old + "\n\n" + kProposed);
}

namespace {

// `greenlight generate ARGS` on a pseudo-terminal (util-linux `script`), `answers` typed on it;
// the exit code, or -1 when there is no `script` here.
int onTerminal(const Workspace& ws, const ScriptedModel& model, const std::string& args, const std::string& answers,
               const std::string& editor, std::string* output) {
  if (std::system("command -v script >/dev/null 2>&1") != 0) return -1;
  const std::string out = ws.root() + ".terminal.out";
  const std::string cmd = "cd '" + ws.root() + "' && (sleep 2; printf '" + answers + "') | env -i PATH=\"$PATH\" HOME=\"$HOME\" " +
                          "GREENLIGHT_PROVIDER=openai OPENAI_BASE_URL=" + model.baseUrl() + " OPENAI_API_KEY=" + kApiKey +
                          " GREENLIGHT_MODEL=scripted EDITOR='" + editor + "' script -qec '" + GL_GREENLIGHT_BIN +
                          " generate " + args + "' /dev/null > '" + out + "' 2>&1";
  int status = std::system(cmd.c_str());
  std::ifstream in(out);
  output->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  std::remove(out.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

}  // namespace

TEST_CASE("tests first on a terminal: cancel writes nothing, an edit in $EDITOR is what the code must pass",
          "[refine][e2e][testsfirst]") {
  Workspace ws;
  ws.write("dur.py", kDurPy);
  ScriptedModel model(script());
  std::string out;
  int rc = onTerminal(ws, model, "dur.py:1 --tests-first --apply", "c\\n", "true", &out);
  if (rc == -1) {
    WARN("SKIP: no `script` (util-linux) to give greenlight a terminal");
    return;
  }
  INFO(out);
  CHECK(rc == 1);
  CHECK_THAT(out, Catch::Contains("Accept tests and generate [a], edit [e], cancel [c]?"));
  CHECK_THAT(out, Catch::Contains("cancelled; nothing written"));
  CHECK(ws.files() == std::vector<std::string>{".greenlight.json", "dur.py"});

  // The user's editor changes the unit to minutes and drops the other tests: the code must meet that.
  rc = onTerminal(ws, model, "dur.py:1 --tests-first --apply", "e\\n\\n\\na\\n",
                  "sed -i -e s/5400/90/ -e /test_seconds/,\\$d", &out);
  INFO(out);
  CHECK(rc == 0);
  CHECK_THAT(out, Catch::Contains("1 new test, 1/1 passed"));
  const std::string written = ws.read("test_dur.py");
  CHECK_THAT(written, Catch::Contains("== 90"));
  CHECK(written.find("test_seconds") == std::string::npos);
  CHECK_THAT(ws.read("dur.py"), Catch::Contains("return h * 60 + mi"));
}
