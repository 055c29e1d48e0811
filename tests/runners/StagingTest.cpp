// The host side of a run's scratch tree: what it copies, where it lives, that it goes away.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "TestUtil.h"
#include "core/testing/Staging.h"

using namespace greenlight::core::testing;
using greenlight::test::TempWorkspace;
namespace fs = std::filesystem;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool isWritableDir(const char* path) {
  struct stat st{};
  return ::stat(path, &st) == 0 && S_ISDIR(st.st_mode) && ::access(path, W_OK | X_OK) == 0;
}

}  // namespace

TEST_CASE("staging: copies the files (unsaved text first) into memory and removes them after") {
  TempWorkspace ws;
  auto src = ws.write("m.py", "def f():\n    return 1\n");
  auto test = ws.write("test_m.py", "from m import f\n");
  TestPlan plan;
  plan.sourceFile = src;
  plan.workspaceRoot = ws.root();
  plan.testFiles = {test};
  std::string root;
  {
    Staging staging;
    std::string error;
    REQUIRE(staging.prepare(plan, [&](const std::string& p) -> std::optional<std::string> {
      if (p == src) return std::string("def f():\n    return 2\n");
      return std::nullopt;
    }, &error));
    root = staging.hostRoot();
    // A disk-backed /tmp made staging cost ~2 ms a run; /dev/shm is tmpfs wherever it exists.
    if (isWritableDir("/dev/shm")) CHECK(root.rfind("/dev/shm/greenlight-run-", 0) == 0);
    struct stat st{};
    REQUIRE(::stat(root.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0700);  // private to this user until the sandbox copies it
    CHECK(slurp(root + "/src/m.py") == "def f():\n    return 2\n");
    CHECK(slurp(root + "/src/test_m.py") == "from m import f\n");
    CHECK(staging.toSandbox(src) == "/work/src/m.py");
    CHECK(staging.addHarnessFile("h.txt", "x") == "/work/.gl/h.txt");
    CHECK(slurp(root + "/.gl/h.txt") == "x");
  }
  CHECK_FALSE(fs::exists(root));
}
