// C++ line coverage of the single-file runner (CxxRunner.cpp, issue 35) through the sandbox,
// against gcov run by hand on the same two files compiled with --coverage on the host: the same
// executable lines with the same counts, the branch no test reaches at 0, the same outcome with
// GREENLIGHT_COVERAGE=0 (and nothing measured), clang++ measuring nothing
// and ending as it does without coverage.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <map>
#include <regex>
#include <sstream>

#include "RunHelpers.h"
#include "TestUtil.h"

using namespace greenlight::core::testing;
using greenlight::test::runIn;
using greenlight::test::runShell;
using greenlight::test::TempWorkspace;

namespace {

const char kSource[] = R"(int clamp(int v, int lo, int hi) {
  if (v < lo)
    return lo;
  if (v > hi)
    return hi;  // no test reaches this
  return v;
}
)";

const char kTest[] = R"(#include <cassert>
int clamp(int v, int lo, int hi);
int main() {
  assert(clamp(-1, 0, 10) == 0);
  assert(clamp(5, 0, 10) == 5);
  assert(clamp(7, 0, 10) == 7);
  return 0;
}
)";

// `gcov -t` (text on stdout) of clamp.cpp after running the program built by hand.
std::map<int, long> gcovByHand(const TempWorkspace& ws) {
  const std::string dir = ws.root() + "/byhand";
  auto r = runShell("mkdir -p " + dir + " && cd " + dir + " && g++ --coverage -o t ../clamp.cpp ../clamp_test.cpp && ./t && gcov -t t-clamp.gcda 2>/dev/null");
  REQUIRE(r.exitCode == 0);
  std::map<int, long> hits;
  static const std::regex line(R"(^\s*([^:]+):\s*(\d+):)");
  std::istringstream in(r.out);
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (!std::regex_search(l, m, line)) continue;
    const std::string count = m[1].str();
    const int n = std::stoi(m[2].str());
    if (n == 0 || count == "-") continue;
    hits[n] = count[0] == '#' || count[0] == '=' ? 0 : std::atol(count.c_str());
  }
  return hits;
}

}  // namespace

TEST_CASE("c++ coverage: the single-file runner agrees with gcov by hand, line by line") {
  if (std::system("command -v g++ >/dev/null 2>&1 && command -v gcov >/dev/null 2>&1") != 0) {
    WARN("SKIP: g++ or gcov not installed (scripts/deps.sh installs them)");
    return;
  }
  TempWorkspace ws;
  const std::string source = ws.write("clamp.cpp", kSource);
  ws.write("clamp_test.cpp", kTest);
  const auto want = gcovByHand(ws);
  REQUIRE(want.count(5) == 1);
  REQUIRE(want.at(5) == 0);

  auto run = runIn(source);
  INFO(greenlight::test::describe(run.result));
  REQUIRE(run.result.summary.passed == 1);
  REQUIRE(run.result.coverage.size() == 1);
  CHECK(run.result.coverage[0].file == source);
  CHECK(run.result.coverage[0].hits == want);

  ::setenv("GREENLIGHT_COVERAGE", "0", 1);
  auto off = runIn(source);
  ::unsetenv("GREENLIGHT_COVERAGE");
  CHECK(off.result.summary.passed == 1);
  CHECK(off.result.summary.failed == 0);
  CHECK(off.result.coverage.empty());
}

TEST_CASE("c++ coverage: a clang++ run measures nothing and ends as it does without coverage") {
  if (std::system("command -v clang++ >/dev/null 2>&1") != 0) {
    WARN("SKIP: clang++ not installed (scripts/deps.sh installs it)");
    return;
  }
  TempWorkspace ws;
  const std::string source = ws.write("clamp.cpp", kSource);
  ws.write("clamp_test.cpp", kTest);
  auto runWith = [&](bool coverage) {
    if (!coverage) ::setenv("GREENLIGHT_COVERAGE", "0", 1);
    TestService::Options o;
    o.workers = 1;
    TestService service(o);
    RunRequest r;
    r.path = source;
    r.config.cxxCompiler = "clang++";
    auto out = service.runNow(std::move(r));
    ::unsetenv("GREENLIGHT_COVERAGE");
    return out;
  };
  auto with = runWith(true), without = runWith(false);
  INFO(greenlight::test::describe(with.result));
  CHECK(with.result.coverage.empty());
  CHECK(greenlight::test::describe(with.result) == greenlight::test::describe(without.result));
}
