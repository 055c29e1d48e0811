// core/testing/WorkspaceTests: the workspace listing behind greenlight/listWorkspaceTests. What
// matters: the same ids as the per-file listing (results land on the listed items), no walk into
// directories that hold no project tests, and a budget that hands the rest back folder by folder
// so that expanding every unresolved folder finds everything.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>

#include "TestUtil.h"
#include "core/testing/Discovery.h"
#include "core/testing/TestIds.h"
#include "core/testing/WorkspaceTests.h"
#include "core/testing/adapters/TestJob.h"

using namespace greenlight::core::testing;
using greenlight::test::TempWorkspace;
namespace fs = std::filesystem;

namespace {

std::set<std::string> nodeIds(const WorkspaceTests& w) {
  std::set<std::string> out;
  for (const auto& n : w.nodes) out.insert(n.id);
  return out;
}

std::set<std::string> folderIds(const WorkspaceTests& w) {
  std::set<std::string> out;
  for (const auto& f : w.folders) out.insert(f.id);
  return out;
}

const WorkspaceFolder* folder(const WorkspaceTests& w, const std::string& id) {
  for (const auto& f : w.folders)
    if (f.id == id) return &f;
  return nullptr;
}

// A workspace with tests in several languages and folders, and the directories no project keeps
// its tests in (each holding a test file that must not be listed).
void populate(const TempWorkspace& ws) {
  ws.write("pkg/calc.py", "def add(a, b):\n    return a + b\n");
  ws.write("tests/test_calc.py", "def test_add():\n    assert 1\n\n\nclass TestSub:\n    def test_sub(self):\n        assert 1\n");
  ws.write("tests/unit/deep/test_deep.py", "def test_deep():\n    pass\n");
  ws.write("src/__tests__/sum.js", "test('adds', () => {});\n");
  ws.write("web/sum.spec.ts", "describe('sum', () => { it('adds', () => {}); });\n");
  ws.write("cpp/m_test.cpp", "#include <gtest/gtest.h>\nTEST(Math, Adds) { EXPECT_EQ(1, 1); }\n");
  for (const char* skipped : {"node_modules/dep/x.test.js", ".venv/lib/test_v.py", "myenv/test_e.py", "build-debug/test_b.py",
                              "cmake-out/m_test.cpp", "__pycache__/test_c.py", "dist/test_d.py", "pkg.egg-info/test_i.py"})
    ws.write(skipped, "def test_no():\n    pass\ntest('no', () => {});\n");
  ws.write("myenv/pyvenv.cfg", "home = /usr/bin\n");
  ws.write("cmake-out/CMakeCache.txt", "# a build tree\n");
  ws.write("tests/test_helpers.py", "def helper():\n    return 1\n");  // names a test file, defines no test
}

}  // namespace

TEST_CASE("workspace tests: every test file outside skipped directories, with listTests's ids") {
  TempWorkspace ws;
  populate(ws);
  auto w = listWorkspaceTests(ws.root(), {ws.root()}, {}, {});
  CHECK_FALSE(w.truncated);
  CHECK(folderIds(w) == std::set<std::string>{"cpp/", "src/", "src/__tests__/", "tests/", "tests/unit/", "tests/unit/deep/", "web/"});
  for (const auto& f : w.folders) CHECK(f.state == FolderState::Walked);
  const auto ids = nodeIds(w);
  CHECK(ids == std::set<std::string>{"cpp/m_test.cpp", "cpp/m_test.cpp::Math", "cpp/m_test.cpp::Math.Adds",
                                     "src/__tests__/sum.js", "src/__tests__/sum.js::adds",
                                     "tests/test_calc.py", "tests/test_calc.py::test_add", "tests/test_calc.py::TestSub",
                                     "tests/test_calc.py::TestSub::test_sub", "tests/unit/deep/test_deep.py",
                                     "tests/unit/deep/test_deep.py::test_deep", "web/sum.spec.ts", "web/sum.spec.ts::sum",
                                     "web/sum.spec.ts::sum > adds"});
  // A file's parent is its folder; folders' parents chain up to the root ("").
  for (const auto& n : w.nodes) {
    if (n.kind == TestNodeKind::File) CHECK(n.parent == testFileKey(ws.root(), fs::path(n.file).parent_path().string()) + "/");
  }
  CHECK(folder(w, "tests/unit/deep/")->parent == "tests/unit/");
  CHECK(folder(w, "tests/")->parent == "");
  // Parents come before their children.
  std::set<std::string> seen;
  for (const auto& f : w.folders) {
    CHECK((f.parent.empty() || seen.count(f.parent)));
    seen.insert(f.id);
  }
  for (const auto& n : w.nodes) {
    CHECK((n.parent.empty() || seen.count(n.parent)));
    seen.insert(n.id);
  }
  // The ids are those the per-file listing (greenlight/listTests: discovery + testTree) gives.
  for (const char* rel : {"tests/test_calc.py", "web/sum.spec.ts", "cpp/m_test.cpp", "src/__tests__/sum.js"}) {
    DiscoveryRequest r;
    r.path = ws.path(rel);
    r.workspaceRoot = ws.root();
    std::string error;
    auto plan = discoverTests(r, &error);
    INFO(rel << ": " << error);
    REQUIRE(plan);
    for (const auto& n : testTree(*plan, {})) CHECK(ids.count(n.id));
  }
}

TEST_CASE("workspace tests: skipped directories") {
  for (const char* name : {"node_modules", ".git", ".venv", "__pycache__", "build", "build-asan", "cmake-build-debug", "dist",
                           "site-packages", "x.egg-info"})
    CHECK(skippedTestDirectory(std::string("/p/") + name));
  for (const char* name : {"tests", "src", "builder", "test", "__tests__", "env"}) CHECK_FALSE(skippedTestDirectory(std::string("/p/") + name));
}

