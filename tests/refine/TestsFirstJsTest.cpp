// Tests first (issue 36) in projects with their own JavaScript runner: vitest and jest, installed
// at their pinned versions by tests/projects/js/install.sh (GL_JS_PROJECTS names the copies).
// The real binary, the scripted model and the real sandbox: the proposal is checked by the
// project's runner against the stub although the test file exists only as an overlay, and the
// accepted (possibly edited) tests are what the implementation must pass.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "GenerateFixture.h"

using namespace greenlight::test::refine;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// The installed copy of `project`, or "".
std::string installed(const std::string& project) {
  const char* root = std::getenv("GL_JS_PROJECTS");
  if (!root || !*root) return "";
  const std::string dir = std::string(root) + "/" + project;
  return fs::is_directory(dir + "/node_modules") ? dir : "";
}

// The project copied into the workspace (node_modules included: the runner must be found there).
bool copyProject(const std::string& from, const Workspace& ws) {
  std::error_code ec;
  // As root the sandbox runs the project's tests as uid 65534: it must enter the project.
  fs::permissions(ws.root(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                 fs::perms::others_read | fs::perms::others_exec, ec);
  for (const auto& e : fs::directory_iterator(from, ec)) {
    fs::copy(e.path(), ws.path(e.path().filename().string()),
             fs::copy_options::recursive | fs::copy_options::copy_symlinks | fs::copy_options::overwrite_existing, ec);
    if (ec) return false;
  }
  return true;
}

const char* kDurationTs =
    "// parseDuration(text: string): \"1h30m\" -> 5400 seconds; \"90s\" -> 90; throws on junk\n"
    "export function parseDuration(text: string): number {\n"
    "  throw new Error('todo');\n"
    "}\n";

// Three real tests and one that passes on any stub.
const char* kVitestProposed = R"(import { describe, it, expect } from 'vitest';
import { parseDuration } from './duration';

describe('parseDuration', () => {
  it('reads hours and minutes', () => {
    expect(parseDuration('1h30m')).toBe(5400);
  });
  it('reads seconds', () => {
    expect(parseDuration('90s')).toBe(90);
  });
  it('rejects junk', () => {
    expect(() => parseDuration('junk')).toThrow(/junk/);
  });
  it('is trivially true', () => {
    expect(true).toBe(true);
  });
});
)";

// The user's edit: minutes, not seconds.
const char* kVitestEdited = R"(import { describe, it, expect } from 'vitest';
import { parseDuration } from './duration';

describe('parseDuration', () => {
  it('reads hours and minutes as minutes', () => {
    expect(parseDuration('1h30m')).toBe(90);
  });
  it('reads minutes', () => {
    expect(parseDuration('45m')).toBe(45);
  });
});
)";

const char* kSecondsTs = R"(export function parseDuration(text: string): number {
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text);
  if (!text || !m) throw new Error('junk: ' + text);
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
})";

const char* kMinutesTs = R"(export function parseDuration(text: string): number {
  const m = /^(?:(\d+)h)?(?:(\d+)m)?$/.exec(text);
  if (!text || !m) throw new Error('junk: ' + text);
  return Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0);
})";

// Tests for the test-writing request; the minutes version when the prompt holds the edited
// tests (the implementation prompt shows the accepted test file), else the seconds one.
json vitestScript() {
  return {{"rules", json::array({{{"match", "Write the tests for parseDuration()"}, {"text", fenced("typescript", kVitestProposed)}},
                                 {{"match", "toBe(45)"}, {"text", fenced("typescript", kMinutesTs)}},
                                 {{"match", "parseDuration()"}, {"text", fenced("typescript", kSecondsTs)}}})}};
}

std::string describe(const GenerateRun& r) {
  return "exit " + std::to_string(r.exitCode) + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err;
}

}  // namespace

