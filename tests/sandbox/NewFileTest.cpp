// New files in a read-only bind (sandbox/NewFiles.h): a file bound at a path its read-only
// enclosing bind does not hold appears there, through an overlay of its directory, while the
// directory keeps its entries, their contents and its read-only state, and the host is untouched.
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <string>

#include "TestSupport.h"
#include "sandbox/Sandbox.h"

using greenlight::sandbox::Policy;
using greenlight::sandbox::run;
using greenlight::sandbox::Status;
using greenlight::sandbox::Verdict;
using namespace gltest;

namespace {

bool contains(const std::string& s, const std::string& needle) { return s.find(needle) != std::string::npos; }

std::set<std::string> listing(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) names.insert(e.path().string());
  return names;
}

// A project with a module, a sibling test and a subdirectory; the new files' copies live apart.
struct Project {
  TempDir ws, scratch;
  Project() {
    ws.file("math.ts", "export const add = (a: number, b: number) => a + b;\n");
    ws.file("old.test.ts", "old test\n");
    std::filesystem::create_directory(ws.path() + "/lib");
    ws.file("lib/util.ts", "util\n");
  }
  Policy policy(const std::string& script) const {
    Policy p = policyFor({"/bin/sh", "-c", script});
    p.binds.push_back({ws.path(), "", false});
    return p;
  }
};

}  // namespace

TEST_CASE("a new file appears in a read-only bind, its directory is otherwise the host's", "[newfiles]") {
  Project pr;
  const std::string& ws = pr.ws.path();
  const auto before = listing(ws);
  Policy p = pr.policy("cd " + ws +
                       " && ls -A . && echo --- && cat math.test.ts old.test.ts math.ts lib/util.ts && echo --- && "
                       "(touch x 2>/dev/null && echo wrote-x; echo y > old.test.ts 2>/dev/null && echo wrote-old; "
                       "echo y > math.test.ts 2>/dev/null && echo wrote-new; rm math.ts 2>/dev/null && echo removed; "
                       "echo done)");
  p.binds.push_back({pr.scratch.file("copy.ts", "new test\n"), ws + "/math.test.ts", false});
  Verdict v = run(p);
  INFO(describe(v));
  REQUIRE(v.status == Status::Ok);
  CHECK(v.stdoutData == "lib\nmath.test.ts\nmath.ts\nold.test.ts\n---\nnew test\nold test\n"
                        "export const add = (a: number, b: number) => a + b;\nutil\n---\ndone\n");
  // Nothing was written to the host: same entries, and the copy's source is as it was.
  CHECK(listing(ws) == before);
  CHECK(!std::filesystem::exists(ws + "/math.test.ts"));
}

TEST_CASE("new files of one directory share its overlay, missing directories are made, overlays of existing files still land", "[newfiles]") {
  Project pr;
  const std::string& ws = pr.ws.path();
  Policy p = pr.policy("cd " + ws + " && cat a.test.ts b.test.ts __tests__/c.test.ts old.test.ts lib/d.test.ts && ls -A lib __tests__");
  p.binds.push_back({pr.scratch.file("a", "A\n"), ws + "/a.test.ts", false});
  p.binds.push_back({pr.scratch.file("b", "B\n"), ws + "/b.test.ts", false});
  p.binds.push_back({pr.scratch.file("c", "C\n"), ws + "/__tests__/c.test.ts", false});
  p.binds.push_back({pr.scratch.file("old", "edited old\n"), ws + "/old.test.ts", false});
  p.binds.push_back({pr.scratch.file("d", "D\n"), ws + "/lib/d.test.ts", false});
  Verdict v = run(p);
  INFO(describe(v));
  REQUIRE(v.status == Status::Ok);
  CHECK(v.stdoutData == "A\nB\nC\nedited old\nD\n__tests__:\nc.test.ts\n\nlib:\nd.test.ts\nutil.ts\n");
  CHECK(!std::filesystem::exists(ws + "/__tests__"));
  CHECK(!std::filesystem::exists(ws + "/a.test.ts"));
}

TEST_CASE("a new file's later contents are what a later run sees (no sandbox built ahead holds an old copy)", "[newfiles]") {
  SparesScope spares(true);
  Project pr;
  const std::string& ws = pr.ws.path();
  const std::string copy = pr.scratch.file("copy", "first\n");
  for (const char* text : {"first\n", "second\n", "third\n"}) {
    pr.scratch.file("copy", text);
    Policy p = pr.policy("cat " + ws + "/new.test.ts");
    p.binds.push_back({copy, ws + "/new.test.ts", false});
    Verdict v = run(p);
    INFO(describe(v));
    CHECK(v.stdoutData == text);
  }
}

TEST_CASE("a new file whose directory's path overlayfs options cannot carry is a setup error", "[newfiles]") {
  Project pr;
  const std::string odd = pr.ws.path() + "/a:b";
  std::filesystem::create_directory(odd);
  Policy p = pr.policy("true");
  p.binds.push_back({pr.scratch.file("x", "x\n"), odd + "/x.test.ts", false});
  Verdict v = run(p);
  INFO(describe(v));
  CHECK(v.status == Status::SetupError);
  CHECK(contains(v.setupError, "plan: new file " + odd + "/x.test.ts"));
  CHECK(contains(v.setupError, "overlayfs options cannot carry"));
  CHECK(!std::filesystem::exists(odd + "/x.test.ts"));
}