TEST_CASE("workspace tests: past the budget, folders come back unresolved and expanding them finds the rest") {
  TempWorkspace ws;
  populate(ws);
  const auto full = listWorkspaceTests(ws.root(), {ws.root()}, {}, {});
  WorkspaceScanLimits tight;
  tight.maxEntries = 4;  // the root's own entries already exceed it: every subfolder is unresolved
  auto first = listWorkspaceTests(ws.root(), {ws.root()}, {}, {}, tight);
  CHECK(first.truncated);
  CHECK(first.nodes.empty());
  REQUIRE(folder(first, "tests/"));
  CHECK(folder(first, "tests/")->state == FolderState::Unresolved);
  // The client expands each unresolved folder in turn, as the user opens the tree.
  std::set<std::string> ids = nodeIds(first);
  std::vector<std::string> pending;
  for (const auto& f : first.folders)
    if (f.state == FolderState::Unresolved) pending.push_back(f.path);
  int requests = 0;
  while (!pending.empty() && requests < 100) {
    const std::string dir = pending.back();
    pending.pop_back();
    ++requests;
    auto more = listWorkspaceTests(ws.root(), {dir}, {}, {}, tight);
    for (const auto& id : nodeIds(more)) ids.insert(id);
    for (const auto& f : more.folders) {
      if (f.state == FolderState::Unresolved) pending.push_back(f.path);
      if (f.path == dir) CHECK(f.state == FolderState::Walked);  // an asked-for folder is walked
    }
  }
  CHECK(requests > 1);
  CHECK(ids == nodeIds(full));

  WorkspaceScanLimits oneFile;
  oneFile.maxTestFiles = 1;
  auto capped = listWorkspaceTests(ws.root(), {ws.root()}, {}, {}, oneFile);
  CHECK(capped.truncated);
  CHECK(nodeIds(capped).size() < nodeIds(full).size());

  auto cancelled = listWorkspaceTests(ws.root(), {ws.root()}, {}, {}, {}, [] { return true; });
  CHECK(cancelled.nodes.empty());
  CHECK(cancelled.truncated);
}

TEST_CASE("workspace tests: changed files, unsaved text, links and the filesystem root") {
  TempWorkspace ws;
  populate(ws);
  // A changed test file: its items and the folders on its way, which were not walked.
  auto changed = listWorkspaceTests(ws.root(), {}, {ws.path("tests/unit/deep/test_deep.py"), ws.path("pkg/calc.py"),
                                                    ws.path("tests/gone_test.py"), ws.path("node_modules/dep/x.test.js")}, {});
  CHECK(nodeIds(changed) == std::set<std::string>{"tests/unit/deep/test_deep.py", "tests/unit/deep/test_deep.py::test_deep"});
  CHECK(folderIds(changed) == std::set<std::string>{"tests/", "tests/unit/", "tests/unit/deep/"});
  for (const auto& f : changed.folders) CHECK(f.state == FolderState::Passed);
  // Outside the root: nothing.
  CHECK(listWorkspaceTests(ws.root() + "/tests", {}, {ws.path("web/sum.spec.ts")}, {}).nodes.empty());

  // Unsaved text: a test added in the editor is listed.
  OverlayProvider overlay = [&](const std::string& p) -> std::optional<std::string> {
    if (p == ws.path("tests/unit/deep/test_deep.py")) return std::string("def test_deep():\n    pass\n\ndef test_new():\n    pass\n");
    return std::nullopt;
  };
  CHECK(nodeIds(listWorkspaceTests(ws.root(), {ws.path("tests/unit")}, {}, overlay)).count("tests/unit/deep/test_deep.py::test_new"));

  // A symlinked directory (here a cycle) is not followed.
  fs::create_directory_symlink(ws.root(), ws.path("tests/loop"));
  auto w = listWorkspaceTests(ws.root(), {ws.root()}, {}, {});
  CHECK_FALSE(w.truncated);
  for (const auto& id : nodeIds(w)) CHECK(id.find("loop") == std::string::npos);

  CHECK(listWorkspaceTests("/", {"/"}, {}, {}).folders.empty());
}

TEST_CASE("workspace tests: past the time budget, test files are listed without their tests") {
  TempWorkspace ws;
  populate(ws);
  WorkspaceScanLimits noTime;
  noTime.maxTime = std::chrono::milliseconds(0);
  // The root asked for: walked, but every folder below it is left for later.
  auto first = listWorkspaceTests(ws.root(), {ws.root()}, {}, {}, noTime);
  CHECK(first.truncated);
  CHECK(first.nodes.empty());
  REQUIRE(folder(first, "tests/"));
  CHECK(folder(first, "tests/")->state == FolderState::Unresolved);
  // A folder asked for is walked; its test files come without their tests, marked unlisted.
  auto tests = listWorkspaceTests(ws.root(), {ws.path("tests")}, {}, {}, noTime);
  CHECK(tests.truncated);
  CHECK(nodeIds(tests).count("tests/test_calc.py"));
  CHECK_FALSE(nodeIds(tests).count("tests/test_calc.py::test_add"));
  CHECK(std::find(tests.unlistedFiles.begin(), tests.unlistedFiles.end(), "tests/test_calc.py") != tests.unlistedFiles.end());
  // With time, the same folder's files come with their tests and nothing is unlisted.
  auto timed = listWorkspaceTests(ws.root(), {ws.path("tests")}, {}, {});
  CHECK(timed.unlistedFiles.empty());
  CHECK(nodeIds(timed).count("tests/test_calc.py::test_add"));
}