TEST_CASE("tests first, vitest: proposed beside the module in vitest's style, checked by vitest against the stub, nothing written",
          "[testsfirst][js]") {
  const std::string project = installed("vitest-ts");
  REQUIRE(!project.empty());  // the ctest wrapper skips (77) when it is not installed
  Workspace ws;
  REQUIRE(copyProject(project, ws));
  ws.write("src/duration.ts", kDurationTs);
  const auto before = ws.files();
  ScriptedModel model(vitestScript());
  auto r = generate(ws, &model, {"src/duration.ts:1", "--tests-first", "--json"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 3);
  const json& j = r.json;
  CHECK(j["status"] == "tests_proposed");
  CHECK(j["applied"] == false);
  const json& t = j["tests"];
  CHECK(t["file"] == ws.path("src/duration.test.ts"));
  CHECK(t["exists"] == false);
  CHECK(t["text"] == kVitestProposed);
  CHECK(t["count"] == 4);
  CHECK(t["error"].is_null());
  // vitest ran them against the stub: only the trivial one passed there.
  REQUIRE(t["flagged"].size() == 1);
  CHECK_THAT(t["flagged"][0]["name"].get<std::string>(), Catch::Contains("is trivially true"));
  CHECK(t["flagged"][0]["line"] == 14);
  // The test-writing request: vitest's style, the import as the project's tests do, no implementation.
  auto requests = model.requests();
  REQUIRE(requests.size() == 1);
  const std::string prompt = requests[0]["body"].dump();
  CHECK_THAT(prompt, Catch::Contains("from 'vitest'"));
  CHECK_THAT(prompt, Catch::Contains("import { parseDuration } from './duration';"));
  CHECK_THAT(prompt, Catch::Contains("src/duration.test.ts"));
  CHECK(prompt.find("Number(m[1]") == std::string::npos);
  CHECK(ws.files() == before);
  CHECK(ws.read("src/duration.ts") == kDurationTs);
}

TEST_CASE("tests first, vitest: the user's edited tests are what vitest holds the code to, both files land",
          "[testsfirst][js]") {
  const std::string project = installed("vitest-ts");
  REQUIRE(!project.empty());  // the ctest wrapper skips (77) when it is not installed
  Workspace ws;
  REQUIRE(copyProject(project, ws));
  ws.write("src/duration.ts", kDurationTs);
  const std::string edited = ws.root() + ".edited.test.ts";
  {
    std::ofstream(edited) << kVitestEdited;
  }
  ScriptedModel model(vitestScript());
  auto r = generate(ws, &model, {"src/duration.ts:1", "--tests-file", edited, "--apply", "--json"});
  std::remove(edited.c_str());
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.json["status"] == "passed");
  CHECK(r.json["tests"]["file"] == ws.path("src/duration.test.ts"));
  CHECK(r.json["tests"]["count"] == 2);
  CHECK(r.json["tests"]["new"] == true);
  CHECK(r.json["summary"]["passed"] == 2);
  CHECK(ws.read("src/duration.test.ts") == kVitestEdited);
  CHECK_THAT(ws.read("src/duration.ts"), Catch::Contains("Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0)"));
  for (const auto& req : model.requests()) CHECK(req["body"].dump().find("Write the tests for") == std::string::npos);
}

TEST_CASE("tests first, vitest: the seconds code fails the edited (minutes) tests", "[testsfirst][js]") {
  // The edit decides: with a model that only knows the seconds version, the edited tests fail.
  const std::string project = installed("vitest-ts");
  REQUIRE(!project.empty());  // the ctest wrapper skips (77) when it is not installed
  Workspace ws;
  REQUIRE(copyProject(project, ws));
  ws.write("src/duration.ts", kDurationTs);
  const std::string edited = ws.root() + ".edited.test.ts";
  {
    std::ofstream(edited) << kVitestEdited;
  }
  json seconds = {{"rules", json::array({{{"match", "parseDuration()"}, {"text", fenced("typescript", kSecondsTs)}}})}};
  ScriptedModel model(seconds);
  auto r = generate(ws, &model, {"src/duration.ts:1", "--tests-file", edited, "--apply", "--json", "--rounds", "1"});
  std::remove(edited.c_str());
  INFO(describe(r));
  CHECK(r.exitCode != 0);
  CHECK(r.json["status"] == "failed");
  CHECK(!fs::exists(ws.path("src/duration.test.ts")));
  CHECK(ws.read("src/duration.ts") == kDurationTs);
}

TEST_CASE("tests first, jest: placed in __tests__ as the project keeps them, jest globals, accepted with --yes", "[testsfirst][js]") {
  const std::string project = installed("jest-js");
  REQUIRE(!project.empty());
  Workspace ws;
  REQUIRE(copyProject(project, ws));
  const char* source =
      "'use strict';\n\n// parseDuration(text): \"1h30m\" -> 5400 seconds; \"90s\" -> 90; throws on junk\n"
      "function parseDuration(text) {\n  throw new Error('todo');\n}\n\nmodule.exports = { parseDuration };\n";
  ws.write("src/duration.js", source);
  const char* tests = R"('use strict';

const { parseDuration } = require('../src/duration.js');

test('reads hours and minutes', () => {
  expect(parseDuration('1h30m')).toBe(5400);
});

test('reads seconds', () => {
  expect(parseDuration('90s')).toBe(90);
});
)";
  const char* impl = R"(function parseDuration(text) {
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text);
  if (!text || !m) throw new Error('junk: ' + text);
  return Number(m[1] || 0) * 3600 + Number(m[2] || 0) * 60 + Number(m[3] || 0);
})";
  json script = {{"rules", json::array({{{"match", "Write the tests for parseDuration()"}, {"text", fenced("javascript", tests)}},
                                        {{"match", "parseDuration()"}, {"text", fenced("javascript", impl)}}})}};
  ScriptedModel model(script);
  const auto before = ws.files();
  auto proposed = generate(ws, &model, {"src/duration.js:3", "--tests-first", "--json"});
  INFO(describe(proposed));
  REQUIRE(proposed.exitCode == 3);
  CHECK(proposed.json["tests"]["file"] == ws.path("__tests__/duration.test.js"));
  CHECK(proposed.json["tests"]["count"] == 2);
  CHECK(proposed.json["tests"]["flagged"] == json::array());
  CHECK(proposed.json["tests"]["error"].is_null());
  const std::string prompt = model.requests().at(0)["body"].dump();
  CHECK_THAT(prompt, Catch::Contains("require('../src/duration.js')"));
  CHECK_THAT(prompt, Catch::Contains("jest with its globals"));
  CHECK(ws.files() == before);

  auto r = generate(ws, &model, {"src/duration.js:3", "--tests-first", "--yes", "--apply", "--json"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.json["status"] == "passed");
  CHECK(r.json["summary"]["passed"] == 2);
  CHECK(ws.read("__tests__/duration.test.js") == tests);
  CHECK_THAT(ws.read("src/duration.js"), Catch::Contains("Number(m[1] || 0) * 3600"));
}

TEST_CASE("tests first, mocha: a spec in test/ with chai, run by mocha from its overlay, a stub-passing test flagged",
          "[testsfirst][js]") {
  const std::string project = installed("mocha-js");
  REQUIRE(!project.empty());
  Workspace ws;
  REQUIRE(copyProject(project, ws));
  const char* source =
      "'use strict';\n\n// parseDuration(text): \"1h30m\" -> 5400 seconds; \"90s\" -> 90\n"
      "function parseDuration(text) {\n  throw new Error('todo');\n}\n\nmodule.exports = { parseDuration };\n";
  ws.write("lib/duration.js", source);
  const char* tests = R"('use strict';

const {expect} = require('chai');
const { parseDuration } = require('../lib/duration.js');

describe('parseDuration', function () {
  it('reads hours and minutes', function () {
    expect(parseDuration('1h30m')).to.equal(5400);
  });

  it('is a function', function () {
    expect(parseDuration).to.be.a('function');
  });
});
)";
  json script = {{"rules", json::array({{{"match", "Write the tests for parseDuration()"}, {"text", fenced("javascript", tests)}}})}};
  ScriptedModel model(script);
  const auto before = ws.files();
  auto r = generate(ws, &model, {"lib/duration.js:3", "--tests-first", "--json"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 3);
  const json& t = r.json["tests"];
  CHECK(t["file"] == ws.path("test/duration.js"));
  CHECK(t["count"] == 2);
  CHECK(t["error"].is_null());
  REQUIRE(t["flagged"].size() == 1);
  CHECK_THAT(t["flagged"][0]["name"].get<std::string>(), Catch::Contains("is a function"));
  CHECK_THAT(model.requests().at(0)["body"].dump(), Catch::Contains("mocha with chai"));
  CHECK(ws.files() == before);
}
